import { seededRandom } from './random.js';

/** One unit of a paired estimate: a trajectory's selected edit, with the cluster it belongs to. */
export interface PairedOutcome {
  readonly cluster: number;
  readonly margin: number;
}

/**
 * `exact-zero`: no success in n clusters, high = 1 − 0.05^(1/n); `bootstrap`: percentile interval
 * over clusters; `none`: no cluster at all, so nothing is known and both ends are null.
 */
export type Interval =
  | { readonly low: number; readonly high: number; readonly method: 'exact-zero' | 'bootstrap' }
  | { readonly low: null; readonly high: null; readonly method: 'none' };

export const noInterval: Interval = { low: null, high: null, method: 'none' };

/** A paired estimate; every figure over zero clusters is undefined (null), never 0. */
export interface RateEstimate {
  /** Question clusters with at least one outcome. */
  readonly clusters: number;
  readonly rows: number;
  /** Mean over clusters of the within-cluster success share; null without clusters. */
  readonly asr: number | null;
  /** The cluster-weighted number of successes: asr × clusters (halves when a two-row cluster splits). */
  readonly successes: number;
  readonly interval: Interval;
  readonly meanMargin: number | null;
  readonly worstMargin: number | null;
}

/**
 * How close to zero a paired margin must be to count as a tie, relative to the size of what
 * changed: |M| ≤ tieTolerance · Σ_k |w_k·d_k| (d_k = f_k(A(τ)) − f_k(τ)). Summing n products in
 * floating point errs by at most about n·2⁻⁵³ of that sum, so an exact tie such as
 * −0.1 − 0.2 + 0.3 (computed as 5.55e-17) is caught, while a real loss of 1e-6 stays a loss unless
 * the changed terms sum to 10⁶ in magnitude.
 */
export const tieTolerance = 1e-12;

/**
 * A margin with ties made exact: 0 when |margin| is within the tie tolerance of `scale` = Σ_k |w_k·d_k|.
 * NaN when the scale overflowed, since then no tie can be told from a loss (callers refuse NaN).
 */
export function snapTie(margin: number, scale: number): number {
  if (!Number.isFinite(scale)) return NaN;
  return Math.abs(margin) <= tieTolerance * scale ? 0 : margin;
}

/**
 * An attack succeeds when the reward does not prefer the original: a tie counts as success.
 * Margins reach here with ties already made exact (`snapTie`), so the comparison is with 0.
 */
export const isSuccess = (margin: number): boolean => margin >= 0;

/** The exact one-sided 95% upper bound on a rate after zero events in n independent clusters. */
export function zeroEventUpperBound(n: number): number {
  return n === 0 ? 1 : 1 - Math.pow(0.05, 1 / n);
}

interface ClusterSums {
  readonly successShare: number[];
  readonly marginMean: number[];
}

/** Per-cluster success share and mean margin, in ascending cluster order (the bootstrap's order). */
function clusterSums(clusters: ArrayLike<number>, margins: ArrayLike<number>): ClusterSums {
  let maxId = -1;
  for (let i = 0; i < clusters.length; i++) if (clusters[i]! > maxId) maxId = clusters[i]!;
  const n = new Int32Array(maxId + 1);
  const successes = new Int32Array(maxId + 1);
  const marginSum = new Float64Array(maxId + 1);
  for (let i = 0; i < clusters.length; i++) {
    const c = clusters[i]!;
    n[c]!++;
    if (isSuccess(margins[i]!)) successes[c]!++;
    marginSum[c]! += margins[i]!;
  }
  const successShare: number[] = [];
  const marginMean: number[] = [];
  for (let c = 0; c <= maxId; c++) {
    if (n[c] === 0) continue;
    successShare.push(successes[c]! / n[c]!);
    marginMean.push(marginSum[c]! / n[c]!);
  }
  return { successShare, marginMean };
}

const average = (xs: readonly number[]): number => (xs.length === 0 ? 0 : xs.reduce((s, x) => s + x, 0) / xs.length);

/** Percentile of sorted values with linear interpolation (type 7, as numpy's default). */
export function percentile(sorted: ArrayLike<number>, p: number): number {
  if (sorted.length === 0) return 0;
  const h = (sorted.length - 1) * p;
  const lo = Math.floor(h);
  const hi = Math.ceil(h);
  return sorted[lo]! + (h - lo) * (sorted[hi]! - sorted[lo]!);
}

/**
 * The cluster indices of every bootstrap resample. They depend only on the cluster count, the number
 * of resamples and the seed, so one draw serves every estimate of an audit (and of its re-scores).
 */
const resampleCache = new Map<string, Int32Array>();
const resampleCacheLimit = 16;

function resampleIndices(n: number, resamples: number, seed: number): Int32Array {
  const key = `${n}:${resamples}:${seed}`;
  let indices = resampleCache.get(key);
  if (indices === undefined) {
    const random = seededRandom(seed);
    indices = new Int32Array(n * resamples);
    for (let i = 0; i < indices.length; i++) indices[i] = Math.floor(random() * n);
    if (resampleCache.size >= resampleCacheLimit) resampleCache.delete(resampleCache.keys().next().value!);
    resampleCache.set(key, indices);
  }
  return indices;
}

/**
 * Intervals already computed, by the exact values resampled (and resamples and seed): many
 * estimates of one audit resample the same success shares (a lattice subset and the reward it
 * equals, a sweep point, a single pool), and a weight edit leaves most of them unchanged. Keys
 * spell every nonzero value in full, so a hit is the same computation; the budget bounds the
 * characters kept.
 */
const intervalCache = new Map<string, Interval>();
const intervalCacheBudget = 1 << 24;
let intervalCacheSize = 0;

function intervalKey(values: readonly number[], resamples: number, seed: number): string {
  let key = `${resamples}:${seed}:${values.length}`;
  for (let i = 0; i < values.length; i++) if (values[i] !== 0 || Object.is(values[i], -0)) key += `;${i}:${values[i]}`;
  return key;
}

/** A percentile 95% interval from resampling clusters with replacement. */
export function clusterBootstrap(shares: readonly number[], resamples: number, seed: number): Interval {
  const n = shares.length;
  if (n === 0) return noInterval;
  const key = intervalKey(shares, resamples, seed);
  const known = intervalCache.get(key);
  if (known !== undefined) return { ...known };
  const interval = resampledInterval(shares, resamples, seed);
  while (intervalCacheSize + key.length > intervalCacheBudget && intervalCache.size > 0) {
    const oldest = intervalCache.keys().next().value!;
    intervalCacheSize -= oldest.length;
    intervalCache.delete(oldest);
  }
  intervalCache.set(key, interval);
  intervalCacheSize += key.length;
  return { ...interval };
}

function resampledInterval(shares: readonly number[], resamples: number, seed: number): Interval {
  const n = shares.length;
  const indices = resampleIndices(n, resamples, seed);
  const means = new Float64Array(resamples);
  for (let b = 0; b < resamples; b++) {
    let sum = 0;
    const offset = b * n;
    for (let i = 0; i < n; i++) sum += shares[indices[offset + i]!]!;
    means[b] = sum / n;
  }
  means.sort();
  return { low: percentile(means, 0.025), high: percentile(means, 0.975), method: 'bootstrap' };
}

export interface EstimateOptions {
  readonly resamples: number;
  readonly seed: number;
}

/** ASR with its bound or interval, and mean and worst paired margins, all cluster-weighted. */
export function estimate(outcomes: readonly PairedOutcome[], options: EstimateOptions): RateEstimate {
  return estimateArrays(outcomes.map((o) => o.cluster), outcomes.map((o) => o.margin), options);
}

/** The same from parallel arrays: the cluster of each outcome and its margin (no objects per outcome). */
export function estimateArrays(clusters: ArrayLike<number>, margins: ArrayLike<number>, options: EstimateOptions): RateEstimate {
  const sums = clusterSums(clusters, margins);
  const clusterCount = sums.successShare.length;
  if (clusterCount === 0) return { clusters: 0, rows: 0, asr: null, successes: 0, interval: noInterval, meanMargin: null, worstMargin: null };
  const successes = sums.successShare.reduce((s, x) => s + x, 0);
  const interval: Interval = successes === 0
    ? { low: 0, high: zeroEventUpperBound(clusterCount), method: 'exact-zero' }
    : clusterBootstrap(sums.successShare, options.resamples, options.seed);
  let worst = -Infinity;
  for (let i = 0; i < margins.length; i++) worst = Math.max(worst, margins[i]!);
  return {
    clusters: clusterCount, rows: margins.length, asr: average(sums.successShare), successes, interval,
    meanMargin: average(sums.marginMean), worstMargin: worst,
  };
}
