import { issueCodes } from '../problems/issue-codes.js';
import type { Span } from '../problems/span.js';
import { compilePattern } from '../language/patterns.js';
import type { Expr, StringLit } from '../syntax/ast.js';
import { report, type Analysis } from './analysis.js';

// The pattern argument of `matches`: a string literal that RE2 compiles within the size limit,
// checked here so that a bad pattern is an error at its place in the spec, never at run time.

/** Where each character of the literal's value is written: `[start, end)` offsets into the spec. */
function valueSpans(literal: StringLit): Span[] {
  const spans: Span[] = [];
  const base = literal.span.start + 1;
  for (let i = 0; i < literal.raw.length; i++) {
    const start = base + i;
    if (literal.raw[i] === '\\') i++;
    spans.push({ start, end: base + i + 1 });
  }
  return spans;
}

/** The first escape other than `\\` and `\"`: it would lose its backslash before RE2 reads it (`\d` is `d`). */
function lostEscape(raw: string): number {
  for (let i = 0; i < raw.length; i++) {
    if (raw[i] !== '\\') continue;
    if (raw[i + 1] !== '\\' && raw[i + 1] !== '"') return i;
    i++;
  }
  return -1;
}

export function checkPatternArgument(a: Analysis, arg: Expr, what: string): void {
  if (arg.kind !== 'string') {
    report(a, issueCodes.badPattern, 'error', arg.span, `${what} must be a string literal (it is compiled and checked before any row is read)`);
    return;
  }
  const escape = lostEscape(arg.raw);
  if (escape >= 0) {
    const start = arg.span.start + 1 + escape;
    const written = arg.raw.slice(escape, escape + 2);
    report(a, issueCodes.badPattern, 'error', { start, end: start + written.length },
      `in a spec string \`${written}\` is just \`${written.slice(1)}\`: write \`\\${written}\` for RE2's \`${written}\``);
    return;
  }
  const compiled = compilePattern(arg.value);
  if (compiled.ok) return;
  const spans = valueSpans(arg);
  const at = compiled.at;
  const span = at === undefined || at.end <= at.start || spans[at.start] === undefined || spans[at.end - 1] === undefined
    ? arg.span
    : { start: spans[at.start]!.start, end: spans[at.end - 1]!.end };
  report(a, issueCodes.badPattern, 'error', span, compiled.message);
}
