import { noInterval, percentile, type Interval } from './bootstrap.js';
import { seededRandom } from './random.js';

/**
 * One benchmark of a comparison with several runs (seeds) per arm: for each arm, one row per run,
 * one value per question (the mean over that run's samples of the question). Questions are in the
 * same order in every run of both arms (the matched-run check keeps only questions every run has).
 */
export interface RunMatrix {
  readonly base: readonly (readonly number[])[];
  readonly treatment: readonly (readonly number[])[];
}

/** An interval of a comparison: the audit's kinds, or the two-stage bootstrap over runs and questions. */
export type RunInterval = Interval | { readonly low: number; readonly high: number; readonly method: 'hierarchical-bootstrap' };

const mean = (xs: readonly number[]): number => xs.reduce((s, x) => s + x, 0) / xs.length;

/** Per question: the mean over runs of one arm. */
function runMeans(runs: readonly (readonly number[])[]): number[] {
  const questions = runs[0]?.length ?? 0;
  return Array.from({ length: questions }, (_, q) => mean(runs.map((run) => run[q]!)));
}

/** The point estimate of one benchmark: mean over questions of (treatment run mean − base run mean). */
function benchmarkDifference(matrix: RunMatrix): number {
  const t = runMeans(matrix.treatment);
  const b = runMeans(matrix.base);
  return mean(t.map((x, q) => x - b[q]!));
}

/**
 * The difference treatment − base over several benchmarks (one: a benchmark's own; several: the
 * equal-suite mean of their means) with a 95% two-stage (hierarchical) percentile bootstrap. Each
 * resample, from one seeded stream, draws in this order: the base arm's runs with replacement
 * (as many as it has), the treatment arm's runs likewise (runs are independent seeds, so the arms'
 * runs are drawn independently), then for each benchmark in order its questions with replacement
 * (one draw per question index, shared by the two arms: questions stay paired). The statistic is
 * the mean over drawn questions of (mean over drawn treatment runs − mean over drawn base runs),
 * averaged over benchmarks. Runs span every benchmark, so one run draw serves them all.
 */
export function hierarchicalDifference(benchmarks: readonly RunMatrix[], resamples: number, seed: number): { estimate: number | null; interval: RunInterval } {
  const present = benchmarks.filter((m) => m.base.length > 0 && m.treatment.length > 0 && (m.base[0]?.length ?? 0) > 0);
  if (present.length === 0) return { estimate: null, interval: noInterval };
  const estimate = mean(present.map(benchmarkDifference));
  const baseRuns = present[0]!.base.length;
  const treatmentRuns = present[0]!.treatment.length;
  const random = seededRandom(seed);
  const draw = (n: number): number => Math.floor(random() * n);
  const means = new Float64Array(resamples);
  const b = new Int32Array(baseRuns);
  const t = new Int32Array(treatmentRuns);
  for (let r = 0; r < resamples; r++) {
    for (let i = 0; i < baseRuns; i++) b[i] = draw(baseRuns);
    for (let i = 0; i < treatmentRuns; i++) t[i] = draw(treatmentRuns);
    let suite = 0;
    for (const matrix of present) {
      const questions = matrix.base[0]!.length;
      let sum = 0;
      for (let i = 0; i < questions; i++) {
        const q = draw(questions);
        let tSum = 0;
        for (let j = 0; j < treatmentRuns; j++) tSum += matrix.treatment[t[j]!]![q]!;
        let bSum = 0;
        for (let j = 0; j < baseRuns; j++) bSum += matrix.base[b[j]!]![q]!;
        sum += tSum / treatmentRuns - bSum / baseRuns;
      }
      suite += sum / questions;
    }
    means[r] = suite / present.length;
  }
  means.sort();
  return { estimate, interval: { low: percentile(means, 0.025), high: percentile(means, 0.975), method: 'hierarchical-bootstrap' } };
}

/** Between-run spread of one arm: each run's value, their sample SD and range; SD and range null for one run (not estimated, never 0). */
export interface RunSpread {
  readonly values: number[];
  readonly sd: number | null;
  readonly range: number | null;
}

export function runSpread(runValues: readonly number[]): RunSpread {
  const values = [...runValues];
  if (values.length < 2) return { values, sd: null, range: null };
  const m = mean(values);
  const sd = Math.sqrt(values.reduce((s, x) => s + (x - m) * (x - m), 0) / (values.length - 1));
  let low = Infinity;
  let high = -Infinity;
  for (const x of values) {
    low = Math.min(low, x);
    high = Math.max(high, x);
  }
  return { values, sd, range: high - low };
}

/** Each run's value over some benchmarks: per benchmark the mean over its questions, then the mean over benchmarks. */
export function perRunValues(benchmarks: readonly RunMatrix[], arm: 'base' | 'treatment'): number[] {
  const present = benchmarks.filter((m) => (m[arm][0]?.length ?? 0) > 0);
  if (present.length === 0) return [];
  const runs = present[0]![arm].length;
  return Array.from({ length: runs }, (_, r) => mean(present.map((m) => mean(m[arm][r]!))));
}
