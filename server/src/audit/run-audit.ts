import type { Corpus, RowIssue, Trajectory } from '../pool/types.js';
import type { AttackReport, AuditReport, WorkedPair } from '../report/schema.js';
import { RewardCompiler } from '../reward/compile.js';
import { normalizeAnswer } from '../reward/text.js';
import { viewOf, type EvalEnv, type TrajectoryView } from '../reward/view.js';
import type { SpecModel } from '../semantics/check.js';
import type { LineIndex } from '../syntax/line-index.js';
import { AuditError, featureName } from './audit-error.js';
import { evaluateFeatures, runAttack, type AttackRun } from './attack-run.js';
import { certify } from './certificate.js';
import { findCancellations } from './cancellation.js';
import { tieTolerance, type EstimateOptions } from './estimands.js';
import { evaluateExpectation } from './expectations.js';
import { buildFeatureTable, pairedMargin, rewardScorer, type FeatureTable, type Scorer } from './features.js';
import { detectorChange, evaluateLattice, type LatticePenalty } from './lattice.js';
import { attackMarginHistogram, repairScorers } from './margin-histogram.js';
import type { AttackPlan, AuditPlan } from './plan.js';
import { retention, retentionContract } from './retention.js';
import { scoreAttack, selectionLabel } from './scoring.js';
import { penaltySweep, perPool } from './sensitivity.js';
import { offlineUtility, type SampleGroup } from './utility.js';

export interface LoadedPool {
  readonly name: string;
  readonly file: string;
  readonly rows: readonly Trajectory[];
  readonly issues: readonly RowIssue[];
}

export interface AuditInputs {
  readonly corpusName: string;
  readonly corpus: Corpus;
  readonly corpusIssues: readonly RowIssue[];
  readonly pools: readonly LoadedPool[];
}

/** Where laundering candidates come from; built from the audit's generators, reading visible fields only. */
export interface CandidateSource {
  candidatesFor(plan: AttackPlan, trajectory: Trajectory, position: number, exclude: ReadonlySet<string>): readonly string[];
  notes(plan: AttackPlan): string[];
}

export interface RunOptions {
  readonly isCancelled?: () => boolean;
  readonly onProgress?: (message: string) => void;
}

const maxReportedIssues = 100;

function corpusEnv(corpus: Corpus): EvalEnv {
  const corpusIds = new Set(corpus.passages.keys());
  const normalized = new Map<string, string>();
  return {
    corpusIds,
    normalizedPassage(id) {
      const known = normalized.get(id);
      if (known !== undefined) return known;
      const passage = corpus.passages.get(id);
      if (passage === undefined) return undefined;
      const text = normalizeAnswer(`${passage.title} ${passage.text}`);
      normalized.set(id, text);
      return text;
    },
  };
}

/**
 * What an audit computes from the data: every original's and every isolated-eligible edit's
 * feature values. It depends on the features, attacks, generators and data, not on weights, so a
 * weight edit re-scores a prepared audit without touching the data again.
 */
export interface PreparedAudit {
  readonly table: FeatureTable;
  readonly rows: readonly Trajectory[];
  readonly poolOfRow: readonly string[];
  /** The question cluster of each row. */
  readonly clusterOf: readonly number[];
  readonly clusters: number;
  readonly env: EvalEnv;
  readonly views: readonly TrajectoryView[];
  readonly originalValues: Float64Array;
  readonly detectorNames: readonly string[];
  readonly detectorColumns: ReadonlyMap<string, number>;
  readonly runs: readonly AttackRun[];
  readonly inputs: AuditInputs;
  readonly candidateNotes: ReadonlyMap<string, string[]>;
}

function compileFor(model: SpecModel, plan: AuditPlan) {
  const compiler = new RewardCompiler(model);
  const audited = compiler.reward(plan.reward);
  const compared = plan.compare.map((name) => compiler.reward(name));
  const detectorNames = [...new Set([...plan.lattice.map((l) => l.name), ...plan.attacks.flatMap((a) => a.targets)])];
  const detectors = detectorNames.map((name) => compiler.detector(name));
  return { audited, compared, detectorNames, table: buildFeatureTable([audited, ...compared], detectors) };
}

/** Builds every edit and evaluates every feature. Returns undefined when cancelled, a normal outcome. */
export function prepareAudit(model: SpecModel, plan: AuditPlan, inputs: AuditInputs, candidates: CandidateSource, options: RunOptions = {}): PreparedAudit | undefined {
  const isCancelled = options.isCancelled ?? (() => false);
  const progress = options.onProgress ?? (() => undefined);
  const { table, detectorNames } = compileFor(model, plan);
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
  views.forEach((view, r) => evaluateFeatures(table, view, env, originalValues, r * F));
  const bad = originalValues.findIndex((v) => !Number.isFinite(v));
  if (bad >= 0) {
    const row = Math.floor(bad / F);
    throw located(new AuditError(`term '${featureName(table.keys[bad % F]!)}' is ${originalValues[bad]}; every term must be a finite number`, row), rows);
  }

  const detectorColumns = new Map(detectorNames.map((name) => [name, table.index.get(`decl:${name}`)!]));
  const runs: AttackRun[] = [];
  for (const attack of plan.attacks) {
    progress(`attack ${attack.name}: building edits`);
    const run = withRows(rows, () => runAttack(attack, {
      table, env, rows, views, clusterOf, originalValues, detectorColumns, isCancelled,
      candidatesFor: (p, row, position) => {
        const view = views[row]!;
        return candidates.candidatesFor(p, rows[row]!, position, new Set([...view.retrieved, ...view.citations]));
      },
    }));
    if (run === undefined) return undefined;
    runs.push(run);
  }
  if (isCancelled()) return undefined;
  const candidateNotes = new Map(plan.attacks.map((a) => [a.name, candidates.notes(a)]));
  return { table, rows, poolOfRow, clusterOf, clusters: clusterIds.size, env, views, originalValues, detectorNames, detectorColumns, runs, inputs, candidateNotes };
}

/** The error with the row it names located in its pool file, so the user can open it. */
function located(error: AuditError, rows: readonly Trajectory[]): AuditError {
  const row = error.row === undefined ? undefined : rows[error.row];
  return row === undefined ? error : new AuditError(`${error.message} (trajectory ${row.id}, ${row.source.file}:${row.source.line})`);
}

function withRows<T>(rows: readonly Trajectory[], run: () => T): T {
  try {
    return run();
  } catch (error) {
    throw error instanceof AuditError ? located(error, rows) : error;
  }
}

/**
 * Scores a prepared audit with the spec's current weights: margins, estimates, lattice and the
 * side statistics. Arithmetic only. The spec must have the features the audit was prepared with.
 */
export function scoreAudit(model: SpecModel, plan: AuditPlan, prepared: PreparedAudit, lines: LineIndex, options: RunOptions = {}): AuditReport | undefined {
  return withRows(prepared.rows, () => scorePrepared(model, plan, prepared, lines, options));
}

function scorePrepared(model: SpecModel, plan: AuditPlan, prepared: PreparedAudit, lines: LineIndex, options: RunOptions): AuditReport | undefined {
  const isCancelled = options.isCancelled ?? (() => false);
  const progress = options.onProgress ?? (() => undefined);
  const estimateOptions: EstimateOptions = { resamples: plan.bootstrap, seed: plan.seed };
  const { audited, compared, table: current } = compileFor(model, plan);
  const { table, rows, views, env, originalValues, runs, inputs, detectorNames, detectorColumns } = prepared;
  if (current.keys.join('\n') !== table.keys.join('\n')) throw new Error('the spec no longer has the features this audit was prepared with');
  const F = table.keys.length;

  const scorers = [rewardScorer(table, audited), ...compared.map((r) => rewardScorer(table, r))];
  const base = scorers[0]!;
  const termNames = new Map<string, string>();
  for (const reward of [audited, ...compared]) for (const term of reward.terms) if (!termNames.has(term.key)) termNames.set(term.key, term.name);
  const termName = (_scorer: Scorer, feature: number): string => {
    const key = table.keys[feature]!;
    return termNames.get(key) ?? key.slice(key.indexOf(':') + 1);
  };
  const workedPair = (run: AttackRun, edit: number): WorkedPair => {
    const record = run.editRecords[edit]!;
    const row = rows[record.row]!;
    const margins: Record<string, number> = {};
    for (const scorer of scorers) margins[scorer.name] = pairedMargin(scorer.weights, run.editValues, edit * F, originalValues, record.row * F);
    return {
      trajectory: row.id, pool: row.source.pool, line: row.source.line, attack: run.plan.name,
      position: record.position ?? null, replacement: record.replacement ?? null, margins,
    };
  };

  // The lattice comes first: its minimal repairs are among the rewards whose margins are binned.
  progress(`lattice over ${plan.lattice.length} detectors`);
  const penalties: LatticePenalty[] = plan.lattice.map((l) => ({ name: l.name, lambda: l.lambda, column: table.index.get(`decl:${l.name}`)! }));
  const lattice = evaluateLattice(runs, originalValues, base, penalties, estimateOptions);
  if (isCancelled()) return undefined;
  const histogramScorers = [
    ...scorers.map((scorer, i) => ({ scorer, role: i === 0 ? ('audited' as const) : ('compared' as const), detectors: [] })),
    ...repairScorers(table, base, lattice),
  ];

  progress('scoring attacks');
  const attacks: AttackReport[] = runs.map((run) => ({
    name: run.plan.name,
    kind: run.plan.kind,
    targets: [...run.plan.targets],
    generators: run.plan.generators.map((g) => g.label),
    range: lines.range(run.plan.span),
    counts: run.edits,
    candidateNotes: prepared.candidateNotes.get(run.plan.name) ?? [],
    results: scorers.flatMap((scorer) =>
      scoreAttack(run, originalValues, scorer, estimateOptions).map((s) => ({
        reward: scorer.name, selection: s.selection, label: selectionLabel(s.selection, scorer), estimate: s.estimate,
      }))),
    marginHistogram: attackMarginHistogram(run, originalValues, histogramScorers),
    detectorEffects: plan.lattice.map((l) => detectorEffect(run, originalValues, F, table.index.get(`decl:${l.name}`)!, l.name, l.lambda)),
  }));

  const cancellation = findCancellations(scorers, { runs, originalValues, termName, workedPair, options: estimateOptions });
  const certificate = certify(runs, originalValues, base, penalties, workedPair);
  const sweep = penaltySweep(runs, originalValues, table, base, plan.lattice.map((l) => ({ key: `decl:${l.name}`, lambda: l.lambda })), plan.sweep, estimateOptions);

  const groups = sampleGroups(prepared);
  const pooled = perPool(runs, originalValues, scorers, (row) => prepared.poolOfRow[row]!, inputs.pools.map((p) => p.name), estimateOptions);

  const expectations = plan.expects.map((expect) => ({
    text: expect.text,
    range: lines.range(expect.span),
    ...evaluateExpectation(expect, attacks, lattice),
  }));

  return {
    name: plan.name,
    range: lines.range(plan.span),
    reward: { name: audited.name, visibility: audited.visibility },
    compared: compared.map((r) => ({ name: r.name, visibility: r.visibility })),
    corpus: {
      name: inputs.corpusName, file: inputs.corpus.file, passages: inputs.corpus.passages.size,
      skipped: inputs.corpusIssues.length, issues: inputs.corpusIssues.slice(0, maxReportedIssues).map((i) => ({ ...i })),
    },
    pools: inputs.pools.map((p) => ({
      name: p.name, file: p.file, rows: p.rows.length, questions: new Set(p.rows.map((r) => r.question_id)).size,
      skipped: p.issues.length, issues: p.issues.slice(0, maxReportedIssues).map((i) => ({ ...i })),
    })),
    clusters: prepared.clusters,
    detectors: detectorNames.map((name) => {
      const column = detectorColumns.get(name)!;
      let fires = 0;
      for (let r = 0; r < rows.length; r++) if (originalValues[r * F + column] !== 0) fires++;
      return { name, lambda: plan.lattice.find((l) => l.name === name)?.lambda ?? null, firesOnOriginals: fires };
    }),
    attacks,
    lattice,
    cancellation,
    certificate,
    sweep,
    retention: retention(views, env, originalValues, (row) => prepared.clusterOf[row]!, base, scorers.slice(1), termName, estimateOptions),
    utility: offlineUtility(groups, views, originalValues, scorers),
    perPool: pooled.perPool,
    aggregate: pooled.aggregate,
    expectations,
    settings: { seed: plan.seed, bootstrap: plan.bootstrap, sweep: [...plan.sweep], tieTolerance, contract: { ...retentionContract } },
  };
}

// Sample groups depend on the rows only: once per prepared audit.
const groupCache = new WeakMap<PreparedAudit, readonly SampleGroup[]>();

/** Rows of one pool that share a question: the samples a best-of-n selector picks from. */
function sampleGroups(prepared: PreparedAudit): readonly SampleGroup[] {
  let groups = groupCache.get(prepared);
  if (groups !== undefined) return groups;
  const found: SampleGroup[] = [];
  let offset = 0;
  for (const pool of prepared.inputs.pools) {
    const byQuestion = new Map<string, number[]>();
    pool.rows.forEach((row, i) => {
      const group = byQuestion.get(row.question_id);
      if (group === undefined) byQuestion.set(row.question_id, [offset + i]);
      else group.push(offset + i);
    });
    for (const group of byQuestion.values()) if (group.length > 1) found.push({ rows: group });
    offset += pool.rows.length;
  }
  groupCache.set(prepared, (groups = found));
  return groups;
}

/** How one lattice detector enters an attack's margins: its penalty contributes −λ·d per edit. */
function detectorEffect(run: AttackRun, originalValues: Float64Array, F: number, column: number, detector: string, lambda: number) {
  const edits = run.editRecords.length;
  let fires = 0;
  let sum = 0;
  let worst = -Infinity;
  const change = detectorChange(run, originalValues, F, column);
  for (let e = 0; e < edits; e++) {
    const after = run.editValues[e * F + column]!;
    const contribution = -lambda * change[e]!;
    if (after !== 0) fires++;
    sum += contribution;
    worst = Math.max(worst, contribution);
  }
  if (edits === 0) return { detector, lambda, firesOnEdits: null, meanContribution: null, worstContribution: null };
  return { detector, lambda, firesOnEdits: fires / edits, meanContribution: sum / edits, worstContribution: worst };
}

/** Prepares and scores one audit of a checked, error-free spec. Undefined when cancelled. */
export function runAudit(model: SpecModel, plan: AuditPlan, inputs: AuditInputs, candidates: CandidateSource, lines: LineIndex, options: RunOptions = {}): AuditReport | undefined {
  const prepared = prepareAudit(model, plan, inputs, candidates, options);
  return prepared === undefined ? undefined : scoreAudit(model, plan, prepared, lines, options);
}
