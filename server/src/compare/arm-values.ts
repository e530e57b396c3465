import { isSuccess } from '../stats/estimands.js';
import { editMargin, rewardScorer } from '../edits/features.js';
import type { AnalysisInputs } from '../inputs/analysis-inputs.js';
import { prepareEdits } from '../edits/prepare.js';
import { editMargins, selectedMargins } from '../scoring/scoring.js';
import type { CandidateSource } from '../edits/prepare.js';
import type { CommandTerms } from '../language/command-terms.js';
import type { Trajectory } from '../pool/types.js';
import { RewardCompiler } from '../reward/compile.js';
import { exactMatch, precision, recall, tokenF1 } from '../language/functions.js';
import type { SpecModel } from '../semantics/check.js';
import type { Visibility } from '../language/types.js';
import { comparisonEditPlan, type ComparisonPlan } from './plan.js';

/** One compared quantity: a value per trajectory, and which direction is better. */
export interface MetricSpec {
  readonly key: string;
  readonly label: string;
  readonly better: 'higher' | 'lower';
  /** A 0/1 event per trajectory. */
  readonly rate: boolean;
  readonly visibility: Visibility;
}

/** One arm's trajectories and, per metric, one value per trajectory (in row order). */
export interface ArmValues {
  readonly rows: readonly Trajectory[];
  readonly values: ReadonlyMap<string, Float64Array>;
}

// EM, F1, citation precision and support recall read gold: they are oracle figures by nature.
const outcomeMetrics: readonly (MetricSpec & { readonly of: (row: Trajectory) => number })[] = [
  { key: 'em', label: 'EM', better: 'higher', rate: false, visibility: 'oracle', of: (row) => exactMatch(row.final?.answer ?? '', row.gold.answers) },
  { key: 'f1', label: 'F1', better: 'higher', rate: false, visibility: 'oracle', of: (row) => tokenF1(row.final?.answer ?? '', row.gold.answers) },
  { key: 'citation_precision', label: 'citation precision', better: 'higher', rate: false, visibility: 'oracle', of: (row) => precision(row.final?.citations ?? [], row.gold.support_ids) },
  { key: 'support_recall', label: 'support recall', better: 'higher', rate: false, visibility: 'oracle', of: (row) => recall(row.final?.citations ?? [], row.gold.support_ids) },
  {
    key: 'unsupported_citation', label: 'unsupported citation', better: 'lower', rate: true, visibility: 'oracle',
    of: (row) => ((row.final?.citations ?? []).some((c) => !row.gold.support_ids.includes(c)) ? 1 : 0),
  },
];

/** Every metric a comparison reports, in table order. */
export function comparisonMetrics(model: SpecModel, plan: ComparisonPlan): MetricSpec[] {
  const scorer = new RewardCompiler(model).reward(plan.reward);
  return [
    ...outcomeMetrics.map(({ of: _of, ...metric }) => metric),
    ...plan.detectors.map((d): MetricSpec => ({ key: `incidence:${d}`, label: `natural ${d} incidence`, better: 'lower', rate: true, visibility: 'visible' })),
    ...plan.attacks.map((a): MetricSpec => ({
      key: `attackability:${a.name}`, label: `${a.name} attackability (first-visible, ${scorer.name})`, better: 'lower', rate: true, visibility: scorer.visibility,
    })),
    // The worst edit by the scorer's own margin: an oracle upper bound when the scorer reads gold.
    ...plan.attacks.map((a): MetricSpec => ({
      key: `attackability_oracle_worst:${a.name}`,
      label: `${a.name} oracle-worst attackability (${scorer.name}${scorer.visibility === 'oracle' ? '; oracle upper bound' : ''})`,
      better: 'lower', rate: true, visibility: scorer.visibility,
    })),
  ];
}

/**
 * Evaluates one arm: outcome metrics from gold, detector incidence and the targeted attacks through
 * the audit engine. An arm's trajectory is attackable when its first-visible isolated-eligible edit
 * does not lower the fixed scorer (margin ≥ 0, a tie counts); one with no such edit is not. The
 * oracle-worst figure takes instead the edit the scorer likes best (the audit's own selection).
 */
export function evaluateArm(model: SpecModel, plan: ComparisonPlan, inputs: AnalysisInputs, candidates: CandidateSource, commandTerms?: CommandTerms): ArmValues | undefined {
  const prepared = prepareEdits(model, comparisonEditPlan(plan), inputs, candidates, { commandTerms });
  if (prepared === undefined) return undefined;
  const { rows, originalValues, table } = prepared;
  const F = table.keys.length;
  const values = new Map<string, Float64Array>();
  for (const metric of outcomeMetrics) values.set(metric.key, Float64Array.from(rows, metric.of));
  for (const detector of plan.detectors) {
    const column = prepared.detectorColumns.get(detector)!;
    values.set(`incidence:${detector}`, Float64Array.from(rows, (_, r) => (originalValues[r * F + column] !== 0 ? 1 : 0)));
  }
  const scorer = rewardScorer(table, new RewardCompiler(model).reward(plan.reward));
  for (const run of prepared.runs) {
    const attackable = new Float64Array(rows.length);
    const { unitRow, unitFirst } = run.index;
    for (let u = 0; u < unitRow.length; u++) {
      const margin = editMargin(scorer.weights, run.changes, unitFirst[u]!);
      if (isSuccess(margin)) attackable[unitRow[u]!] = 1;
    }
    values.set(`attackability:${run.plan.name}`, attackable);
    const worst = new Float64Array(rows.length);
    const worstMargins = selectedMargins(run, editMargins(run, scorer.weights, prepared.memo), 'oracle_worst', prepared.memo);
    unitRow.forEach((row, u) => {
      if (isSuccess(worstMargins[u]!)) worst[row] = 1;
    });
    values.set(`attackability_oracle_worst:${run.plan.name}`, worst);
  }
  return { rows, values };
}
