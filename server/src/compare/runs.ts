import type { Trajectory } from '../pool/types.js';
import type { RunMatrix } from '../stats/hierarchical-bootstrap.js';

// Several runs (training seeds) per arm: with `runs logs` each log an arm names is one run. Runs of
// the two arms are not paired with each other (independent seeds); questions are. A question enters
// the comparison only when every run of both arms evaluated it; the rest are counted, not paired.

/** The run of each row: the log it came from, in the order the arm's rows name them. */
export interface ArmRuns {
  readonly names: readonly string[];
  readonly runOf: Int32Array;
}

export function armRuns(rows: readonly Trajectory[]): ArmRuns {
  const index = new Map<string, number>();
  const runOf = Int32Array.from(rows, (row) => {
    let run = index.get(row.source.pool);
    if (run === undefined) index.set(row.source.pool, (run = index.size));
    return run;
  });
  return { names: [...index.keys()], runOf };
}

/** For one benchmark: its questions, and per arm, per run, per question the rows that evaluate it. */
export interface BenchmarkLayout {
  readonly benchmark: string;
  readonly questions: readonly string[];
  readonly base: readonly (readonly (readonly number[])[])[];
  readonly treatment: readonly (readonly (readonly number[])[])[];
}

export interface RunLayout {
  readonly benchmarks: readonly BenchmarkLayout[];
  /** Questions some run of either arm lacks: left out of every figure. */
  readonly droppedQuestions: number;
  /** Rows each arm uses, and rows left out (their question is not in every run). */
  readonly usedBase: number;
  readonly usedTreatment: number;
  /** Samples per question and run (the mean over the kept (run, question) cells of both arms). */
  readonly samplesPerQuestion: number;
}

/** Row indices by run, then question id. */
function byRunAndQuestion(rows: readonly Trajectory[], runs: ArmRuns): Map<string, number[]>[] {
  const out = runs.names.map(() => new Map<string, number[]>());
  rows.forEach((row, i) => {
    const questions = out[runs.runOf[i]!]!;
    const list = questions.get(row.question_id);
    if (list === undefined) questions.set(row.question_id, [i]);
    else list.push(i);
  });
  return out;
}

/** The benchmark a row belongs to: `meta.benchmark`, else one benchmark for the whole suite. */
function benchmarkOf(row: Trajectory): string {
  const benchmark = row.meta['benchmark'];
  return typeof benchmark === 'string' && benchmark !== '' ? benchmark : 'all';
}

export function runLayout(base: readonly Trajectory[], treatment: readonly Trajectory[]): RunLayout {
  const baseRuns = byRunAndQuestion(base, armRuns(base));
  const treatmentRuns = byRunAndQuestion(treatment, armRuns(treatment));
  const all = [...baseRuns, ...treatmentRuns];
  const seen = new Set<string>();
  for (const run of all) for (const q of run.keys()) seen.add(q);
  const kept = [...baseRuns[0]?.keys() ?? []].filter((q) => all.every((run) => run.has(q)));
  const byBenchmark = new Map<string, string[]>();
  for (const q of kept) {
    const benchmark = benchmarkOf(base[baseRuns[0]!.get(q)![0]!]!);
    byBenchmark.set(benchmark, [...(byBenchmark.get(benchmark) ?? []), q]);
  }
  const rowsOf = (runs: readonly Map<string, number[]>[], questions: readonly string[]) => runs.map((run) => questions.map((q) => run.get(q)!));
  const benchmarks = [...byBenchmark].map(([benchmark, questions]) => ({ benchmark, questions, base: rowsOf(baseRuns, questions), treatment: rowsOf(treatmentRuns, questions) }));
  const used = (runs: readonly Map<string, number[]>[]): number => runs.reduce((s, run) => s + kept.reduce((t, q) => t + run.get(q)!.length, 0), 0);
  const usedBase = used(baseRuns);
  const usedTreatment = used(treatmentRuns);
  const cells = kept.length * all.length;
  return { benchmarks, droppedQuestions: seen.size - kept.length, usedBase, usedTreatment, samplesPerQuestion: cells === 0 ? 0 : (usedBase + usedTreatment) / cells };
}

const meanOf = (values: Float64Array, rows: readonly number[]): number => rows.reduce((s, r) => s + values[r]!, 0) / rows.length;

/** One metric's values in a benchmark's layout: per run, per question the mean over its samples. */
export function runMatrix(layout: BenchmarkLayout, base: Float64Array, treatment: Float64Array): RunMatrix {
  return {
    base: layout.base.map((run) => run.map((rows) => meanOf(base, rows))),
    treatment: layout.treatment.map((run) => run.map((rows) => meanOf(treatment, rows))),
  };
}

/** Rows with the event (value > 0) in one arm of a benchmark's layout, over every run. */
export function eventsIn(runs: readonly (readonly (readonly number[])[])[], values: Float64Array): number {
  let events = 0;
  for (const run of runs) for (const rows of run) for (const r of rows) if (values[r]! > 0) events++;
  return events;
}
