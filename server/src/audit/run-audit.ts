import type { LineIndex } from '../problems/line-index.js';
import { editRecord, type AttackRun, type EditRecord } from '../edits/attack-run.js';
import { featureByVector } from '../edits/edit-changes.js';
import { variantText } from '../edits/edit-program.js';
import { editMargin, rewardScorer, type Scorer } from '../edits/features.js';
import { compilePlan, prepareEdits, withRows, type CandidateSource, type PreparedEdits, type RunOptions } from '../edits/prepare.js';
import { scoreAttack, selectionLabel } from '../scoring/scoring.js';
import type { AnalysisInputs } from '../inputs/analysis-inputs.js';
import { readFileSection, reportedRows } from '../inputs/pool-section.js';
import type { AttackReport, AuditReport, FrozenFigures, LatticeReport, PoolProfileReport, WorkedPair } from '../report/schema.js';
import type { CommandRecord } from '../report/generator-schema.js';
import type { CompiledReward } from '../reward/compile.js';
import type { SpecModel } from '../semantics/check.js';
import { frozenPairs, type FrozenPair } from '../semantics/frozen-fields.js';
import { tieTolerance, type EstimateOptions } from '../stats/estimands.js';
import { findCancellations } from './cancellation.js';
import { certify } from './certificate.js';
import { certifyByGenerator } from './generator-certificate.js';
import { heldOutCertification } from './held-out.js';
import { expectationReports } from './expectations.js';
import { conformanceReports, notConformingOf } from './conformance.js';
import { evaluateLattice, type LatticePenalty } from './lattice.js';
import { attackMarginHistogram, repairScorers } from './margin-histogram.js';
import { auditEditPlan, type AuditPlan } from './plan.js';
import { retentionContract } from '../edits/original-metrics.js';
import { compatibleRows, retention } from './retention.js';
import { robustnessTable } from './robustness.js';
import { scopedRuns, selectedRowsReport } from './selection-scope.js';
import { penaltySweep, perPool } from './sensitivity.js';
import { offlineUtility, rowMetrics } from './utility.js';
import { profilePool, type PoolProfile } from '../pool/profile.js';
import type { Trajectory } from '../pool/types.js';
import type { PoolSummary, ScoringMemo } from '../edits/scoring-memo.js';


/**
 * Scores a prepared audit with the spec's current weights: margins, estimates, lattice and the
 * side statistics. Arithmetic only. The spec must have the features the audit was prepared with.
 */
export function scoreAudit(model: SpecModel, plan: AuditPlan, prepared: PreparedEdits, lines: LineIndex, options: RunOptions = {}): AuditReport | undefined {
  return withRows(prepared.rows, () => scorePrepared(model, plan, prepared, lines, options));
}

/** What every step of one scoring reads: the prepared edits, the rewards as weights, and how to name and show an edit. */
interface AuditScoring {
  readonly plan: AuditPlan;
  readonly prepared: PreparedEdits;
  readonly lines: LineIndex;
  readonly audited: CompiledReward;
  readonly compared: readonly CompiledReward[];
  /** The audited reward first, then the compared ones. */
  readonly scorers: readonly Scorer[];
  readonly base: Scorer;
  readonly penalties: readonly LatticePenalty[];
  /** The plan's bootstrap, remembering draws and intervals in the prepared edits' memo. */
  readonly estimates: EstimateOptions;
  readonly termName: (scorer: Scorer, feature: number) => string;
  readonly workedPair: (run: AttackRun, edit: number) => WorkedPair;
  /** The (reward, attack) pairs whose figures are frozen (semantics/frozen-fields.ts). */
  readonly frozen: readonly FrozenPair[];
  /** The runs whose figures under the audited reward are not frozen: the only ones a repair is worked out from. */
  readonly repairRuns: readonly AttackRun[];
}

/** The frozen marker of a (reward, attack) pair's figures, as the report carries it; undefined when they are not frozen. */
export function frozenMarker(frozen: readonly FrozenPair[], reward: string, attack: string): FrozenFigures | undefined {
  const pair = frozen.find((p) => p.reward === reward && p.attack === attack);
  return pair === undefined ? undefined : { fields: pair.fields.map((f) => ({ name: f.name, path: f.path, pools: [...f.pools] })), edit: pair.edit, writes: [...pair.writes] };
}

const withFrozen = <T extends { reward: string; attack: string }>(frozen: readonly FrozenPair[], entry: T): T => {
  const marker = frozenMarker(frozen, entry.reward, entry.attack);
  return marker === undefined ? entry : { ...entry, frozen: marker };
};

function scorePrepared(model: SpecModel, plan: AuditPlan, every: PreparedEdits, lines: LineIndex, options: RunOptions): AuditReport | undefined {
  const isCancelled = options.isCancelled ?? (() => false);
  const progress = options.onProgress ?? (() => undefined);
  const everyRow = auditScoring(model, plan, every, lines);
  // The pool selection and the common cluster set restrict the attack runs; everything after reads those.
  const scoped = scopedRuns(every, plan.select, plan.commonClusters, everyRow.scorers);
  const prepared = scoped.runs === every.runs ? every : { ...every, runs: scoped.runs };
  // A run frozen under the audited reward is left out of every repair: the lattice, the certificates, the sweep.
  const frozen = frozenPairs(model, { rewards: [plan.reward, ...plan.compare], pools: plan.pools, attacks: plan.attacks });
  const repairRuns = prepared.runs.filter((run) => frozenMarker(frozen, plan.reward, run.plan.name) === undefined);
  const scoring: AuditScoring = { ...everyRow, prepared, frozen, repairRuns };
  // The lattice comes first: its minimal repairs are among the rewards whose margins are binned.
  progress(`lattice over ${plan.lattice.length} detectors`);
  const leftOut = prepared.runs.filter((run) => !repairRuns.includes(run)).map((run) => run.plan.name);
  const evaluated = evaluateLattice(repairRuns, scoring.base, scoring.penalties, scoring.estimates, prepared.memo);
  const lattice = leftOut.length === 0 ? evaluated : { ...evaluated, frozen: leftOut };
  if (isCancelled()) return undefined;
  progress('scoring attacks');
  const scoredAttacks = attackReports(scoring, lattice);
  const side = sideStatistics(scoring);
  const conformance = conformanceReports(plan.conformance, prepared, [scoring.audited, ...scoring.compared], lines);
  // A figure of a reward that does not reproduce what it should is said to be so wherever it is shown.
  const marked = <T extends { reward: string }>(entry: T): T => {
    const failing = notConformingOf(conformance, entry.reward);
    return failing.length === 0 ? entry : { ...entry, notConforming: failing };
  };
  const attacks = scoredAttacks.map((a) => ({ ...a, results: a.results.map(marked) }));
  const expectations = expectationReports(plan, attacks, lattice, lines);
  return {
    name: plan.name,
    range: lines.range(plan.span),
    reward: { name: scoring.audited.name, visibility: scoring.audited.visibility },
    compared: scoring.compared.map((r) => ({ name: r.name, visibility: r.visibility })),
    ...dataSummary(scoring),
    ...(scoped.selected === undefined ? {} : { poolSelection: selectedRowsReport(plan.select, scoped.selected, scoring.scorers) }),
    ...(scoped.commonClusters === undefined ? {} : { clusterSet: { rule: 'common' as const, clusters: scoped.commonClusters } }),
    attacks,
    ...(plan.robustness.length === 0 ? {} : { robustness: robustnessTable(every, plan.robustness, plan.commonClusters, scoring.scorers, scoring.estimates).map((entry) => ({ ...entry, results: entry.results.map((r) => marked(withFrozen(frozen, r))) })) }),
    lattice,
    cancellation: side.cancellation,
    certificate: side.certificate,
    ...(plan.byGenerator ? { generatorCertificate: certifyByGenerator(repairRuns, prepared.originalValues, scoring.base, scoring.penalties, prepared.memo) } : {}),
    ...(plan.holdout === undefined ? {} : { heldOut: heldOutCertification(prepared, repairRuns, scoring.base, scoring.penalties, plan.holdout, scoring.estimates) }),
    sweep: side.sweep,
    retention: side.retention,
    utility: side.utility,
    perPool: side.perPool.map((entry) => marked(withFrozen(frozen, entry))),
    aggregate: side.aggregate.map((entry) => marked(withFrozen(frozen, entry))),
    expectations,
    ...(conformance.length === 0 ? {} : { conformance }),
    ...(prepared.commandTerms === undefined || prepared.commandTerms.length === 0 ? {} : { commandTerms: [...prepared.commandTerms] }),
    settings: { seed: plan.seed, bootstrap: plan.bootstrap, sweep: [...plan.sweep], tieTolerance, contract: { ...retentionContract } },
  };
}

/** The spec's rewards as weight vectors over the prepared features, and the helpers every step shares. */
function auditScoring(model: SpecModel, plan: AuditPlan, prepared: PreparedEdits, lines: LineIndex): AuditScoring {
  const { rewards, table: current, edits } = compilePlan(model, auditEditPlan(plan));
  // A declared edit's variants are said in its own words; the prelude's keep the report's position/replacement wording.
  const changeOf = (run: AttackRun, record: EditRecord): { change?: string } =>
    model.edits.get(run.plan.kind)?.builtin === false ? { change: variantText(edits.get(run.plan.name)!, record.position, record.replacement) } : {};
  const [audited, ...compared] = rewards;
  if (audited === undefined) throw new Error('an audit plan always names its reward');
  const { table, rows } = prepared;
  if (current.keys.join('\n') !== table.keys.join('\n')) throw new Error('the spec no longer has the features this audit was prepared with');
  const scorers = [rewardScorer(table, audited), ...compared.map((r) => rewardScorer(table, r))];
  const termNames = new Map<string, string>();
  for (const reward of rewards) for (const term of reward.terms) if (!termNames.has(term.key)) termNames.set(term.key, term.name);
  const termName = (_scorer: Scorer, feature: number): string => {
    const key = table.keys[feature]!;
    return termNames.get(key) ?? key.slice(key.indexOf(':') + 1);
  };
  const workedPair = (run: AttackRun, edit: number): WorkedPair => {
    const record = editRecord(run, edit);
    const row = rows[record.row]!;
    const margins: Record<string, number> = {};
    for (const scorer of scorers) margins[scorer.name] = editMargin(scorer.weights, run.changes, edit);
    const file = prepared.inputs.pools.find((p) => p.name === row.source.pool)?.rowFiles?.get(row.source.file);
    return {
      trajectory: row.id, pool: row.source.pool, ...(file === undefined ? {} : { file }), line: row.source.line, attack: run.plan.name,
      position: record.position ?? null, replacement: record.replacement ?? null, ...changeOf(run, record), margins,
    };
  };
  return {
    plan, prepared, lines, audited, compared, scorers, base: scorers[0]!,
    penalties: plan.lattice.map((l) => ({ name: l.name, lambda: l.lambda, column: table.index.get(`decl:${l.name}`)! })),
    estimates: { resamples: plan.bootstrap, seed: plan.seed, bootstrap: prepared.memo.bootstrap },
    termName, workedPair, frozen: [], repairRuns: prepared.runs,
  };
}

/** Each attack's counts, its estimates under every named reward, its margin histogram and detector effects. */
function attackReports(scoring: AuditScoring, lattice: LatticeReport): AttackReport[] {
  const { plan, prepared, scorers } = scoring;
  const { table, memo, originalValues } = prepared;
  const F = table.keys.length;
  const histogramScorers = [
    ...scorers.map((scorer, i) => ({ scorer, role: i === 0 ? ('audited' as const) : ('compared' as const), detectors: [] })),
    ...repairScorers(table, scoring.base, lattice),
  ];
  return prepared.runs.map((run) => ({
    name: run.plan.name,
    kind: run.plan.kind,
    targets: [...run.plan.targets],
    generators: run.plan.generators.map((g) => g.label),
    // A kept run's attack may stand elsewhere in the current text: the current plan places it.
    range: scoring.lines.range(scoring.plan.attacks.find((a) => a.name === run.plan.name)?.span ?? run.plan.span),
    counts: run.edits,
    eligibility: { targets: [...run.eligibility.targets], others: [...run.eligibility.others] },
    candidateNotes: prepared.candidateNotes.get(run.plan.name) ?? [],
    ...unrenderedOf(prepared, run),
    ...commandsOf(prepared, run.plan.name),
    results: scorers.flatMap((scorer) =>
      scoreAttack(run, scorer, scoring.estimates, memo).map((r) => {
        const frozen = frozenMarker(scoring.frozen, scorer.name, run.plan.name);
        return { reward: scorer.name, selection: r.selection, label: selectionLabel(r.selection, scorer, run), estimate: r.estimate, ...(frozen === undefined ? {} : { frozen }) };
      })),
    marginHistogram: attackMarginHistogram(run, histogramScorers, memo),
    detectorEffects: plan.lattice.map((l) => detectorEffect(run, originalValues, F, table.index.get(`decl:${l.name}`)!, l.name, l.lambda)),
  }));
}

/** The edits the rows' format could not write back, only when there are any (other reports keep their shape). */
function unrenderedOf(prepared: PreparedEdits, run: AttackRun): { unrendered?: AttackReport['unrendered'] } {
  const { edits, first } = run.unrendered;
  if (edits === 0 || first === undefined) return {};
  const row = prepared.rows[first.row]!;
  const pool = prepared.inputs.pools.find((p) => p.name === row.source.pool);
  const file = pool?.rowFiles?.get(row.source.file) ?? pool?.file;
  return { unrendered: { edits, first: { trajectory: row.id, pool: row.source.pool, ...(file === undefined ? {} : { file }), line: row.source.line, reason: first.reason } } };
}

/** The attack's commands, only when it ran any (reports without command generators keep their shape). */
function commandsOf(prepared: PreparedEdits, attack: string): { commands?: CommandRecord[] } {
  const commands = prepared.candidateCommands.get(attack) ?? [];
  return commands.length === 0 ? {} : { commands };
}

/** Cancellation, the certificate, the penalty sweep, the per-pool table, retention and offline utility. */
function sideStatistics(scoring: AuditScoring) {
  const { plan, prepared, scorers, base, estimates } = scoring;
  const { runs, table, originalValues, memo } = prepared;
  const { frozen, repairRuns } = scoring;
  // A cancellation is a difference of two rewards' figures: frozen under either, it is not one.
  const cancellation = findCancellations(scorers, { runs, originalValues, termName: scoring.termName, workedPair: scoring.workedPair, options: estimates, memo })
    .filter((f) => frozenMarker(frozen, f.larger, f.attack) === undefined && frozenMarker(frozen, f.smaller, f.attack) === undefined);
  const certificate = certify(repairRuns, originalValues, base, scoring.penalties, scoring.workedPair, memo);
  const sweep = penaltySweep(repairRuns, table, base, plan.lattice.map((l) => ({ key: `decl:${l.name}`, lambda: l.lambda })), plan.sweep, estimates, memo);
  const pooled = perPool(runs, scorers, (row) => prepared.poolOfRow[row]!, prepared.inputs.pools.map((p) => p.name), estimates, memo);
  const compatible = compatibleRows(prepared);
  const groups = prepared.sampleGroups;
  return {
    cancellation,
    certificate,
    sweep,
    perPool: pooled.perPool,
    aggregate: pooled.aggregate,
    retention: retention(compatible, originalValues, (row) => prepared.clusterOf[row]!, base, scorers.slice(1), scoring.termName, estimates),
    // The metrics are worked out only when some question has several samples to choose from.
    utility: groups.length === 0 ? [] : offlineUtility(groups, rowMetrics(prepared), originalValues, scorers),
  };
}

function poolSummary(memo: ScoringMemo, rows: readonly Trajectory[]): PoolSummary {
  let summary = memo.pools.get(rows);
  if (summary === undefined) memo.pools.set(rows, (summary = { questions: new Set(rows.map((r) => r.question_id)).size, profile: profilePool(rows) }));
  return summary;
}

/** The data the audit read: corpus, pools, clusters and how often each detector fires on the originals. */
function dataSummary(scoring: AuditScoring): Pick<AuditReport, 'corpus' | 'pools' | 'clusters' | 'detectors' | 'terms'> {
  const { plan, prepared } = scoring;
  const { inputs, rows, originalValues, detectorColumns } = prepared;
  const F = prepared.table.keys.length;
  return {
    corpus: {
      name: inputs.corpusName, file: inputs.corpus.file, passages: inputs.corpus.passages.size,
      skipped: inputs.corpusIssues.length, issues: reportedRows(inputs.corpusIssues),
    },
    pools: inputs.pools.map((p) => {
      const { questions, profile } = poolSummary(prepared.memo, p.rows);
      return { name: p.name, file: p.file, rows: p.rows.length, questions, ...readFileSection(p), profile: profileReport(profile) };
    }),
    clusters: prepared.clusters,
    detectors: prepared.detectorNames.map((name) => {
      const column = detectorColumns.get(name)!;
      let fires = 0;
      for (let r = 0; r < rows.length; r++) if (originalValues[r * F + column] !== 0) fires++;
      return { name, lambda: plan.lattice.find((l) => l.name === name)?.lambda ?? null, firesOnOriginals: fires };
    }),
    terms: termRanges(scoring),
  };
}

/** A pool's profile as the report writes it. */
function profileReport(profile: PoolProfile): PoolProfileReport {
  return { ...profile, meta: profile.meta.map((m) => ({ ...m })) };
}

/** Each term of the scored rewards, once (a base's terms under the reward that declares them): its range on the originals. */
function termRanges(scoring: AuditScoring): AuditReport['terms'] {
  const { prepared } = scoring;
  const { rows, originalValues, table } = prepared;
  const F = table.keys.length;
  const seen = new Set<string>();
  return [scoring.audited, ...scoring.compared].flatMap((reward) => reward.terms).flatMap((term) => {
    const id = `${term.declaredIn}\u0000${term.name}`;
    if (seen.has(id)) return [];
    seen.add(id);
    const column = table.index.get(term.key)!;
    let min = Infinity;
    let max = -Infinity;
    for (let r = 0; r < rows.length; r++) {
      const value = originalValues[r * F + column]!;
      if (value < min) min = value;
      if (value > max) max = value;
    }
    return [{ reward: term.declaredIn, term: term.name, min: rows.length === 0 ? null : min, max: rows.length === 0 ? null : max }];
  });
}

/** How one lattice detector enters an attack's margins: its penalty contributes −λ·d per edit. */
function detectorEffect(run: AttackRun, originalValues: Float64Array, F: number, column: number, detector: string, lambda: number) {
  const edits = run.index.editRow.length;
  let fires = 0;
  let sum = 0;
  let worst = -Infinity;
  const { editRow } = run.index;
  const changeByVector = featureByVector(run.changes, column);
  const { vectorOf } = run.changes;
  for (let e = 0; e < edits; e++) {
    const change = changeByVector[vectorOf[e]!]!;
    // A detector is 0 or 1, so the original's value plus the change is the edit's value exactly.
    const after = originalValues[editRow[e]! * F + column]! + change;
    const contribution = -lambda * change;
    if (after !== 0) fires++;
    sum += contribution;
    worst = Math.max(worst, contribution);
  }
  if (edits === 0) return { detector, lambda, firesOnEdits: null, meanContribution: null, worstContribution: null };
  return { detector, lambda, firesOnEdits: fires / edits, meanContribution: sum / edits, worstContribution: worst };
}

/** Prepares and scores one audit of a checked, error-free spec. Undefined when cancelled. */
export function runAudit(model: SpecModel, plan: AuditPlan, inputs: AnalysisInputs, candidates: CandidateSource, lines: LineIndex, options: RunOptions = {}): AuditReport | undefined {
  const prepared = prepareEdits(model, auditEditPlan(plan), inputs, candidates, options);
  return prepared === undefined ? undefined : scoreAudit(model, plan, prepared, lines, options);
}
