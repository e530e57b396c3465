import { RE2JS, RE2JSSyntaxException } from 're2js';
import { maxPatternInstructions, maxPatternWork } from '../problems/limits.js';
import { EvaluationError } from './eval-error.js';

// Regular expressions of `matches(text, "pattern")`: RE2 syntax, run by re2js (a pure-JS port of
// RE2), whose time is linear in the text whatever the pattern. JS RegExp backtracks: a hostile
// pattern such as `(a+)+$` hangs it. A pattern is a string literal, compiled and checked once.

/** A checked pattern: `test` finds a match anywhere in the text (unanchored, as RE2's PartialMatch). */
export interface Pattern {
  readonly source: string;
  /** Compiled program size, the factor of the text's length in the worst case. */
  readonly instructions: number;
  test(text: string): boolean;
}

export type PatternResult =
  | { readonly ok: true; readonly pattern: Pattern }
  /** `at`: where in the pattern the problem is (offsets into the pattern), when RE2 names a part of it. */
  | { readonly ok: false; readonly message: string; readonly at?: { readonly start: number; readonly end: number } };

/** Compiles `source` (RE2 syntax, no flags: `(?i)`, `(?s)`, `(?m)` written inline) within the size limit. */
export function compilePattern(source: string): PatternResult {
  let compiled: RE2JS;
  try {
    compiled = RE2JS.compile(source);
  } catch (error) {
    if (!(error instanceof RE2JSSyntaxException)) throw error;
    const part = error.input ?? '';
    const start = part.length > 0 ? source.indexOf(part) : -1;
    const reason = error.error;
    return start < 0
      ? { ok: false, message: `not an RE2 pattern: ${reason}` }
      : { ok: false, message: `not an RE2 pattern: ${reason}: \`${part}\``, at: { start, end: start + part.length } };
  }
  const instructions = compiled.programSize();
  if (instructions > maxPatternInstructions) {
    return { ok: false, message: `this pattern compiles to ${instructions} instructions, more than the ${maxPatternInstructions} a pattern may have: shorten its repetitions` };
  }
  const budget = Math.floor(maxPatternWork / Math.max(1, instructions));
  return {
    ok: true,
    pattern: {
      source, instructions,
      test(text) {
        if (text.length > budget) {
          throw new EvaluationError(`matches(…, "${source}") on a text of ${text.length} characters: past the matching bound (${budget} characters for a pattern of ${instructions} instructions)`);
        }
        return compiled.test(text);
      },
    },
  };
}
