import { AuditError } from '../edits/audit-error.js';
import type { AttackRun } from '../edits/attack-run.js';
import { estimateArrays, type EstimateOptions, type RateEstimate } from '../stats/estimands.js';
import { vectorMargin, type Scorer } from '../edits/features.js';
import type { Selection } from '../edits/attack-plan.js';
import { EditMargins, marginsKey, type ScoringMemo, type Selected, type UnitVectors } from '../edits/scoring-memo.js';
import { vectorCount } from '../edits/edit-changes.js';

/** The margins of every edit of `run` under `weights`, remembered in `memo`. */
export function editMargins(run: AttackRun, weights: Float64Array, memo: ScoringMemo): EditMargins {
  const key = marginsKey(memo, run, weights);
  let margins = memo.margins.get(key);
  if (margins === undefined) {
    margins = computeMargins(run, weights);
    // What it keeps alive: its margins and, in `memo.selections`, an edit (4 bytes) and its margin
    // (8) per unit for each of the two selections.
    memo.margins.set(key, margins, { size: Math.max(1, margins.byVector.byteLength + 6 * run.index.unitFirst.byteLength) });
  }
  return margins;
}

/** A margin that is not a finite number: finite weights times finite terms overflowed a double. */
function nonFiniteMargin(run: AttackRun, edit: number, margin: number): AuditError {
  return new AuditError(`attack '${run.plan.name}': a paired margin is ${margin}: the reward's weighted terms overflow a double`, run.index.editRow[edit]);
}

/**
 * Every margin, as `editMargin` computes it: Σ_k w_k·d_k over the features with a nonzero weight, in
 * feature order, with ties made exact against Σ_k |w_k·d_k|. A margin depends on the edit's change
 * vector alone, so each distinct vector is summed once. A margin that is not finite stops the audit
 * at the first edit that has it.
 */
function computeMargins(run: AttackRun, weights: Float64Array): EditMargins {
  const { vectorOf } = run.changes;
  const byVector = Float64Array.from({ length: vectorCount(run.changes) }, (_, v) => vectorMargin(weights, run.changes, v));
  if (!byVector.every(Number.isFinite)) {
    const e = vectorOf.findIndex((v) => !Number.isFinite(byVector[v]!));
    throw nonFiniteMargin(run, e, byVector[vectorOf[e]!]!);
  }
  return new EditMargins(byVector, vectorOf);
}

function unitVectors(run: AttackRun, memo: ScoringMemo): UnitVectors {
  const known = memo.unitVectors.get(run);
  if (known !== undefined) return known;
  const { unitFirst, unitCount } = run.index;
  const { vectorOf } = run.changes;
  const unitStart = new Int32Array(unitFirst.length + 1);
  const vector: number[] = [];
  const firstEdit: number[] = [];
  // The last unit that met each vector: a vector is new to a unit when another unit met it last.
  const lastUnit = new Int32Array(vectorCount(run.changes)).fill(-1);
  for (let u = 0; u < unitFirst.length; u++) {
    unitStart[u] = vector.length;
    const end = unitFirst[u]! + unitCount[u]!;
    for (let e = unitFirst[u]!; e < end; e++) {
      const v = vectorOf[e]!;
      if (lastUnit[v] === u) continue;
      lastUnit[v] = u;
      vector.push(v);
      firstEdit.push(e);
    }
  }
  unitStart[unitFirst.length] = vector.length;
  const made = { unitStart, vector: Int32Array.from(vector), firstEdit: Int32Array.from(firstEdit) };
  memo.unitVectors.set(run, made);
  return made;
}

/**
 * The edit each unit selects, in unit order, with its margin, remembered with the margins.
 * First-visible takes the first edit in generation order (label-free); oracle-worst takes the edit
 * that the scored reward likes best (an oracle upper bound when that reward reads gold), the first
 * of equals.
 */
export function selected(run: AttackRun, margins: EditMargins, selection: Selection, memo: ScoringMemo): Selected {
  let bySelection = memo.selections.get(margins);
  if (bySelection === undefined) memo.selections.set(margins, (bySelection = {}));
  const known = bySelection[selection];
  if (known !== undefined) return known;
  const { byVector } = margins;
  const edits = new Int32Array(run.index.unitFirst);
  const values = new Float64Array(edits.length);
  if (selection === 'first_visible') {
    for (let u = 0; u < edits.length; u++) values[u] = margins.at(edits[u]!);
  } else {
    // The first edit with the largest margin: among the unit's vectors in order of their first edit,
    // the first whose margin no later one beats.
    const { unitStart, vector, firstEdit } = unitVectors(run, memo);
    for (let u = 0; u < edits.length; u++) {
      let at = unitStart[u]!;
      let best = byVector[vector[at]!]!;
      let edit = firstEdit[at]!;
      for (at++; at < unitStart[u + 1]!; at++) {
        const margin = byVector[vector[at]!]!;
        if (margin > best) {
          best = margin;
          edit = firstEdit[at]!;
        }
      }
      edits[u] = edit;
      values[u] = best;
    }
  }
  return (bySelection[selection] = { edits, margins: values, estimates: new Map() });
}

/** The edit each unit selects (`selected`). */
export function selectedEdits(run: AttackRun, margins: EditMargins, selection: Selection, memo: ScoringMemo): Int32Array {
  return selected(run, margins, selection, memo).edits;
}

/** The selected edit's margin for each unit (`selected`): what every estimate needs, without an object per unit. Not to be changed. */
export function selectedMargins(run: AttackRun, margins: EditMargins, selection: Selection, memo: ScoringMemo): Float64Array {
  return selected(run, margins, selection, memo).margins;
}

/** The estimate of one selection under one set of margins, remembered with the selection. */
export function estimateSelection(run: AttackRun, margins: EditMargins, selection: Selection, options: EstimateOptions, memo: ScoringMemo): RateEstimate {
  const picked = selected(run, margins, selection, memo);
  const key = `${options.resamples}:${options.seed}`;
  let estimate = picked.estimates.get(key);
  if (estimate === undefined) picked.estimates.set(key, (estimate = estimateArrays(run.index.unitCluster, picked.margins, options)));
  return estimate;
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
