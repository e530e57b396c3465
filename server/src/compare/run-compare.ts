import type { AnalysisInputs } from '../inputs/analysis-inputs.js';
import { readFileSection } from '../inputs/pool-section.js';
import type { CandidateSource } from '../edits/prepare.js';
import type { CommandTerms } from '../language/command-terms.js';
import type { Trajectory } from '../pool/types.js';
import type { ComparisonBody, ComparisonReport } from '../report/training-schema.js';
import type { ComparisonCell } from '../report/training-schema.js';
import { RewardCompiler } from '../reward/compile.js';
import type { SpecModel } from '../semantics/check.js';
import type { LineIndex } from '../problems/line-index.js';
import { comparisonMetrics, evaluateArm, type ArmValues, type MetricSpec } from './arm-values.js';
import { bootstrapMemo, type BootstrapMemo } from '../stats/bootstrap.js';
import { runSpread } from '../stats/hierarchical-bootstrap.js';
import { runLayout } from './runs.js';
import { equalSuite, runCellsOf, runsOf } from './run-cells.js';
import { greedyRule, subset } from './greedy-split.js';
import { armMatching } from './matching.js';
import { equalSuiteDifference, pairedDifference, zeroEventDifference } from '../stats/paired-interval.js';
import type { ComparisonPlan } from './plan.js';
import { verdictOf } from './verdict.js';
import { cellPower } from './cell-power.js';


/** Rows are paired by question id and sample (the generation seed's index). */
function pairKey(row: Trajectory): string {
  const sample = row.meta.sample ?? 0;
  return `${row.question_id}\u0000${sample}`;
}

/** The benchmark a row belongs to: `meta.benchmark`, else the log it came from. */
function benchmarkOf(row: Trajectory): string {
  const benchmark = row.meta['benchmark'];
  return typeof benchmark === 'string' && benchmark !== '' ? benchmark : row.source.pool;
}

export interface Pair {
  readonly base: number;
  readonly treatment: number;
}

/** Question clusters of one benchmark, each the list of its pairs, in first-seen order. */
export type BenchmarkClusters = ReadonlyMap<string, readonly (readonly Pair[])[]>;

export function pairArms(base: readonly Trajectory[], treatment: readonly Trajectory[]): { clusters: BenchmarkClusters; pairs: number; unpairedBase: number; unpairedTreatment: number } {
  const treatmentIndex = new Map<string, number>();
  treatment.forEach((row, i) => treatmentIndex.set(pairKey(row), i));
  const byBenchmark = new Map<string, Map<string, Pair[]>>();
  let pairs = 0;
  base.forEach((row, b) => {
    const t = treatmentIndex.get(pairKey(row));
    if (t === undefined) return;
    pairs++;
    const benchmark = benchmarkOf(row);
    let questions = byBenchmark.get(benchmark);
    if (questions === undefined) byBenchmark.set(benchmark, (questions = new Map()));
    questions.set(row.question_id, [...(questions.get(row.question_id) ?? []), { base: b, treatment: t }]);
  });
  const clusters = new Map([...byBenchmark].map(([benchmark, questions]) => [benchmark, [...questions.values()]]));
  return { clusters, pairs, unpairedBase: base.length - pairs, unpairedTreatment: treatment.length - pairs };
}

interface ClusterMeans {
  readonly base: number[];
  readonly treatment: number[];
  readonly difference: number[];
  readonly baseEvents: number;
  readonly treatmentEvents: number;
  readonly pairs: number;
}

function clusterMeans(clusters: readonly (readonly Pair[])[], base: Float64Array, treatment: Float64Array): ClusterMeans {
  const out: ClusterMeans = { base: [], treatment: [], difference: [], baseEvents: 0, treatmentEvents: 0, pairs: 0 };
  let baseEvents = 0;
  let treatmentEvents = 0;
  let pairs = 0;
  for (const cluster of clusters) {
    let b = 0;
    let t = 0;
    for (const pair of cluster) {
      b += base[pair.base]!;
      t += treatment[pair.treatment]!;
      if (base[pair.base]! > 0) baseEvents++;
      if (treatment[pair.treatment]! > 0) treatmentEvents++;
    }
    pairs += cluster.length;
    out.base.push(b / cluster.length);
    out.treatment.push(t / cluster.length);
    out.difference.push((t - b) / cluster.length);
  }
  return { ...out, baseEvents, treatmentEvents, pairs };
}

/** The mean; null for no values (an undefined figure, never 0). */
const average = (xs: readonly (number | null)[]): number | null => {
  const known = xs.filter((x): x is number => x !== null);
  return known.length === 0 ? null : known.reduce((s, x) => s + x, 0) / known.length;
};

const oneRun = (value: number | null): number[] => (value === null ? [] : [value]);

function cellsOf(metric: MetricSpec, clusters: BenchmarkClusters, base: ArmValues, treatment: ArmValues, plan: ComparisonPlan, memo: BootstrapMemo): ComparisonCell[] {
  const { bootstrap: resamples, seed } = plan;
  const claim = plan.claim / 100;
  const baseValues = base.values.get(metric.key)!;
  const treatmentValues = treatment.values.get(metric.key)!;
  const perBenchmark = [...clusters].map(([benchmark, list]) => ({ benchmark, means: clusterMeans(list, baseValues, treatmentValues) }));
  const cell = (benchmark: string, means: readonly ClusterMeans[], estimate: { estimate: number | null; interval: ComparisonCell['interval'] }): ComparisonCell => {
    const clusterCount = means.reduce((s, m) => s + m.difference.length, 0);
    const pairs = means.reduce((s, m) => s + m.pairs, 0);
    const baseEvents = means.reduce((s, m) => s + m.baseEvents, 0);
    const treatmentEvents = means.reduce((s, m) => s + m.treatmentEvents, 0);
    const noEvents = metric.rate && baseEvents + treatmentEvents === 0 && clusterCount > 0;
    const interval = noEvents ? zeroEventDifference(clusterCount) : estimate.interval;
    const suiteMean = (pick: (m: ClusterMeans) => number[]): number | null => average(means.map((m) => average(pick(m))));
    return {
      benchmark, clusters: clusterCount, pairs,
      base: suiteMean((m) => m.base), treatment: suiteMean((m) => m.treatment), difference: estimate.estimate,
      interval: { ...interval },
      runs: { base: runSpread(oneRun(suiteMean((m) => m.base))), treatment: runSpread(oneRun(suiteMean((m) => m.treatment))) },
      baseEvents: metric.rate ? baseEvents : null, treatmentEvents: metric.rate ? treatmentEvents : null,
      verdict: verdictOf({ better: metric.better, rate: metric.rate, low: interval.low, high: interval.high, baseEvents, treatmentEvents, clusters: clusterCount, claim }),
      power: cellPower(metric.rate, { questions: clusterCount, baseRows: pairs, treatmentRows: pairs, baseEvents, treatmentEvents, differences: means.flatMap((m) => m.difference) }, plan.claim),
    };
  };
  const cells = perBenchmark.map(({ benchmark, means }) => cell(benchmark, [means], pairedDifference(means.difference, resamples, seed, memo)));
  if (perBenchmark.length > 1) {
    cells.push(cell(equalSuite, perBenchmark.map((b) => b.means), equalSuiteDifference(perBenchmark.map((b) => b.means.difference), resamples, seed)));
  }
  return cells;
}

/**
 * The paired policy comparison: both arms scored by the same metrics, paired by question and
 * sample, differences (treatment − base) with question-cluster bootstrap intervals per benchmark
 * and for the equal-suite average, and the EM non-inferiority gate. Undefined when cancelled.
 */
/** What a comparison reports over some rows of both arms: all of them, or the greedy or sampled ones. */
function comparisonBody(model: SpecModel, plan: ComparisonPlan, baseValues: ArmValues, treatmentValues: ArmValues): ComparisonBody {
  const paired = pairArms(baseValues.rows, treatmentValues.rows);
  const layout = plan.runs === 'logs' ? runLayout(baseValues.rows, treatmentValues.rows) : undefined;
  // Every metric resamples the same benchmarks' clusters: one draw per benchmark size serves them all.
  const memo = bootstrapMemo();
  const metrics = comparisonMetrics(model, plan).map((metric) => ({
    ...metric,
    cells: layout === undefined ? cellsOf(metric, paired.clusters, baseValues, treatmentValues, plan, memo) : runCellsOf(metric, layout, baseValues, treatmentValues, plan),
  }));
  const em = metrics.find((m) => m.key === 'em')!;
  const gate = em.cells.filter((c) => c.benchmark !== equalSuite).map((c) => ({ benchmark: c.benchmark, lower: c.interval.low, passed: c.interval.low !== null && c.interval.low > -plan.margin / 100 }));
  return {
    pairs: layout === undefined ? paired.pairs : layout.usedBase,
    runs: runsOf(plan, baseValues, treatmentValues, layout?.droppedQuestions ?? 0),
    unpairedBase: layout === undefined ? paired.unpairedBase : baseValues.rows.length - layout.usedBase,
    unpairedTreatment: layout === undefined ? paired.unpairedTreatment : treatmentValues.rows.length - layout.usedTreatment,
    benchmarks: layout === undefined ? [...paired.clusters.keys()] : layout.benchmarks.map((b) => b.benchmark),
    metrics,
    nonInferiority: { margin: plan.margin, benchmarks: gate, passed: gate.length > 0 && gate.every((g) => g.passed) },
  };
}

/**
 * The paired policy comparison: both arms scored by the same metrics, paired by question and
 * sample, differences (treatment − base) with question-cluster bootstrap intervals per benchmark
 * and for the equal-suite average, and the EM non-inferiority gate; with `greedy`, the same again
 * over the greedy and over the sampled rows. Undefined when cancelled.
 */
export function runComparison(
  model: SpecModel, plan: ComparisonPlan, base: AnalysisInputs, treatment: AnalysisInputs, candidates: CandidateSource, lines: LineIndex | undefined,
  terms: { readonly base?: CommandTerms | undefined; readonly treatment?: CommandTerms | undefined } = {},
): ComparisonReport | undefined {
  const baseValues = evaluateArm(model, plan, base, candidates, terms.base);
  const treatmentValues = evaluateArm(model, plan, treatment, candidates, terms.treatment);
  if (baseValues === undefined || treatmentValues === undefined) return undefined;
  const body = comparisonBody(model, plan, baseValues, treatmentValues);
  const isGreedy = greedyRule(model, plan);
  const splits = isGreedy === undefined ? null : (['greedy', 'sampled'] as const).map((split) => {
    const keep = (row: Trajectory): boolean => isGreedy(row) === (split === 'greedy');
    return { split, ...comparisonBody(model, plan, subset(baseValues, keep), subset(treatmentValues, keep)) };
  });
  const scorer = new RewardCompiler(model).reward(plan.reward);
  const logs = (inputs: AnalysisInputs) => inputs.pools.map((p) => ({
    name: p.name, file: p.file, rows: p.rows.length, ...readFileSection(p),
  }));
  return {
    name: plan.name,
    range: plan.span === undefined || lines === undefined ? null : lines.range(plan.span),
    scorer: { name: scorer.name, visibility: scorer.visibility },
    base: logs(base),
    treatment: logs(treatment),
    ...body,
    matching: armMatching(baseValues.rows, treatmentValues.rows, plan.runs === 'logs'),
    splits,
    settings: { seed: plan.seed, bootstrap: plan.bootstrap, margin: plan.margin, claim: plan.claim },
  };
}
