import type { AttackRun } from './attack-run.js';
import { estimateArrays, type EstimateOptions, type RateEstimate } from './estimands.js';
import type { Scorer } from './features.js';
import type { Selection } from './plan.js';

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

// Which features hold a non-finite value on an attack's edits or their originals: there a zero
// weight still matters (0 · ∞ is NaN), elsewhere skipping it leaves every sum as it was.
const nonFiniteCache = new WeakMap<AttackRun, Uint8Array>();

function nonFiniteColumns(run: AttackRun, originalValues: Float64Array, F: number): Uint8Array {
  let flags = nonFiniteCache.get(run);
  if (flags !== undefined) return flags;
  flags = new Uint8Array(F);
  for (let i = 0; i < run.editValues.length; i++) if (!Number.isFinite(run.editValues[i]!)) flags[i % F] = 1;
  for (const unit of run.units) for (let k = 0; k < F; k++) if (!Number.isFinite(originalValues[unit.row * F + k]!)) flags[k] = 1;
  nonFiniteCache.set(run, flags);
  return flags;
}

/** Each margins array's selected edits, per selection (see `selectedEdits`). */
const selectedCache = new WeakMap<Float64Array, Partial<Record<Selection, Int32Array>>>();

// The edits' feature values by column (one array per feature): a margin pass then reads each
// column it needs front to back instead of striding through every edit's row.
const columnCache = new WeakMap<AttackRun, Float64Array[]>();

function editColumns(run: AttackRun, F: number): Float64Array[] {
  let columns = columnCache.get(run);
  if (columns === undefined) {
    const edits = run.editRecords.length;
    columns = Array.from({ length: F }, () => new Float64Array(edits));
    for (let e = 0; e < edits; e++) for (let k = 0; k < F; k++) columns[k]![e] = run.editValues[e * F + k]!;
    columnCache.set(run, columns);
  }
  return columns;
}

/**
 * Every margin as `dot(weights, edit) − dot(weights, original)`, with the dot products over the
 * weights that can change them only: adding w·v = ±0 leaves a sum that starts at +0 unchanged,
 * so the doubles are the ones the full products give. Each edit's sum is built column by column,
 * in feature order, which is the order of the products in `dot`.
 */
function computeMargins(run: AttackRun, originalValues: Float64Array, weights: Float64Array): Float64Array {
  const F = weights.length;
  const nonFinite = nonFiniteColumns(run, originalValues, F);
  const columns: number[] = [];
  for (let k = 0; k < F; k++) if (weights[k] !== 0 || nonFinite[k] === 1) columns.push(k);
  const byColumn = editColumns(run, F);
  const margins = new Float64Array(run.editRecords.length);
  for (const k of columns) {
    const w = weights[k]!;
    const values = byColumn[k]!;
    for (let e = 0; e < margins.length; e++) margins[e] = margins[e]! + w * values[e]!;
  }
  const { unitRow, unitFirst, unitCount } = runIndex(run);
  for (let u = 0; u < unitRow.length; u++) {
    const at = unitRow[u]! * F;
    let original = 0;
    for (const k of columns) original += weights[k]! * originalValues[at + k]!;
    const end = unitFirst[u]! + unitCount[u]!;
    for (let e = unitFirst[u]!; e < end; e++) margins[e] = margins[e]! - original;
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
