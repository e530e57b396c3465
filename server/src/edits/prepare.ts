import type { AnalysisInputs } from '../inputs/analysis-inputs.js';
import { corpusEnv, type EvalEnv } from '../language/eval-env.js';
import { viewOf, type TrajectoryView } from '../language/view.js';
import type { Trajectory } from '../pool/types.js';
import { RewardCompiler, type CompiledReward } from '../reward/compile.js';
import { compileEdit, type CompiledEdit } from '../reward/compile-edit.js';
import { prelude } from '../semantics/prelude.js';
import type { SpecModel } from '../semantics/check.js';
import type { AttackPlan, EditPlan } from './attack-plan.js';
import { evaluateFeatures, runAttack, type AttackRun, type EditRecord } from './attack-run.js';
import { AuditError, featureName } from './audit-error.js';
import { buildFeatureTable, type FeatureTable } from './features.js';
import { scoringMemo, type ScoringMemo } from './scoring-memo.js';
import { editOrigins } from './generators/edit-origins.js';
import type { CommandRecord } from '../report/generator-schema.js';

/** Where laundering candidates come from; built from the attacks' generators, reading visible fields only. */
export interface CandidateSource {
  candidatesFor(plan: AttackPlan, trajectory: Trajectory, position: number, exclude: ReadonlySet<string>): readonly string[];
  notes(plan: AttackPlan): string[];
  /** Which generators (bit g: plan.generators[g]) proposed each candidate id of one position. */
  origins?(plan: AttackPlan, trajectory: Trajectory, position: number, exclude: ReadonlySet<string>): ReadonlyMap<string, number>;
  /** The commands the attack's command generators ran, for the report. */
  commands?(plan: AttackPlan): CommandRecord[];
}

/** A source for analyses that build no laundering edits. */
export const noCandidates: CandidateSource = { candidatesFor: () => [], notes: () => [] };

export interface RunOptions {
  readonly isCancelled?: () => boolean;
  readonly onProgress?: (message: string) => void;
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
  /** The corpus and the evaluation caches, which live as long as these prepared edits. */
  readonly env: EvalEnv;
  readonly views: readonly TrajectoryView[];
  readonly originalValues: Float64Array;
  readonly detectorNames: readonly string[];
  readonly detectorColumns: ReadonlyMap<string, number>;
  readonly runs: readonly AttackRun[];
  readonly inputs: AnalysisInputs;
  readonly candidateNotes: ReadonlyMap<string, string[]>;
  /** Per edit of a launder attack with several generators: which generators proposed it (bit g: plan.generators[g]). */
  readonly candidateOrigins: ReadonlyMap<EditRecord, number>;
  /** Per attack: the commands its command generators ran. */
  readonly candidateCommands: ReadonlyMap<string, CommandRecord[]>;
  /** The groups of more than one row. */
  readonly sampleGroups: readonly SampleGroup[];
  readonly memo: ScoringMemo;
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
  return { rewards, edits, detectorNames, table: buildFeatureTable(rewards, detectors) };
}

/** An attack's edit: a built-in one compiles against the prelude, where it is declared. */
function compileAttackEdit(model: SpecModel, attack: AttackPlan): CompiledEdit {
  const info = model.edits.get(attack.kind);
  if (info === undefined) throw new Error(`attack '${attack.name}': no edit '${attack.kind}' (the checker reports this)`);
  return compileEdit(info.builtin ? prelude.model : model, info);
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

/** Builds every edit and evaluates every feature. Returns undefined when cancelled, a normal outcome. */
export function prepareEdits(model: SpecModel, plan: EditPlan, inputs: AnalysisInputs, candidates: CandidateSource, options: RunOptions = {}): PreparedEdits | undefined {
  const isCancelled = options.isCancelled ?? (() => false);
  const progress = options.onProgress ?? (() => undefined);
  const { table, detectorNames, edits } = compilePlan(model, plan);
  const F = table.keys.length;

  const rows = inputs.pools.flatMap((p) => p.rows);
  const poolOfRow = inputs.pools.flatMap((p) => p.rows.map(() => p.name));
  const clusterIds = new Map<string, number>();
  const clusterOf = rows.map((row) => {
    let id = clusterIds.get(row.question_id);
    if (id === undefined) clusterIds.set(row.question_id, (id = clusterIds.size));
    return id;
  });

  progress(`evaluating ${F} terms on ${rows.length} trajectories`);
  const env = corpusEnv(inputs.corpus);
  const views = rows.map(viewOf);
  const originalValues = new Float64Array(rows.length * F);
  withRows(rows, () => views.forEach((view, r) => evaluateFeatures(table, view, env, originalValues, r * F, r)));
  const bad = originalValues.findIndex((v) => !Number.isFinite(v));
  if (bad >= 0) {
    const row = Math.floor(bad / F);
    throw located(new AuditError(`term '${featureName(table.keys[bad % F]!)}' is ${originalValues[bad]}; every term must be a finite number`, row), rows);
  }

  const detectorColumns = new Map(detectorNames.map((name) => [name, table.index.get(`decl:${name}`)!]));
  const runs: AttackRun[] = [];
  // An attack asks for candidates position by position, row by row: the ids to leave out (retrieved
  // or cited) are collected once per row, not once per position.
  let excluded: { row: number; ids: ReadonlySet<string> } | undefined;
  const exclusionsOf = (row: number): ReadonlySet<string> => {
    if (excluded?.row !== row) {
      const view = views[row]!;
      const ids = new Set(view.retrieved);
      for (const id of view.citations) ids.add(id);
      excluded = { row, ids };
    }
    return excluded.ids;
  };
  for (const attack of plan.attacks) {
    progress(`attack ${attack.name}: building edits`);
    const run = withRows(rows, () => runAttack(attack, {
      table, env, rows, views, clusterOf, originalValues, detectorColumns, isCancelled, editOf: (p) => edits.get(p.name)!,
      candidatesFor: (p, row, position) => candidates.candidatesFor(p, rows[row]!, position, exclusionsOf(row)),
    }));
    if (run === undefined) return undefined;
    runs.push(run);
  }
  if (isCancelled()) return undefined;
  const candidateNotes = new Map(plan.attacks.map((a) => [a.name, candidates.notes(a)]));
  const candidateOrigins = editOrigins(runs, candidates, rows, exclusionsOf);
  const candidateCommands = new Map(plan.attacks.map((a) => [a.name, candidates.commands?.(a) ?? []]));
  return {
    table, rows, poolOfRow, clusterOf, clusters: clusterIds.size, env, views, originalValues, detectorNames, detectorColumns, runs, inputs, candidateNotes,
    candidateOrigins, candidateCommands,
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
