import type { ComparisonCell } from '../report/training-schema.js';
import type { ComparisonRuns } from '../report/compare-schema.js';
import { hierarchicalDifference, perRunValues, runSpread, type RunMatrix } from '../stats/hierarchical-bootstrap.js';
import { zeroEventDifference } from '../stats/paired-interval.js';
import type { ArmValues, MetricSpec } from './arm-values.js';
import type { ComparisonPlan } from './plan.js';
import { armRuns, eventsIn, runMatrix, type BenchmarkLayout, type RunLayout } from './runs.js';
import { verdictOf } from './verdict.js';
import { cellPower } from './cell-power.js';

// The cells of a comparison with several runs per arm (`runs logs`), and what the report says about its runs.

/** The cell that averages the benchmarks. */
export const equalSuite = 'equal-suite';

/** The mean; null for no values (an undefined figure, never 0). */
const average = (xs: readonly number[]): number | null => (xs.length === 0 ? null : xs.reduce((s, x) => s + x, 0) / xs.length);

/** Rows one arm uses in some benchmarks, over every run. */
const rowsIn = (layouts: readonly BenchmarkLayout[], arm: 'base' | 'treatment'): number =>
  layouts.reduce((s, b) => s + b[arm].reduce((t, run) => t + run.reduce((u, rows) => u + rows.length, 0), 0), 0);

/** Per question: the treatment's run mean − the base's run mean. */
function questionDifferences(matrix: RunMatrix): number[] {
  const mean = (runs: readonly (readonly number[])[], q: number): number => runs.reduce((s, run) => s + run[q]!, 0) / runs.length;
  return (matrix.base[0] ?? []).map((_, q) => mean(matrix.treatment, q) - mean(matrix.base, q));
}

/**
 * The cells of one metric with several runs per arm (`runs logs`): per benchmark and equal-suite,
 * the mean over questions of (treatment's run mean − base's run mean) with the hierarchical
 * bootstrap (runs within each arm, then questions), and each arm's per-run values.
 */
export function runCellsOf(metric: MetricSpec, layout: RunLayout, base: ArmValues, treatment: ArmValues, plan: ComparisonPlan): ComparisonCell[] {
  const { bootstrap: resamples, seed } = plan;
  const claim = plan.claim / 100;
  const baseValues = base.values.get(metric.key)!;
  const treatmentValues = treatment.values.get(metric.key)!;
  const matrices = layout.benchmarks.map((b) => runMatrix(b, baseValues, treatmentValues));
  const cell = (benchmark: string, at: readonly number[]): ComparisonCell => {
    const chosen = at.map((i) => matrices[i]!);
    const layouts = at.map((i) => layout.benchmarks[i]!);
    const clusterCount = layouts.reduce((s, b) => s + b.questions.length, 0);
    const baseEvents = layouts.reduce((s, b) => s + eventsIn(b.base, baseValues), 0);
    const treatmentEvents = layouts.reduce((s, b) => s + eventsIn(b.treatment, treatmentValues), 0);
    const estimate = hierarchicalDifference(chosen, resamples, seed);
    const noEvents = metric.rate && baseEvents + treatmentEvents === 0 && clusterCount > 0;
    const interval = noEvents ? zeroEventDifference(clusterCount) : estimate.interval;
    const baseRuns = perRunValues(chosen, 'base');
    const treatmentRuns = perRunValues(chosen, 'treatment');
    return {
      benchmark, clusters: clusterCount, pairs: rowsIn(layouts, 'base'),
      base: average(baseRuns), treatment: average(treatmentRuns), difference: estimate.estimate,
      interval: { ...interval },
      runs: { base: runSpread(baseRuns), treatment: runSpread(treatmentRuns) },
      baseEvents: metric.rate ? baseEvents : null, treatmentEvents: metric.rate ? treatmentEvents : null,
      verdict: verdictOf({ better: metric.better, rate: metric.rate, low: interval.low, high: interval.high, baseEvents, treatmentEvents, clusters: clusterCount, claim }),
      power: cellPower(metric.rate, { questions: clusterCount, baseRows: rowsIn(layouts, 'base'), treatmentRows: rowsIn(layouts, 'treatment'), baseEvents, treatmentEvents, differences: chosen.flatMap(questionDifferences) }, plan.claim),
    };
  };
  const cells = layout.benchmarks.map((b, i) => cell(b.benchmark, [i]));
  if (layout.benchmarks.length > 1) cells.push(cell(equalSuite, layout.benchmarks.map((_, i) => i)));
  return cells;
}

export function runsOf(plan: ComparisonPlan, base: ArmValues, treatment: ArmValues, droppedQuestions: number): ComparisonRuns {
  const baseNames = plan.runs === 'logs' ? [...armRuns(base.rows).names] : [plan.base.join(' + ') || 'base'];
  const treatmentNames = plan.runs === 'logs' ? [...armRuns(treatment.rows).names] : [plan.treatment.join(' + ') || 'treatment'];
  const varianceEstimated = baseNames.length > 1 && treatmentNames.length > 1;
  const note = varianceEstimated
    ? null
    : `run-level variance is not estimated: ${plan.runs === 'one' ? "each arm is one run (add 'runs logs' and one log per seed)" : 'an arm has one run (log)'}; intervals measure question uncertainty only`;
  return { mode: plan.runs, base: baseNames, treatment: treatmentNames, varianceEstimated, note, droppedQuestions };
}

