import type { SearchStep, TraceStep } from '../pool/types.js';
import { EvaluationError } from './eval-error.js';
import { plainNormalizer, type Normalizer } from './normalizer.js';
import type { Turn } from './turns.js';
import type { Ids } from './values.js';

// The implementations behind the built-in functions (builtins.ts declares their signatures and docs
// and wires them), pure and reusable by the analyses' own metrics. Functions that normalise text
// take the normaliser to use: an evaluation passes its caching one.

export type Collection = Ids | readonly TraceStep[] | readonly Turn[];

function answersOf(value: string | readonly string[]): readonly string[] {
  return typeof value === 'string' ? [value] : value;
}

export function exactMatch(text: string, answers: string | readonly string[], normalizer: Normalizer = plainNormalizer): number {
  const normalized = normalizer.normalize(text);
  return answersOf(answers).some((a) => normalizer.normalize(a) === normalized) ? 1 : 0;
}

function f1(prediction: readonly string[], truth: readonly string[]): number {
  if (prediction.length === 0 || truth.length === 0) return prediction.length === truth.length ? 1 : 0;
  const counts = new Map<string, number>();
  for (const t of truth) counts.set(t, (counts.get(t) ?? 0) + 1);
  let common = 0;
  for (const p of prediction) {
    const left = counts.get(p) ?? 0;
    if (left > 0) {
      common++;
      counts.set(p, left - 1);
    }
  }
  if (common === 0) return 0;
  const precision = common / prediction.length;
  const recall = common / truth.length;
  return (2 * precision * recall) / (precision + recall);
}

export function tokenF1(text: string, answers: string | readonly string[], normalizer: Normalizer = plainNormalizer): number {
  const prediction = normalizer.tokens(text);
  let best = 0;
  for (const answer of answersOf(answers)) best = Math.max(best, f1(prediction, normalizer.tokens(answer)));
  return best;
}

/**
 * F1 over the sets of words, as DeepResearcher and ASearcher compute it: repeats count once, and
 * a text or an answer with no word scores 0 against it (never 1, unlike `tokenF1`).
 */
function setF1(prediction: ReadonlySet<string>, truth: ReadonlySet<string>): number {
  if (prediction.size === 0 || truth.size === 0) return 0;
  let common = 0;
  for (const p of prediction) if (truth.has(p)) common++;
  if (common === 0) return 0;
  const precision = common / prediction.size;
  const recall = common / truth.size;
  return (2 * precision * recall) / (precision + recall);
}

export function tokenSetF1(text: string, answers: string | readonly string[], normalizer: Normalizer = plainNormalizer): number {
  const prediction = new Set(normalizer.tokens(text));
  let best = 0;
  for (const answer of answersOf(answers)) best = Math.max(best, setF1(prediction, new Set(normalizer.tokens(answer))));
  return best;
}

/**
 * Cover-EM (ASearcher's and R1-Searcher's `cover_exact_match_score_1`): 1 when every word of some
 * normalised answer is a word of the normalised text, in any order. Python splits the normalised
 * texts on " ", so a text with no words is one empty word: an answer with no words covers exactly
 * the texts with no words.
 */
export function coverMatch(text: string, answers: string | readonly string[], normalizer: Normalizer = plainNormalizer): number {
  const words = new Set(normalizer.tokens(text));
  return answersOf(answers).some((answer) => {
    const wanted = normalizer.tokens(answer);
    return wanted.length === 0 ? words.size === 0 : wanted.every((w) => words.has(w));
  }) ? 1 : 0;
}

/**
 * Python's `text.count(part)`: non-overlapping occurrences, searched left to right (`"aaaa"` holds
 * `"aa"` twice). The empty part occurs once more than the text has characters (code points).
 */
export function countOf(text: string, part: string): number {
  if (part.length === 0) {
    // Code points: a surrogate pair is one character to Python.
    let codePoints = text.length;
    for (let i = 0; i < text.length - 1; i++) {
      const code = text.charCodeAt(i);
      if (code >= 0xd800 && code <= 0xdbff) {
        const next = text.charCodeAt(i + 1);
        if (next >= 0xdc00 && next <= 0xdfff) {
          codePoints--;
          i++;
        }
      }
    }
    return codePoints + 1;
  }
  let count = 0;
  for (let at = text.indexOf(part); at >= 0; at = text.indexOf(part, at + part.length)) count++;
  return count;
}

// Python's round(x, n) on a double: the exact binary value of x rounded to n decimal places, an
// exact tie going to the even last digit, then read back as the nearest double (CPython's
// float.__round__ through dtoa). So round(2.675, 2) is 2.67: the double 2.675 is 2.67499999…
// Past ±308 … 323 places CPython returns 0 or x itself; so does this.
const roundAllDigits = 323;
const roundNoDigits = -308;

/** The double `x` as `mantissa · 2^exponent` exactly (x finite and nonzero). */
function binaryParts(x: number): { mantissa: bigint; exponent: number } {
  const view = new DataView(new ArrayBuffer(8));
  view.setFloat64(0, Math.abs(x));
  const bits = view.getBigUint64(0);
  const biased = Number((bits >> 52n) & 0x7ffn);
  const fraction = bits & ((1n << 52n) - 1n);
  return biased === 0
    ? { mantissa: fraction, exponent: -1074 }
    : { mantissa: fraction | (1n << 52n), exponent: biased - 1075 };
}

/** `numerator / denominator` rounded to a whole number, an exact half to the even one (both positive). */
function divideHalfEven(numerator: bigint, denominator: bigint): bigint {
  const quotient = numerator / denominator;
  const twice = 2n * (numerator % denominator);
  if (twice > denominator || (twice === denominator && quotient % 2n === 1n)) return quotient + 1n;
  return quotient;
}

export function pythonRound(x: number, digits: number): number {
  if (!Number.isFinite(x) || x === 0 || digits > roundAllDigits) return x;
  if (digits < roundNoDigits) return x < 0 ? -0 : 0;
  const { mantissa, exponent } = binaryParts(x);
  // |x| · 10^digits = numerator / denominator, exactly.
  let numerator = mantissa;
  let denominator = 1n;
  if (exponent >= 0) numerator <<= BigInt(exponent);
  else denominator <<= BigInt(-exponent);
  if (digits >= 0) numerator *= 10n ** BigInt(digits);
  else denominator *= 10n ** BigInt(-digits);
  const rounded = divideHalfEven(numerator, denominator);
  // The decimal `rounded · 10^-digits`, read as the nearest double (as CPython's strtod does).
  const magnitude = Number.parseFloat(`${rounded}e${-digits}`);
  return x < 0 ? -magnitude : magnitude;
}

/** Whether `needle` occurs in `haystack` as whole words (both already normalised); never an empty needle. */
export function containsWords(haystack: string, needle: string): boolean {
  if (needle.length === 0) return false;
  let from = 0;
  for (;;) {
    const at = haystack.indexOf(needle, from);
    if (at < 0) return false;
    const before = at === 0 || haystack[at - 1] === ' ';
    const after = at + needle.length === haystack.length || haystack[at + needle.length] === ' ';
    if (before && after) return true;
    from = at + 1;
  }
}

/** The answers normalised, the ones with no words left out: what `grounding` looks for in a passage. */
export function wantedAnswers(answers: string | readonly string[], normalizer: Normalizer = plainNormalizer): string[] {
  return answersOf(answers).map((a) => normalizer.normalize(a)).filter((a) => a.length > 0);
}

/**
 * The passage of `id` contains one of the `wanted` answers as whole words. `passage` gives a
 * passage's normalised title and text, undefined for an id outside the corpus.
 */
export function grounds(id: string, wanted: readonly string[], passage: (id: string) => string | undefined): boolean {
  const text = passage(id);
  return text !== undefined && wanted.some((a) => containsWords(text, a));
}

/** The share of `ids` that ground one of the answers (`grounds`); 0 without ids. */
export function grounding(ids: Ids, answers: string | readonly string[], passage: (id: string) => string | undefined, normalizer: Normalizer = plainNormalizer): number {
  const list = [...ids];
  if (list.length === 0) return 0;
  const wanted = wantedAnswers(answers, normalizer);
  let grounded = 0;
  for (const id of list) if (grounds(id, wanted, passage)) grounded++;
  return groundedShare(grounded, list.length);
}

/** `grounding` from the number of grounded ids among `cited`. */
export function groundedShare(grounded: number, cited: number): number {
  return cited === 0 ? 0 : grounded / cited;
}

/**
 * The texts joined with nothing between them (`concat`). A result longer than a JavaScript string
 * holds is a value past the engine's bounds, not a crash: V8 throws a RangeError for it.
 */
export function concat(texts: readonly string[]): string {
  try {
    return texts.join('');
  } catch (error) {
    if (!(error instanceof RangeError)) throw error;
    let length = 0;
    for (const t of texts) length += t.length;
    throw new EvaluationError(`concat(…) of ${length.toLocaleString('en-US')} characters: longer than a text may be`);
  }
}

/** The number of runs of non-whitespace in `text`, whitespace being JavaScript's `\s`. */
export function tokens(text: string): number {
  // Counted in place: every edit that writes the final text asks, and splitting it into an array
  // was a twentieth of an audit with cached rankings.
  let count = 0;
  let inToken = false;
  for (let i = 0; i < text.length; i++) {
    const space = isJsWhitespace(text.charCodeAt(i));
    if (!space && !inToken) count++;
    inToken = !space;
  }
  return count;
}

/** Whether a UTF-16 code unit is in JavaScript's `\s` (WhiteSpace and LineTerminator). */
function isJsWhitespace(code: number): boolean {
  if (code <= 0x20) return code === 0x20 || (code >= 0x09 && code <= 0x0d);
  if (code < 0xa0) return false;
  return code === 0xa0 || code === 0x1680 || (code >= 0x2000 && code <= 0x200a) || code === 0x2028 || code === 0x2029
    || code === 0x202f || code === 0x205f || code === 0x3000 || code === 0xfeff;
}

export function count(collection: Collection): number {
  return 'size' in collection ? collection.size : collection.length;
}

function jaccard(a: ReadonlySet<string>, b: ReadonlySet<string>): number {
  if (a.size === 0 && b.size === 0) return 1;
  let shared = 0;
  for (const x of a) if (b.has(x)) shared++;
  return shared / (a.size + b.size - shared);
}

export function repeatedQueries(searches: readonly SearchStep[], threshold = 1, normalizer: Normalizer = plainNormalizer): number {
  const seen: ReadonlySet<string>[] = [];
  let repeats = 0;
  for (const step of searches) {
    const words = new Set(normalizer.tokens(step.query));
    if (seen.some((earlier) => jaccard(earlier, words) >= threshold)) repeats++;
    seen.push(words);
  }
  return repeats;
}

function asSet(ids: Ids): ReadonlySet<string> {
  return 'has' in ids ? ids : new Set(ids);
}

function shareIn(from: Ids, into: Ids): number {
  const list = [...asSet(from)];
  if (list.length === 0) return 0;
  const target = asSet(into);
  return list.filter((id) => target.has(id)).length / list.length;
}

export function recall(found: Ids, wanted: Ids): number {
  return shareIn(wanted, found);
}

export function precision(found: Ids, wanted: Ids): number {
  return shareIn(found, wanted);
}

export function misses(found: Ids, wanted: Ids): boolean {
  const target = asSet(wanted);
  if (target.size === 0) return false;
  for (const id of asSet(found)) if (target.has(id)) return false;
  return true;
}

/** `misses` from whether `wanted` is empty and how many of the found ids are in it. */
export function missesFrom(wanted: Ids, foundInWanted: number): boolean {
  return count(wanted) > 0 && foundInWanted === 0;
}

export function isIn(id: string, ids: Ids): boolean {
  return 'has' in ids ? ids.has(id) : ids.includes(id);
}

export function mean(values: readonly number[]): number {
  return values.length === 0 ? 0 : values.reduce((s, v) => s + v, 0) / values.length;
}
