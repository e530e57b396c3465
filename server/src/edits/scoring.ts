import { AuditError } from './audit-error.js';
import type { AttackRun } from './attack-run.js';
import { estimateArrays, snapTie, type EstimateOptions, type RateEstimate } from '../stats/estimands.js';
import type { Scorer } from './features.js';
import type { Selection } from './attack-plan.js';

// The attack table, the lattice, the sweep, the per-pool table, cancellation, the certificate and
// the histograms all ask for margins under the same few weight vectors (a sweep point at scale 0
// is the audited reward, a repair is a lattice subset), so margins are kept by the weights' values.
// A weight edit makes new vectors; the oldest are dropped beyond a few passes' worth.
const marginCache = new WeakMap<AttackRun, Map<string, Float64Array>>();
const marginsPerRun = 12;

/** An attack's units and edits as flat arrays, for loops over a million edits. */
export interface RunIndex {
  readonly unitRow: Int32Array;
  readonly unitFirst: Int32Array;
  readonly unitCount: Int32Array;
  /** The question cluster of each unit. */
  readonly unitCluster: Int32Array;
  /** The original row of each edit. */
  readonly editRow: Int32Array;
}

const runIndexCache = new WeakMap<AttackRun, RunIndex>();

export function runIndex(run: AttackRun): RunIndex {
  let index = runIndexCache.get(run);
  if (index === undefined) {
    index = {
      unitRow: Int32Array.from(run.units, (u) => u.row),
      unitFirst: Int32Array.from(run.units, (u) => u.firstEdit),
      unitCount: Int32Array.from(run.units, (u) => u.editCount),
      unitCluster: Int32Array.from(run.units, (u) => u.cluster),
      editRow: Int32Array.from(run.editRecords, (r) => r.row),
    };
    runIndexCache.set(run, index);
  }
  return index;
}

/** Paired margins M(τ) = R(A(τ)) − R(τ) of every isolated-eligible edit under one scorer. */
export function editMargins(run: AttackRun, originalValues: Float64Array, weights: Float64Array): Float64Array {
  let byWeights = marginCache.get(run);
  if (byWeights === undefined) marginCache.set(run, (byWeights = new Map()));
  // Every double spelled in full (String round-trips), so equal keys are equal weights.
  const key = Array.from(weights, String).join(',');
  const known = byWeights.get(key);
  if (known !== undefined) {
    byWeights.delete(key);
    byWeights.set(key, known);
    return known;
  }
  const margins = computeMargins(run, originalValues, weights);
  byWeights.set(key, margins);
  if (byWeights.size > marginsPerRun) byWeights.delete(byWeights.keys().next().value!);
  return margins;
}

/** Each margins array's selected edits, per selection (see `selectedEdits`). */
const selectedCache = new WeakMap<Float64Array, Partial<Record<Selection, Int32Array>>>();

// What each edit changes, feature by feature (one array per feature, d_k = f_k(A(τ)) − f_k(τ)): a
// margin pass reads each column it needs front to back instead of striding through every edit's row.
const changeCache = new WeakMap<AttackRun, Float64Array[]>();

export function changeColumns(run: AttackRun, originalValues: Float64Array, F: number): Float64Array[] {
  let columns = changeCache.get(run);
  if (columns === undefined) {
    const { editRow } = runIndex(run);
    const edits = editRow.length;
    columns = Array.from({ length: F }, () => new Float64Array(edits));
    for (let e = 0; e < edits; e++) {
      const at = editRow[e]! * F;
      for (let k = 0; k < F; k++) columns[k]![e] = run.editValues[e * F + k]! - originalValues[at + k]!;
    }
    changeCache.set(run, columns);
  }
  return columns;
}

/** A margin that is not a finite number: finite weights times finite terms overflowed a double. */
function nonFiniteMargin(run: AttackRun, edit: number, margin: number): AuditError {
  return new AuditError(`attack '${run.plan.name}': a paired margin is ${margin}: the reward's weighted terms overflow a double`, run.editRecords[edit]!.row);
}

/**
 * Every margin as Σ_k w_k·d_k over the features with a nonzero weight (the ones an edit leaves
 * unchanged add exactly zero), column by column in feature order as `pairedMargin` sums them, with
 * ties made exact against Σ_k |w_k·d_k|.
 */
function computeMargins(run: AttackRun, originalValues: Float64Array, weights: Float64Array): Float64Array {
  const F = weights.length;
  const byColumn = changeColumns(run, originalValues, F);
  const edits = run.editRecords.length;
  const margins = new Float64Array(edits);
  const scales = new Float64Array(edits);
  for (let k = 0; k < F; k++) {
    const w = weights[k]!;
    if (w === 0) continue;
    const changes = byColumn[k]!;
    for (let e = 0; e < edits; e++) {
      const change = w * changes[e]!;
      margins[e] = margins[e]! + change;
      scales[e] = scales[e]! + Math.abs(change);
    }
  }
  for (let e = 0; e < edits; e++) {
    const m = snapTie(margins[e]!, scales[e]!);
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
export function selectedEdits(run: AttackRun, margins: Float64Array, selection: Selection): Int32Array {
  let bySelection = selectedCache.get(margins);
  if (bySelection === undefined) selectedCache.set(margins, (bySelection = {}));
  const known = bySelection[selection];
  if (known !== undefined) return known;
  const { unitFirst, unitCount } = runIndex(run);
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
export function selectedMargins(run: AttackRun, margins: Float64Array, selection: Selection): Float64Array {
  const edits = selectedEdits(run, margins, selection);
  const selected = new Float64Array(edits.length);
  for (let u = 0; u < edits.length; u++) selected[u] = margins[edits[u]!]!;
  return selected;
}

/** The estimate of one selection under one set of margins. */
export function estimateSelection(run: AttackRun, margins: Float64Array, selection: Selection, options: EstimateOptions): RateEstimate {
  return estimateArrays(runIndex(run).unitCluster, selectedMargins(run, margins, selection), options);
}

export interface ScoredSelection {
  readonly selection: Selection;
  readonly estimate: RateEstimate;
}

export function scoreAttack(run: AttackRun, originalValues: Float64Array, scorer: Scorer, options: EstimateOptions): ScoredSelection[] {
  const margins = editMargins(run, originalValues, scorer.weights);
  return (['first_visible', 'oracle_worst'] as const).map((selection) => ({ selection, estimate: estimateSelection(run, margins, selection, options) }));
}

/** A figure's label follows from taint: only oracle-worst selection under an oracle reward reads gold. */
export function selectionLabel(selection: Selection, scorer: Scorer): 'label-free' | 'oracle upper bound' {
  return selection === 'oracle_worst' && scorer.visibility === 'oracle' ? 'oracle upper bound' : 'label-free';
}
