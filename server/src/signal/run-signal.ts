import { dot, rewardScorer } from '../edits/features.js';
import type { AnalysisInputs } from '../inputs/analysis-inputs.js';
import { readFileSection } from '../inputs/pool-section.js';
import { noCandidates, prepareEdits } from '../edits/prepare.js';
import type { EditPlan } from '../edits/attack-plan.js';
import type { CommandTerms } from '../language/command-terms.js';
import type { SignalReport } from '../report/training-schema.js';
import { RewardCompiler } from '../reward/compile.js';
import type { SpecModel } from '../semantics/check.js';
import type { LineIndex } from '../problems/line-index.js';
import type { TrainingPlan } from './plan.js';
import { analyseTrainingSignal, type SignalDetector, type SignalRow } from './training-signal.js';


/** The detector terms of a reward, with λ = −(their summed weight): what the training-signal audit follows. */
export function detectorTerms(model: SpecModel, rewardName: string): SignalDetector[] {
  const reward = new RewardCompiler(model).reward(rewardName);
  const lambdas = new Map<string, number>();
  for (const term of reward.terms) {
    if (!term.key.startsWith('decl:')) continue;
    const name = term.key.slice('decl:'.length);
    if (model.globals.get(name)?.kind !== 'detector') continue;
    lambdas.set(name, (lambdas.get(name) ?? 0) - term.weight);
  }
  return [...lambdas].map(([name, lambda]) => ({ name, lambda }));
}

function stepOf(meta: Readonly<Record<string, unknown>>): number | undefined {
  const step = meta['step'];
  return typeof step === 'number' && Number.isFinite(step) ? step : undefined;
}

/**
 * Scores every logged training row with the training reward and its detectors, through the audit
 * engine's feature evaluation (an audit with no attacks), then analyses the update groups.
 */
/** The edit engine's plan of a training block: no attacks, every row's reward terms (its detector terms among them) evaluated once. */
export function signalEditPlan(plan: Pick<TrainingPlan, 'reward'>): EditPlan {
  return { rewards: [plan.reward], detectors: [], attacks: [] };
}

export function runSignal(model: SpecModel, plan: TrainingPlan, inputs: AnalysisInputs, lines: LineIndex | undefined, commandTerms?: CommandTerms): SignalReport {
  const detectors = detectorTerms(model, plan.reward);
  const prepared = prepareEdits(model, signalEditPlan(plan), inputs, noCandidates, { commandTerms })!;
  const compiler = new RewardCompiler(model);
  const reward = compiler.reward(plan.reward);
  // prepareEdits built the table from the same reward, so every term has its column.
  const table = prepared.table;
  const scorer = rewardScorer(table, reward);
  const F = table.keys.length;
  const columns = detectors.map((d) => table.index.get(`decl:${d.name}`)!);
  const rows: SignalRow[] = prepared.rows.map((row, r) => ({
    group: row.meta.group,
    step: stepOf(row.meta),
    reward: dot(scorer.weights, prepared.originalValues, r * F),
    fires: columns.map((c) => prepared.originalValues[r * F + c]!),
  }));
  const analysis = analyseTrainingSignal(rows, detectors, plan.normalization);
  return {
    name: plan.name,
    range: plan.span === undefined || lines === undefined ? null : lines.range(plan.span),
    reward: { name: reward.name, visibility: reward.visibility },
    normalization: plan.normalization,
    minGroups: plan.minGroups,
    logs: inputs.pools.map((p) => ({
      name: p.name, file: p.file, rows: p.rows.length, ...readFileSection(p),
    })),
    rows: analysis.rows,
    groups: analysis.groups,
    ungroupedRows: analysis.ungroupedRows,
    flatGroups: analysis.flatGroups,
    detectors: analysis.detectors.map((d) => ({ ...d, reachesOptimizer: d.changedGroups >= plan.minGroups })),
    steps: analysis.steps.map((s) => ({ ...s, detectors: s.detectors.map((d) => ({ ...d })) })),
  };
}
