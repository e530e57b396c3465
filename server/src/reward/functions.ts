import type { SearchStep } from '../pool/types.js';
import { answerTokens, normalizeAnswer } from './text.js';
import type { EvalEnv } from './view.js';

// The built-in functions of the language (semantics/builtins.ts declares their types and docs).

export type Collection = readonly string[] | ReadonlySet<string> | readonly SearchStep[];

function answersOf(value: string | readonly string[]): readonly string[] {
  return typeof value === 'string' ? [value] : value;
}

export function exactMatch(text: string, answers: string | readonly string[]): number {
  const normalized = normalizeAnswer(text);
  return answersOf(answers).some((a) => normalizeAnswer(a) === normalized) ? 1 : 0;
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

export function tokenF1(text: string, answers: string | readonly string[]): number {
  const prediction = answerTokens(text);
  let best = 0;
  for (const answer of answersOf(answers)) best = Math.max(best, f1(prediction, answerTokens(answer)));
  return best;
}

/** Whether `needle` occurs in `haystack` as whole words (both already normalised). */
function containsWords(haystack: string, needle: string): boolean {
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

export function grounding(ids: readonly string[] | ReadonlySet<string>, answers: string | readonly string[], env: EvalEnv): number {
  const list = [...ids];
  if (list.length === 0) return 0;
  const wanted = answersOf(answers).map(normalizeAnswer).filter((a) => a.length > 0);
  let grounded = 0;
  for (const id of list) {
    const passage = env.normalizedPassage(id);
    if (passage !== undefined && wanted.some((a) => containsWords(passage, a))) grounded++;
  }
  return grounded / list.length;
}

export function tokens(text: string): number {
  const trimmed = text.trim();
  return trimmed.length === 0 ? 0 : trimmed.split(/\s+/).length;
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

// An edit that keeps the searches keeps the very same array, so its count is looked up.
const repeatedMemo = new WeakMap<readonly SearchStep[], Map<number, number>>();

export function repeatedQueries(searches: readonly SearchStep[], threshold = 1): number {
  let byThreshold = repeatedMemo.get(searches);
  if (byThreshold === undefined) repeatedMemo.set(searches, (byThreshold = new Map()));
  let repeats = byThreshold.get(threshold);
  if (repeats === undefined) byThreshold.set(threshold, (repeats = countRepeats(searches, threshold)));
  return repeats;
}

function countRepeats(searches: readonly SearchStep[], threshold: number): number {
  const seen: ReadonlySet<string>[] = [];
  let repeats = 0;
  for (const step of searches) {
    const words = new Set(answerTokens(step.query));
    if (seen.some((earlier) => jaccard(earlier, words) >= threshold)) repeats++;
    seen.push(words);
  }
  return repeats;
}

function asSet(ids: readonly string[] | ReadonlySet<string>): ReadonlySet<string> {
  return 'has' in ids ? ids : new Set(ids);
}

function shareIn(from: readonly string[] | ReadonlySet<string>, into: readonly string[] | ReadonlySet<string>): number {
  const list = [...asSet(from)];
  if (list.length === 0) return 0;
  const target = asSet(into);
  return list.filter((id) => target.has(id)).length / list.length;
}

export function recall(found: readonly string[] | ReadonlySet<string>, wanted: readonly string[] | ReadonlySet<string>): number {
  return shareIn(wanted, found);
}

export function precision(found: readonly string[] | ReadonlySet<string>, wanted: readonly string[] | ReadonlySet<string>): number {
  return shareIn(found, wanted);
}

export function misses(found: readonly string[] | ReadonlySet<string>, wanted: readonly string[] | ReadonlySet<string>): boolean {
  const target = asSet(wanted);
  if (target.size === 0) return false;
  for (const id of asSet(found)) if (target.has(id)) return false;
  return true;
}

export function mean(values: readonly number[]): number {
  return values.length === 0 ? 0 : values.reduce((s, v) => s + v, 0) / values.length;
}
