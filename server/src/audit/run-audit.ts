import type { LineIndex } from '../problems/line-index.js';
import type { AttackRun } from '../edits/attack-run.js';
import { pairedMargin, rewardScorer, type Scorer } from '../edits/features.js';
import { compilePlan, prepareEdits, withRows, type CandidateSource, type PreparedEdits, type RunOptions } from '../edits/prepare.js';
import { scoreAttack, selectionLabel } from '../edits/scoring.js';
import type { AnalysisInputs } from '../inputs/analysis-inputs.js';
import type { AttackReport, AuditReport, WorkedPair } from '../report/schema.js';
import type { SpecModel } from '../semantics/check.js';
import { tieTolerance, type EstimateOptions } from '../stats/estimands.js';
import { findCancellations } from './cancellation.js';
import { certify } from './certificate.js';
import { evaluateExpectation } from './expectations.js';
import { detectorChange, evaluateLattice, type LatticePenalty } from './lattice.js';
import { attackMarginHistogram, repairScorers } from './margin-histogram.js';
import { auditEditPlan, type AuditPlan } from './plan.js';
import { retention, retentionContract } from './retention.js';
import { penaltySweep, perPool } from './sensitivity.js';
import { offlineUtility, type SampleGroup } from './utility.js';

const maxReportedIssues = 100;

/**
 * Scores a prepared audit with the spec's current weights: margins, estimates, lattice and the
 * side statistics. Arithmetic only. The spec must have the features the audit was prepared with.
 */
export function scoreAudit(model: SpecModel, plan: AuditPlan, prepared: PreparedEdits, lines: LineIndex, options: RunOptions = {}): AuditReport | undefined {
  return withRows(prepared.rows, () => scorePrepared(model, plan, prepared, lines, options));
}

function scorePrepared(model: SpecModel, plan: AuditPlan, prepared: PreparedEdits, lines: LineIndex, options: RunOptions): AuditReport | undefined {
  const isCancelled = options.isCancelled ?? (() => false);
  const progress = options.onProgress ?? (() => undefined);
  const estimateOptions: EstimateOptions = { resamples: plan.bootstrap, seed: plan.seed };
  const { rewards, table: current } = compilePlan(model, auditEditPlan(plan));
  const [audited, ...compared] = rewards;
  if (audited === undefined) throw new Error('an audit plan always names its reward');
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
const groupCache = new WeakMap<PreparedEdits, readonly SampleGroup[]>();

/** Rows of one pool that share a question: the samples a best-of-n selector picks from. */
function sampleGroups(prepared: PreparedEdits): readonly SampleGroup[] {
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
export function runAudit(model: SpecModel, plan: AuditPlan, inputs: AnalysisInputs, candidates: CandidateSource, lines: LineIndex, options: RunOptions = {}): AuditReport | undefined {
  const prepared = prepareEdits(model, auditEditPlan(plan), inputs, candidates, options);
  return prepared === undefined ? undefined : scoreAudit(model, plan, prepared, lines, options);
}
