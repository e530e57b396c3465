import type { AnalysisInputs } from '../inputs/analysis-inputs.js';
import { corpusEnv, type EvalEnv } from '../language/eval-env.js';
import { viewOf, type TrajectoryView } from '../language/view.js';
import type { Trajectory } from '../pool/types.js';
import { RewardCompiler, type CompiledReward, type Feature } from '../reward/compile.js';
import type { CommandTerms } from '../language/command-terms.js';
import { CollectingTerms } from './term-requests.js';
import type { CommandTermRecord } from './command-terms.js';
import { compileEdit, type CompiledEdit } from '../reward/compile-edit.js';
import type { SpecModel } from '../semantics/check.js';
import type { AttackPlan, EditPlan } from './attack-plan.js';
import { evaluateFeatures, joinRunParts, runAttackRows, type AttackContext, type AttackRun, type KnownEdits, type RunPart } from './attack-run.js';
import { AuditError, featureName } from './audit-error.js';
import { buildFeatureTable, type FeatureTable } from './features.js';
import { evaluateMetrics, joinMetrics } from './original-metrics.js';
import { scoringMemo, type ScoringMemo } from './scoring-memo.js';
import { partOrigins } from './edit-origins.js';
import { dropNotes, sumDrops, type DropCounts, type GeneratorDrops } from './candidate-drops.js';
import type { CommandRecord } from '../report/generator-schema.js';

/** Where laundering candidates come from; built from the attacks' generators, reading visible fields only. */
export interface CandidateSource {
  candidatesFor(plan: AttackPlan, trajectory: Trajectory, position: number, exclude: ReadonlySet<string>): readonly string[];
  /** What the attack's file and command generators dropped so far, in generator order. */
  drops(plan: AttackPlan): GeneratorDrops[];
  /** Which generators (bit g: plan.generators[g]) proposed each candidate id of one position. */
  origins?(plan: AttackPlan, trajectory: Trajectory, position: number, exclude: ReadonlySet<string>): ReadonlyMap<string, number>;
  /** The commands the attack's command generators ran, for the report. */
  commands?(plan: AttackPlan): CommandRecord[];
}

/** A source for analyses that build no laundering edits. */
export const noCandidates: CandidateSource = { candidatesFor: () => [], drops: () => [] };

export interface RunOptions {
  readonly isCancelled?: () => boolean;
  readonly onProgress?: (message: string) => void;
  /** Rows `prepareEdits` prepares at a time on its one thread: `maxRowsPerRange` unless a test asks for small ranges. */
  readonly rowsPerRange?: number;
  /**
   * The answers of the plan's command terms (edits/command-terms.ts), or the collector of their
   * requests: then every feature only records what it would send (`collectingTable`).
   */
  readonly commandTerms?: CommandTerms | undefined;
}

/** Rows of one pool that answer the same question: the samples a best-of-n selector picks from. */
export interface SampleGroup {
  readonly rows: readonly number[];
}

/**
 * What the edit engine computes from the data: every original's and every isolated-eligible edit's
 * feature values. It depends on the features, attacks, generators and data, not on weights, so a
 * weight edit re-scores prepared edits without touching the data again; `memo` keeps what one
 * scoring leaves to the next for as long as the prepared edits are kept.
 */
export interface PreparedEdits {
  readonly table: FeatureTable;
  readonly rows: readonly Trajectory[];
  readonly poolOfRow: readonly string[];
  /** The question cluster of each row. */
  readonly clusterOf: readonly number[];
  readonly clusters: number;
  readonly originalValues: Float64Array;
  /** Each original's contract compatibility and selection metrics (edits/original-metrics.ts). */
  readonly originalMetrics: Float64Array;
  readonly detectorNames: readonly string[];
  readonly detectorColumns: ReadonlyMap<string, number>;
  readonly runs: readonly AttackRun[];
  readonly inputs: AnalysisInputs;
  readonly candidateNotes: ReadonlyMap<string, string[]>;
  /** Per attack: the commands its command generators ran. */
  readonly candidateCommands: ReadonlyMap<string, CommandRecord[]>;
  /** The groups of more than one row. */
  readonly sampleGroups: readonly SampleGroup[];
  readonly memo: ScoringMemo;
  /** The fields and rewards computed by a command that the features read, and what their programs ran. */
  readonly commandTerms?: readonly CommandTermRecord[];
}

export interface CompiledPlan {
  /** The plan's rewards, compiled, in plan order. */
  readonly rewards: readonly CompiledReward[];
  /** Each attack's edit, compiled (by attack name). */
  readonly edits: ReadonlyMap<string, CompiledEdit>;
  /** The plan's detectors and then every attack's targets, without repeats. */
  readonly detectorNames: readonly string[];
  readonly table: FeatureTable;
}

/** The plan's features: detectors first, then each reward's terms; rewards sharing a signal or detector share its column. */
export function compilePlan(model: SpecModel, plan: EditPlan): CompiledPlan {
  const compiler = new RewardCompiler(model);
  const rewards = plan.rewards.map((name) => compiler.reward(name));
  const detectorNames = [...new Set([...plan.detectors, ...plan.attacks.flatMap((a) => a.targets)])];
  const detectors = detectorNames.map((name) => compiler.detector(name));
  const edits = new Map(plan.attacks.map((a) => [a.name, compileAttackEdit(model, a)]));
  const values = (plan.values ?? []).map((name) => compiler.value(name));
  return { rewards, edits, detectorNames, table: buildFeatureTable(rewards, detectors, values) };
}

/**
 * The plan's table for the collecting pass of its command terms (edits/command-terms.ts): each
 * feature records the trajectory for the command terms it reads and is 0, so the pass builds the
 * very edits and views the real one evaluates, and evaluates nothing else.
 */
export function collectingTable(table: FeatureTable, collector: CollectingTerms): FeatureTable {
  const features = table.commands.map((terms): Feature => (view) => {
    for (const term of terms) collector.record(term, view);
    return 0;
  });
  return { ...table, features };
}

/** An attack's edit: a built-in one compiles against the prelude, where it is declared. */
function compileAttackEdit(model: SpecModel, attack: AttackPlan): CompiledEdit {
  const info = model.edits.get(attack.kind);
  if (info === undefined) throw new Error(`attack '${attack.name}': no edit '${attack.kind}' (the checker reports this)`);
  return compileEdit(info.builtin ? model.preludeModel ?? model : model, info);
}

/** The error with the row it names located in its pool file, so the user can open it. */
function located(error: AuditError, rows: readonly Trajectory[]): AuditError {
  const row = error.row === undefined ? undefined : rows[error.row];
  return row === undefined ? error : new AuditError(`${error.message} (trajectory ${row.id}, ${row.source.file}:${row.source.line})`);
}

/** Runs `run`, naming the pool row of any AuditError it raises. */
export function withRows<T>(rows: readonly Trajectory[], run: () => T): T {
  try {
    return run();
  } catch (error) {
    throw error instanceof AuditError ? located(error, rows) : error;
  }
}

/** The plan compiled once: what every row range of a preparation shares. */
export interface CompiledSetup extends CompiledPlan {
  readonly plan: EditPlan;
  readonly detectorColumns: ReadonlyMap<string, number>;
}

/** What one row range of a preparation evaluates: the compiled plan over these rows. */
export interface PrepareSetup extends CompiledSetup {
  readonly rows: readonly Trajectory[];
  readonly env: EvalEnv;
}

export function compileSetup(model: SpecModel, plan: EditPlan, collector?: CollectingTerms): CompiledSetup {
  const planned = compilePlan(model, plan);
  const compiled = collector === undefined ? planned : { ...planned, table: collectingTable(planned.table, collector) };
  const detectorColumns = new Map(compiled.detectorNames.map((name) => [name, compiled.table.index.get(`decl:${name}`)!]));
  return { ...compiled, plan, detectorColumns };
}

/** The setup over `rows`; `env` (the corpus and its caches) may serve several row ranges. */
export function setupRows(compiled: CompiledSetup, rows: readonly Trajectory[], env: EvalEnv): PrepareSetup {
  return { ...compiled, rows, env };
}

/**
 * Where a part stopped on an AuditError. Stages in the order one pass meets them: 0 a term that
 * throws on an original, 1 a term that is not finite on an original, 2 + a attack a. The first by
 * (stage, row) over all parts is the error one pass over every row raises.
 */
export interface PartFailure {
  readonly stage: number;
  /** Numbered from the part's first row. */
  readonly row: number | undefined;
  readonly message: string;
}

/**
 * What a kept preparation knows of one row range (edits/patch-features.ts): its originals' values
 * under the new table, their metrics, and each attack's kept edits. A part given it evaluates only
 * what changed.
 */
export interface KnownRange {
  /** The range's first row, in the kept preparation's rows. */
  readonly from: number;
  readonly originalValues: Float64Array;
  readonly originalMetrics: Float64Array;
  /** Per attack, in plan order. */
  readonly runs: readonly KnownEdits[];
}

/** One row range's share of a preparation: what `prepareEdits` computes, for rows [0, setup.rows.length) of the setup. */
export interface PreparedPart {
  readonly originalValues: Float64Array;
  /** Empty in a part that failed. */
  readonly originalMetrics: Float64Array;
  /** Per attack, in plan order (fewer after a failure). */
  readonly runs: readonly RunPart[];
  /** Per attack: its file and command generators' drops. */
  readonly drops: readonly (readonly GeneratorDrops[])[];
  readonly failure?: PartFailure;
}

function failureOf(error: unknown, stage: number): PartFailure {
  if (!(error instanceof AuditError)) throw error;
  return { stage, row: error.row, message: error.message };
}

/**
 * Evaluates the originals' features and builds every attack's edits over the setup's rows, stopping
 * at the first AuditError (returned as `failure`). Undefined when cancelled.
 */
export function preparePart(setup: PrepareSetup, candidates: CandidateSource, isCancelled: () => boolean, progress: (message: string) => void = () => undefined, known?: KnownRange): PreparedPart | undefined {
  const { table, rows, env } = setup;
  const F = table.keys.length;
  // The views live as long as this part: nothing prepared keeps one.
  const views = rows.map(viewOf);
  const originalValues = known?.originalValues ?? new Float64Array(rows.length * F);
  const runs: RunPart[] = [];
  const drops = (): GeneratorDrops[][] => setup.plan.attacks.map((a) => candidates.drops(a));
  const failed = (failure: PartFailure): PreparedPart => ({ originalValues, originalMetrics: new Float64Array(0), runs, drops: drops(), failure });
  if (known === undefined) {
    progress(`evaluating ${F} terms on ${rows.length} trajectories`);
    try {
      views.forEach((view, r) => evaluateFeatures(table, view, env, originalValues, r * F, r));
    } catch (error) {
      return failed(failureOf(error, 0));
    }
    const bad = originalValues.findIndex((v) => !Number.isFinite(v));
    if (bad >= 0) {
      const message = `term '${featureName(table.keys[bad % F]!)}' is ${originalValues[bad]}; every term must be a finite number`;
      return failed({ stage: 1, row: Math.floor(bad / F), message });
    }
  }
  const originalMetrics = known?.originalMetrics ?? evaluateMetrics(views, env);
  // An attack asks for candidates position by position, row by row: the ids to leave out (retrieved
  // or cited) are collected once per row, not once per position.
  let excluded: { row: number; ids: ReadonlySet<string> } | undefined;
  const exclusionsOf = (row: number): ReadonlySet<string> => {
    if (excluded?.row !== row) excluded = { row, ids: candidatesExcluded(views[row]!) };
    return excluded.ids;
  };
  const ctx: AttackContext = {
    table, env, rows, views, originalValues, detectorColumns: setup.detectorColumns, isCancelled, editOf: (p) => setup.edits.get(p.name)!,
    candidatesFor: (p, row, position) => candidates.candidatesFor(p, rows[row]!, position, exclusionsOf(row)),
  };
  for (const [a, attack] of setup.plan.attacks.entries()) {
    progress(`attack ${attack.name}: building edits`);
    let run: RunPart | undefined;
    try {
      run = runAttackRows(attack, ctx, 0, rows.length, known === undefined ? undefined : { from: known.from, edits: known.runs[a]! });
    } catch (error) {
      return failed(failureOf(error, 2 + a));
    }
    if (run === undefined) return undefined;
    runs.push(run);
  }
  if (isCancelled()) return undefined;
  const withOrigins = runs.map((run, a) => {
    const editOrigins = partOrigins(setup.plan.attacks[a]!, run, candidates, rows, exclusionsOf);
    return editOrigins === undefined ? run : { ...run, editOrigins };
  });
  return { originalValues, originalMetrics, runs: withOrigins, drops: drops() };
}

/** The ids a laundering candidate of this original may not be: what it retrieved or cites. */
export function candidatesExcluded(view: TrajectoryView): ReadonlySet<string> {
  const ids = new Set(view.retrieved);
  for (const id of view.citations) ids.add(id);
  return ids;
}

/**
 * Rows per range at most: a thread holds one range's views and edits under construction at a time,
 * and a worker the garbage its work leaves until it collects after the range, so this bounds a
 * worker's memory whatever the pool's size. 200,000 rows ranked cold on two threads peaked at
 * 1.80–1.90 GB in 25,000-row ranges, 1.53 GB in 10,000-row ones, 1.31 GB in 5,000-row ones and
 * 1.24 GB in 2,500-row ones; each range costs a worker a collection (docs/performance.md, Threads).
 * On one thread they peaked at 2.5 GB as one part and 1.4–1.5 GB in 5,000-row ranges.
 */
export const maxRowsPerRange = 5_000;

/** Rows [0, rows) cut into consecutive ranges of `size` rows (the last may be shorter). */
export function consecutiveRanges(rows: number, size: number): { from: number; to: number }[] {
  const ranges: { from: number; to: number }[] = [];
  for (let from = 0; from < rows; from += size) ranges.push({ from, to: Math.min(rows, from + size) });
  return ranges;
}

/**
 * Prepares row ranges one after another with one candidate source, as every thread of a parallel
 * preparation does. A file generator counts its drops over every range its source serves, so each
 * part reports what its own range added. Undefined for a range `isCancelled` stopped.
 */
export function rangePreparer(compiled: CompiledSetup, env: EvalEnv, candidates: CandidateSource, isCancelled: () => boolean): (rows: readonly Trajectory[], known?: KnownRange) => PreparedPart | undefined {
  let dropsBefore: readonly (readonly GeneratorDrops[])[] = [];
  return (rows, known) => {
    const part = preparePart(setupRows(compiled, rows, env), candidates, isCancelled, undefined, known);
    if (part === undefined) return undefined;
    const drops = part.drops.map((attack, a) => attack.map((g, i) => ({ label: g.label, dropped: minus(g.dropped, dropsBefore[a]?.[i]?.dropped) })));
    dropsBefore = part.drops;
    return { ...part, drops };
  };
}

function minus(now: DropCounts, before: DropCounts | undefined): DropCounts {
  if (before === undefined) return now;
  return { notInCorpus: now.notInCorpus - before.notInCorpus, excluded: now.excluded - before.excluded, duplicates: now.duplicates - before.duplicates };
}

/**
 * Builds every edit and evaluates every feature, on this thread. Returns undefined when cancelled, a
 * normal outcome. More than `maxRowsPerRange` rows are prepared a range at a time, as each thread of
 * a parallel preparation does, so only one range's views and edits under construction are alive.
 */
export function prepareEdits(model: SpecModel, plan: EditPlan, inputs: AnalysisInputs, candidates: CandidateSource, options: RunOptions = {}): PreparedEdits | undefined {
  const isCancelled = options.isCancelled ?? (() => false);
  const rows = inputs.pools.flatMap((p) => p.rows);
  const collector = options.commandTerms instanceof CollectingTerms ? options.commandTerms : undefined;
  const compiled = compileSetup(model, plan, collector);
  const setup = setupRows(compiled, rows, corpusEnv(inputs.corpus, options.commandTerms));
  const size = Math.max(1, options.rowsPerRange ?? maxRowsPerRange);
  if (rows.length <= size) {
    const part = preparePart(setup, candidates, isCancelled, options.onProgress);
    return part === undefined ? undefined : assemblePrepared(setup, inputs, candidates, [{ from: 0, part }]);
  }
  const progress = options.onProgress ?? (() => undefined);
  const ranges = consecutiveRanges(rows.length, size);
  progress(`evaluating ${compiled.table.keys.length} terms and building edits on ${rows.length} trajectories in ${ranges.length} row ranges`);
  const prepareRange = rangePreparer(compiled, setup.env, candidates, isCancelled);
  const parts: { from: number; part: PreparedPart }[] = [];
  for (const { from, to } of ranges) {
    const part = prepareRange(rows.slice(from, to));
    if (part === undefined) return undefined;
    parts.push({ from, part });
    progress(`built edits on ${parts.length} of ${ranges.length} row ranges`);
  }
  return assemblePrepared(setup, inputs, candidates, parts);
}

/**
 * The prepared edits from parts over consecutive row ranges of `setup.rows`, laid end to end in row
 * order: the same values, bit for bit, as one part over every row. Throws the AuditError one pass
 * would raise first.
 */
export function assemblePrepared(setup: PrepareSetup, inputs: AnalysisInputs, candidates: CandidateSource, parts: readonly { readonly from: number; readonly part: PreparedPart }[]): PreparedEdits {
  const { table, rows, plan } = setup;
  const F = table.keys.length;
  let first: PartFailure | undefined;
  for (const { from, part } of parts) {
    const failure = part.failure;
    if (failure !== undefined && (first === undefined || failure.stage < first.stage)) first = { ...failure, row: failure.row === undefined ? undefined : from + failure.row };
  }
  if (first !== undefined) throw located(new AuditError(first.message, first.row), rows);

  const clusterIds = new Map<string, number>();
  const clusterOf = rows.map((row) => {
    let id = clusterIds.get(row.question_id);
    if (id === undefined) clusterIds.set(row.question_id, (id = clusterIds.size));
    return id;
  });
  const originalValues = parts.length === 1 ? parts[0]!.part.originalValues : new Float64Array(rows.length * F);
  if (parts.length > 1) for (const { from, part } of parts) originalValues.set(part.originalValues, from * F);

  const runs = plan.attacks.map((attack, a) =>
    joinRunParts(attack, setup.edits.get(attack.name)!.visibility === 'oracle', parts.map(({ from, part }) => ({ from, part: part.runs[a]! })), clusterOf, setup.detectorColumns));
  const candidateNotes = new Map(plan.attacks.map((a, i) => [a.name, dropNotes(sumDrops(parts.map(({ part }) => part.drops[i]!)))]));
  const candidateCommands = new Map(plan.attacks.map((a) => [a.name, candidates.commands?.(a) ?? []]));
  return {
    table, rows, poolOfRow: inputs.pools.flatMap((p) => p.rows.map(() => p.name)), clusterOf, clusters: clusterIds.size,
    originalValues, originalMetrics: joinMetrics(parts.map(({ from, part }) => ({ from, values: part.originalMetrics })), rows.length), detectorNames: setup.detectorNames, detectorColumns: setup.detectorColumns, runs, inputs, candidateNotes, candidateCommands,
    sampleGroups: sampleGroupsOf(inputs), memo: scoringMemo(),
  };
}

function sampleGroupsOf(inputs: AnalysisInputs): SampleGroup[] {
  const groups: SampleGroup[] = [];
  let offset = 0;
  for (const pool of inputs.pools) {
    const byQuestion = new Map<string, number[]>();
    pool.rows.forEach((row, i) => {
      const group = byQuestion.get(row.question_id);
      if (group === undefined) byQuestion.set(row.question_id, [offset + i]);
      else group.push(offset + i);
    });
    for (const group of byQuestion.values()) if (group.length > 1) groups.push({ rows: group });
    offset += pool.rows.length;
  }
  return groups;
}
