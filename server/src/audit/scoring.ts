import type { AttackRun, AttackUnit } from './attack-run.js';
import { estimate, estimateArrays, type EstimateOptions, type PairedOutcome, type RateEstimate } from './estimands.js';
import { dot, type Scorer } from './features.js';
import type { Selection } from './plan.js';

// The attack table, the per-pool table, cancellation and the certificate all ask for the same
// scorers' margins; a scorer's weight vector is created once per scoring pass, so it keys the reuse.
const marginCache = new WeakMap<AttackRun, WeakMap<Float64Array, Float64Array>>();

/** Paired margins M(τ) = R(A(τ)) − R(τ) of every isolated-eligible edit under one scorer. */
export function editMargins(run: AttackRun, originalValues: Float64Array, weights: Float64Array): Float64Array {
  let byWeights = marginCache.get(run);
  if (byWeights === undefined) marginCache.set(run, (byWeights = new WeakMap()));
  const known = byWeights.get(weights);
  if (known !== undefined) return known;
  const margins = computeMargins(run, originalValues, weights);
  byWeights.set(weights, margins);
  return margins;
}

function computeMargins(run: AttackRun, originalValues: Float64Array, weights: Float64Array): Float64Array {
  const F = weights.length;
  const margins = new Float64Array(run.editRecords.length);
  for (const unit of run.units) {
    const original = dot(weights, originalValues, unit.row * F);
    for (let e = unit.firstEdit; e < unit.firstEdit + unit.editCount; e++) margins[e] = dot(weights, run.editValues, e * F) - original;
  }
  return margins;
}

export interface SelectedEdit {
  readonly unit: AttackUnit;
  readonly edit: number;
  readonly margin: number;
}

/**
 * First-visible takes the first edit in generation order (label-free); oracle-worst takes the edit
 * that the scored reward likes best (an oracle upper bound when that reward reads gold).
 */
export function selectEdits(run: AttackRun, margins: Float64Array, selection: Selection): SelectedEdit[] {
  return run.units.map((unit) => {
    let edit = unit.firstEdit;
    if (selection === 'oracle_worst') {
      for (let e = unit.firstEdit + 1; e < unit.firstEdit + unit.editCount; e++) if (margins[e]! > margins[edit]!) edit = e;
    }
    return { unit, edit, margin: margins[edit]! };
  });
}

const unitClusterCache = new WeakMap<AttackRun, Int32Array>();

/** The cluster of each unit (trajectory with isolated-eligible edits) of an attack, in unit order. */
export function unitClusters(run: AttackRun): Int32Array {
  let clusters = unitClusterCache.get(run);
  if (clusters === undefined) unitClusterCache.set(run, (clusters = Int32Array.from(run.units, (u) => u.cluster)));
  return clusters;
}

/** The selected edit's margin for each unit: what every estimate needs, without an object per unit. */
export function selectedMargins(run: AttackRun, margins: Float64Array, selection: Selection): Float64Array {
  const selected = new Float64Array(run.units.length);
  run.units.forEach((unit, u) => {
    let best = margins[unit.firstEdit]!;
    if (selection === 'oracle_worst') for (let e = unit.firstEdit + 1; e < unit.firstEdit + unit.editCount; e++) if (margins[e]! > best) best = margins[e]!;
    selected[u] = best;
  });
  return selected;
}

/** The estimate of one selection under one set of margins. */
export function estimateSelection(run: AttackRun, margins: Float64Array, selection: Selection, options: EstimateOptions): RateEstimate {
  return estimateArrays(unitClusters(run), selectedMargins(run, margins, selection), options);
}

export function outcomesOf(selected: readonly SelectedEdit[]): PairedOutcome[] {
  return selected.map((s) => ({ cluster: s.unit.cluster, margin: s.margin }));
}

export interface ScoredSelection {
  readonly selection: Selection;
  readonly selected: readonly SelectedEdit[];
  readonly estimate: RateEstimate;
}

export function scoreAttack(run: AttackRun, originalValues: Float64Array, scorer: Scorer, options: EstimateOptions): ScoredSelection[] {
  const margins = editMargins(run, originalValues, scorer.weights);
  return (['first_visible', 'oracle_worst'] as const).map((selection) => {
    const selected = selectEdits(run, margins, selection);
    return { selection, selected, estimate: estimate(outcomesOf(selected), options) };
  });
}

/** A figure's label follows from taint: only oracle-worst selection under an oracle reward reads gold. */
export function selectionLabel(selection: Selection, scorer: Scorer): 'label-free' | 'oracle upper bound' {
  return selection === 'oracle_worst' && scorer.visibility === 'oracle' ? 'oracle upper bound' : 'label-free';
}
