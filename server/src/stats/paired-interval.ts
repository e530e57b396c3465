import { clusterBootstrap, noInterval, percentile, type BootstrapMemo, type Interval } from './bootstrap.js';
import { zeroEventUpperBound } from './estimands.js';
import { seededRandom } from './random.js';

/** The paired differences of one benchmark: one value per question cluster (the mean of its pairs' t − b). */
export interface ClusterDifferences {
  readonly differences: readonly number[];
}

/** The mean; null for no values (undefined, never 0). */
const average = (xs: readonly number[]): number | null => (xs.length === 0 ? null : xs.reduce((s, x) => s + x, 0) / xs.length);

/**
 * The mean paired difference of one benchmark and its 95% question-cluster bootstrap interval: the
 * audit's own bootstrap (bootstrap.ts), which resamples clusters with replacement.
 */
export function pairedDifference(differences: readonly number[], resamples: number, seed: number, memo?: BootstrapMemo): { estimate: number | null; interval: Interval } {
  return { estimate: average(differences), interval: clusterBootstrap(differences, resamples, seed, memo) };
}

/**
 * The equal-suite difference: the mean of the benchmarks' mean differences, with an interval that
 * resamples questions within each benchmark before averaging (the paper's Table 4). One seeded
 * stream draws, for each resample, each benchmark's cluster indices in benchmark order.
 */
export function equalSuiteDifference(benchmarks: readonly (readonly number[])[], resamples: number, seed: number): { estimate: number | null; interval: Interval } {
  const present = benchmarks.filter((b) => b.length > 0);
  if (present.length === 0) return { estimate: null, interval: noInterval };
  const estimate = average(present.map((b) => average(b)!));
  const random = seededRandom(seed);
  const means = new Float64Array(resamples);
  for (let b = 0; b < resamples; b++) {
    let suite = 0;
    for (const differences of present) {
      let sum = 0;
      for (let i = 0; i < differences.length; i++) sum += differences[Math.floor(random() * differences.length)]!;
      suite += sum / differences.length;
    }
    means[b] = suite / present.length;
  }
  means.sort();
  return { estimate, interval: { low: percentile(means, 0.025), high: percentile(means, 0.975), method: 'bootstrap' } };
}

/**
 * No event in either arm: every paired difference is zero and a bootstrap would say [0, 0], as if
 * the rates were known to be equal. Each arm's rate is only bounded by 1 − 0.05^(1/n), so the
 * difference is bounded by that on either side.
 */
export function zeroEventDifference(clusters: number): Interval {
  const bound = zeroEventUpperBound(clusters);
  return { low: -bound, high: bound, method: 'exact-zero' };
}
