import { RE2JS, RE2JSSyntaxException, type Matcher } from 're2js';
import { maxPatternInstructions, maxPatternWork } from '../problems/limits.js';
import { EvaluationError } from './eval-error.js';

// Regular expressions of `matches`, `first_match` and the other pattern functions: RE2 syntax, run
// by re2js (a pure-JS port of RE2), whose time is linear in the text whatever the pattern. JS RegExp
// backtracks: a hostile pattern such as `(a+)+$` hangs it. A pattern is a string literal, compiled
// and checked once.

/**
 * A checked pattern. Every method matches unanchored (RE2's PartialMatch) and takes the name of the
 * function that asks, for the message when the text is past the matching bound. `group` is a
 * capture group number from 0 (the whole match) to `groups`; a group that takes no part in a match
 * reads `""`.
 */
export interface Pattern {
  readonly source: string;
  /** Compiled program size, the factor of the text's length in the worst case. */
  readonly instructions: number;
  /** The number of capture groups. */
  readonly groups: number;
  test(text: string, what?: string): boolean;
  /** The leftmost match's group (Python's `re.search(p, text).group(g)`), `""` without a match. */
  first(text: string, group: number, what: string): string;
  /** The last of the successive non-overlapping matches' group (Python's `list(re.finditer(p, text))[-1].group(g)`), `""` without a match. */
  last(text: string, group: number, what: string): string;
  /** The successive non-overlapping matches' groups, in order (Python's `re.finditer`). */
  all(text: string, group: number, what: string): string[];
  /** How many successive non-overlapping matches there are (Python's `len(re.findall(p, text))`). */
  count(text: string, what: string): number;
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
  const tooLong = (what: string, text: string): EvaluationError =>
    new EvaluationError(`${what}(…, "${source}") on a text of ${text.length} characters: past the matching bound (${budget} characters for a pattern of ${instructions} instructions)`);
  /**
   * Each successive match, as the matcher and its start. A search from `from` may read the text to
   * its end, so each is charged the characters from there on: the sum may not pass the bound (a
   * pattern such as `.*z|a` does read to the end for every match).
   */
  function* successive(text: string, what: string): Generator<Matcher> {
    const matcher = compiled.matcher(text);
    let charged = 0;
    let from = 0;
    for (;;) {
      charged += text.length - from;
      if (charged > budget) throw tooLong(what, text);
      // After an empty match the next search starts one character (code point) later, as
      // Python's does, and a match may then abut the previous one.
      if (!matcher.find()) return;
      yield matcher;
      from = matcher.end();
    }
  }
  const groupOf = (matcher: Matcher, group: number): string => matcher.group(group) ?? '';
  return {
    ok: true,
    pattern: {
      source, instructions, groups: compiled.groupCount(),
      test(text, what = 'matches') {
        if (text.length > budget) throw tooLong(what, text);
        return compiled.test(text);
      },
      first(text, group, what) {
        if (text.length > budget) throw tooLong(what, text);
        const matcher = compiled.matcher(text);
        return matcher.find() ? groupOf(matcher, group) : '';
      },
      last(text, group, what) {
        let found = '';
        for (const matcher of successive(text, what)) found = groupOf(matcher, group);
        return found;
      },
      all(text, group, what) {
        const found: string[] = [];
        for (const matcher of successive(text, what)) found.push(groupOf(matcher, group));
        return found;
      },
      count(text, what) {
        const matches = successive(text, what);
        let found = 0;
        while (matches.next().done !== true) found++;
        return found;
      },
    },
  };
}
