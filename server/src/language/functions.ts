import type { SearchStep, TraceStep } from '../pool/types.js';
import { EvaluationError } from './eval-error.js';
import { plainNormalizer, type Normalizer } from './normalizer.js';
import type { Ids } from './values.js';

// The implementations behind the built-in functions (builtins.ts declares their signatures and docs
// and wires them), pure and reusable by the analyses' own metrics. Functions that normalise text
// take the normaliser to use: an evaluation passes its caching one.

export type Collection = Ids | readonly TraceStep[];

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
