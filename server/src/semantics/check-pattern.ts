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

export function checkPatternArgument(a: Analysis, arg: Expr, what: string): void {
  if (arg.kind !== 'string') {
    report(a, issueCodes.badPattern, 'error', arg.span, `${what} must be a string literal (it is compiled and checked before any row is read)`);
    return;
  }
  // A backslash the string itself loses (`"\d"`) is a `bad-escape` error of the parse (syntax/parse.ts).
  const compiled = compilePattern(arg.value);
  if (compiled.ok) return;
  const spans = valueSpans(arg);
  const at = compiled.at;
  const span = at === undefined || at.end <= at.start || spans[at.start] === undefined || spans[at.end - 1] === undefined
    ? arg.span
    : { start: spans[at.start]!.start, end: spans[at.end - 1]!.end };
  report(a, issueCodes.badPattern, 'error', span, compiled.message);
}
