import { AuditError } from './audit-error.js';
import type { AttackRun } from './attack-run.js';
import { estimateArrays, type EstimateOptions, type RateEstimate } from '../stats/estimands.js';
import { vectorMargin, type Scorer } from './features.js';
import type { Selection } from './attack-plan.js';
import { marginsKey, type ScoringMemo } from './scoring-memo.js';
import { vectorCount } from './edit-changes.js';

/** Paired margins M(τ) = R(A(τ)) − R(τ) of every isolated-eligible edit under one scorer, remembered in `memo`. */
export function editMargins(run: AttackRun, weights: Float64Array, memo: ScoringMemo): Float64Array {
  const key = marginsKey(memo, run, weights);
  let margins = memo.margins.get(key);
  if (margins === undefined) memo.margins.set(key, (margins = computeMargins(run, weights)));
  return margins;
}

/** A margin that is not a finite number: finite weights times finite terms overflowed a double. */
function nonFiniteMargin(run: AttackRun, edit: number, margin: number): AuditError {
  return new AuditError(`attack '${run.plan.name}': a paired margin is ${margin}: the reward's weighted terms overflow a double`, run.index.editRow[edit]);
}

/**
 * Every margin, as `editMargin` computes it: Σ_k w_k·d_k over the features with a nonzero weight, in
 * feature order, with ties made exact against Σ_k |w_k·d_k|. A margin depends on the edit's change
 * vector alone (edits/edit-changes.ts), so each distinct vector is summed once and every edit gets
 * its vector's double.
 */
function computeMargins(run: AttackRun, weights: Float64Array): Float64Array {
  const { vectorOf } = run.changes;
  const byVector = Float64Array.from({ length: vectorCount(run.changes) }, (_, v) => vectorMargin(weights, run.changes, v));
  const margins = new Float64Array(vectorOf.length);
  for (let e = 0; e < margins.length; e++) {
    const m = byVector[vectorOf[e]!]!;
    if (!Number.isFinite(m)) throw nonFiniteMargin(run, e, m);
    margins[e] = m;
  }
  return margins;
}

/**
 * The edit each unit selects, in unit order. First-visible takes the first edit in generation
 * order (label-free); oracle-worst takes the edit that the scored reward likes best (an oracle
 * upper bound when that reward reads gold), the first of equals.
 */
export function selectedEdits(run: AttackRun, margins: Float64Array, selection: Selection, memo: ScoringMemo): Int32Array {
  let bySelection = memo.selections.get(margins);
  if (bySelection === undefined) memo.selections.set(margins, (bySelection = {}));
  const known = bySelection[selection];
  if (known !== undefined) return known;
  const { unitFirst, unitCount } = run.index;
  const selected = new Int32Array(unitFirst);
  if (selection === 'oracle_worst') {
    for (let u = 0; u < selected.length; u++) {
      let edit = unitFirst[u]!;
      let best = margins[edit]!;
      const end = edit + unitCount[u]!;
      for (let e = edit + 1; e < end; e++) {
        if (margins[e]! > best) {
          best = margins[e]!;
          edit = e;
        }
      }
      selected[u] = edit;
    }
  }
  bySelection[selection] = selected;
  return selected;
}

/** The selected edit's margin for each unit: what every estimate needs, without an object per unit. */
export function selectedMargins(run: AttackRun, margins: Float64Array, selection: Selection, memo: ScoringMemo): Float64Array {
  const edits = selectedEdits(run, margins, selection, memo);
  const selected = new Float64Array(edits.length);
  for (let u = 0; u < edits.length; u++) selected[u] = margins[edits[u]!]!;
  return selected;
}

/** The estimate of one selection under one set of margins. */
export function estimateSelection(run: AttackRun, margins: Float64Array, selection: Selection, options: EstimateOptions, memo: ScoringMemo): RateEstimate {
  return estimateArrays(run.index.unitCluster, selectedMargins(run, margins, selection, memo), options);
}

export interface ScoredSelection {
  readonly selection: Selection;
  readonly estimate: RateEstimate;
}

export function scoreAttack(run: AttackRun, scorer: Scorer, options: EstimateOptions, memo: ScoringMemo): ScoredSelection[] {
  const margins = editMargins(run, scorer.weights, memo);
  return (['first_visible', 'oracle_worst'] as const).map((selection) => ({ selection, estimate: estimateSelection(run, margins, selection, options, memo) }));
}

/**
 * A figure's label follows from taint: an attack whose edit reads gold makes every figure of it an
 * oracle upper bound; otherwise only oracle-worst selection under an oracle reward reads gold.
 */
export function selectionLabel(selection: Selection, scorer: Scorer, run: { readonly oracle: boolean }): 'label-free' | 'oracle upper bound' {
  if (run.oracle) return 'oracle upper bound';
  return selection === 'oracle_worst' && scorer.visibility === 'oracle' ? 'oracle upper bound' : 'label-free';
}
