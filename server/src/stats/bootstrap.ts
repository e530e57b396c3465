import { LRUCache } from 'lru-cache';
import { seededRandom } from './random.js';

/**
 * `exact-zero`: no success in n clusters, high = 1 − 0.05^(1/n); `bootstrap`: percentile interval
 * over clusters; `none`: no cluster at all, so nothing is known and both ends are null.
 */
export type Interval =
  | { readonly low: number; readonly high: number; readonly method: 'exact-zero' | 'bootstrap' }
  | { readonly low: null; readonly high: null; readonly method: 'none' };

export const noInterval: Interval = { low: null, high: null, method: 'none' };

/** Percentile of sorted values with linear interpolation (type 7, as numpy's default). */
export function percentile(sorted: ArrayLike<number>, p: number): number {
  if (sorted.length === 0) return 0;
  const h = (sorted.length - 1) * p;
  const lo = Math.floor(h);
  const hi = Math.ceil(h);
  return sorted[lo]! + (h - lo) * (sorted[hi]! - sorted[lo]!);
}

/**
 * What bootstraps remember for whoever owns the memo (an audit's prepared edits, which every
 * re-score after a weight edit reuses; a comparison run). Both parts only spare work: a hit is the
 * same computation, so an owner with a memo and one without give the same intervals.
 */
export interface BootstrapMemo {
  /**
   * The cluster indices of every resample, by cluster count, resamples and seed: one draw serves
   * every estimate over that many clusters, and memos that keep the same draw share one copy.
   * Bounded in bytes (`drawBytes`): a draw is n × resamples indices, 50 MB for 25,000 clusters, and
   * a larger one is drawn as it is used instead of kept.
   */
  readonly draws: LRUCache<string, Uint16Array | Int32Array>;
  /**
   * Intervals by the exact values resampled (and resamples and seed): many estimates of one audit
   * resample the same success shares (a lattice subset and the reward it equals, a sweep point, a
   * single pool), and a weight edit leaves most of them unchanged. Keys spell every nonzero value in
   * full; bounded by the characters of the keys kept.
   */
  readonly intervals: LRUCache<string, Interval>;
}

/** What the kept draws may take together: a few cluster counts of a 200,000-row audit. */
export const drawBytes = 256 * 1024 * 1024;
const intervalKeyBudget = 1 << 24;

export function bootstrapMemo(maxDrawBytes = drawBytes): BootstrapMemo {
  return {
    draws: new LRUCache({ maxSize: maxDrawBytes, sizeCalculation: (draw) => Math.max(1, draw.byteLength) }),
    intervals: new LRUCache({ maxSize: intervalKeyBudget, sizeCalculation: (_interval, key) => key.length }),
  };
}

/** Bytes of one cluster index in a draw over n clusters: 16 bits when they fit. */
function indexBytes(n: number): 2 | 4 {
  return n <= 1 << 16 ? 2 : 4;
}

/** Every resample's indices, drawn in order from the seeded stream. */
function drawIndices(n: number, resamples: number, seed: number): Uint16Array | Int32Array {
  const random = seededRandom(seed);
  const indices = indexBytes(n) === 2 ? new Uint16Array(n * resamples) : new Int32Array(n * resamples);
  for (let i = 0; i < indices.length; i++) indices[i] = Math.floor(random() * n);
  return indices;
}

// A draw depends only on its key, so memos that keep the same one share it: the editor keeps an
// audit's prepared edits per audit, and the audits of one pool resample the same cluster counts (at
// 200,000 rows, 130 MB of draws that a second audit kept again). The table holds them weakly, so a
// draw lives exactly as long as some memo keeps it.
const drawsInUse = new Map<string, WeakRef<Uint16Array | Int32Array>>();
const forgetDraw = new FinalizationRegistry<string>((key) => {
  if (drawsInUse.get(key)?.deref() === undefined) drawsInUse.delete(key);
});

/** The kept draw for n clusters, made if it fits the memo; undefined when there is no memo or it would not fit. */
function keptIndices(n: number, resamples: number, seed: number, memo: BootstrapMemo | undefined): Uint16Array | Int32Array | undefined {
  if (memo === undefined || n * resamples * indexBytes(n) > memo.draws.maxSize) return undefined;
  const key = `${n}:${resamples}:${seed}`;
  let indices = memo.draws.get(key);
  if (indices === undefined) {
    indices = drawsInUse.get(key)?.deref();
    if (indices === undefined) {
      indices = drawIndices(n, resamples, seed);
      drawsInUse.set(key, new WeakRef(indices));
      forgetDraw.register(indices, key);
    }
    memo.draws.set(key, indices);
  }
  return indices;
}

function intervalKey(values: readonly number[], resamples: number, seed: number): string {
  let key = `${resamples}:${seed}:${values.length}`;
  for (let i = 0; i < values.length; i++) if (values[i] !== 0 || Object.is(values[i], -0)) key += `;${i}:${values[i]}`;
  return key;
}

/** A percentile 95% interval from resampling clusters with replacement; `memo` spares repeated work. */
export function clusterBootstrap(shares: readonly number[], resamples: number, seed: number, memo?: BootstrapMemo): Interval {
  if (shares.length === 0) return noInterval;
  if (memo === undefined) return resampledInterval(shares, resamples, seed, undefined);
  const key = intervalKey(shares, resamples, seed);
  let interval = memo.intervals.get(key);
  if (interval === undefined) memo.intervals.set(key, (interval = resampledInterval(shares, resamples, seed, memo)));
  // A copy: reports hold intervals by value and the memo's must not be shared with them.
  return { ...interval };
}

/**
 * The resampled means over n clusters: from the memo's kept draw, or else with each index drawn
 * from the seeded stream as it is summed, in the same order, so both give the same interval (a
 * stream costs about five times a read, hence the kept draws).
 */
function resampledInterval(shares: readonly number[], resamples: number, seed: number, memo: BootstrapMemo | undefined): Interval {
  const n = shares.length;
  const indices = keptIndices(n, resamples, seed, memo);
  const random = seededRandom(seed);
  const means = new Float64Array(resamples);
  for (let b = 0; b < resamples; b++) {
    let sum = 0;
    if (indices === undefined) for (let i = 0; i < n; i++) sum += shares[Math.floor(random() * n)]!;
    else for (let i = 0, at = b * n; i < n; i++, at++) sum += shares[indices[at]!]!;
    means[b] = sum / n;
  }
  means.sort();
  return { low: percentile(means, 0.025), high: percentile(means, 0.975), method: 'bootstrap' };
}
