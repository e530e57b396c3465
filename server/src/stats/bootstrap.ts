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
   * Intervals by the exact values resampled (and resamples and seed): many estimates of one audit
   * resample the same success shares (a lattice subset and the reward it equals, a sweep point, a
   * single pool), and a weight edit leaves most of them unchanged. Keys spell every nonzero value in
   * full; bounded by the characters of the keys kept.
   */
  readonly intervals: LRUCache<string, Interval>;
}

const intervalKeyBudget = 1 << 24;

export function bootstrapMemo(): BootstrapMemo {
  return {
    intervals: new LRUCache({ maxSize: intervalKeyBudget, sizeCalculation: (_interval, key) => key.length }),
  };
}

function intervalKey(values: readonly number[], resamples: number, seed: number): string {
  let key = `${resamples}:${seed}:${values.length}`;
  for (let i = 0; i < values.length; i++) if (values[i] !== 0 || Object.is(values[i], -0)) key += `;${i}:${values[i]}`;
  return key;
}

/** A percentile 95% interval from resampling clusters with replacement; `memo` spares repeated work. */
export function clusterBootstrap(shares: readonly number[], resamples: number, seed: number, memo?: BootstrapMemo): Interval {
  if (shares.length === 0) return noInterval;
  if (memo === undefined) return resampledInterval(shares, resamples, seed);
  const key = intervalKey(shares, resamples, seed);
  let interval = memo.intervals.get(key);
  if (interval === undefined) memo.intervals.set(key, (interval = resampledInterval(shares, resamples, seed)));
  // A copy: reports hold intervals by value and the memo's must not be shared with them.
  return { ...interval };
}

/**
 * The resampled means, each from n cluster indices drawn from the seeded stream as it goes: the
 * draws are not kept, since they would take n × resamples integers (400 MB for 100,000 clusters) and
 * drawing one costs about what reading it back would.
 */
function resampledInterval(shares: readonly number[], resamples: number, seed: number): Interval {
  const n = shares.length;
  const random = seededRandom(seed);
  const means = new Float64Array(resamples);
  for (let b = 0; b < resamples; b++) {
    let sum = 0;
    for (let i = 0; i < n; i++) sum += shares[Math.floor(random() * n)]!;
    means[b] = sum / n;
  }
  means.sort();
  return { low: percentile(means, 0.025), high: percentile(means, 0.975), method: 'bootstrap' };
}
