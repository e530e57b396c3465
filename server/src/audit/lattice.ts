import type { LatticeReport } from '../report/schema.js';
import type { AttackRun } from './attack-run.js';
import type { EstimateOptions } from './estimands.js';
import type { Scorer } from './features.js';
import { selections } from './plan.js';
import { editMargins, estimateSelection, selectionLabel } from './scoring.js';

export interface LatticePenalty {
  readonly name: string;
  readonly lambda: number;
  readonly column: number;
}

export function subsetNames(mask: number, penalties: readonly LatticePenalty[]): string[] {
  return penalties.filter((_, j) => (mask & (1 << j)) !== 0).map((p) => p.name);
}

/**
 * Margins under R_S for every subset S, from one pass of base margins: M_S = M_0 − Σ_{j∈S} λ_j d_j,
 * with d_j = f_j(A(τ)) − f_j(τ). Yields each subset's margins in mask order.
 */
export function* subsetMargins(run: AttackRun, originalValues: Float64Array, base: Scorer, penalties: readonly LatticePenalty[]): Generator<[number, Float64Array]> {
  const F = base.weights.length;
  const m0 = editMargins(run, originalValues, base.weights);
  const edits = run.editRecords.length;
  const deltas = penalties.map((p) => {
    const d = new Float64Array(edits);
    for (let e = 0; e < edits; e++) d[e] = run.editValues[e * F + p.column]! - originalValues[run.editRecords[e]!.row * F + p.column]!;
    return d;
  });
  for (let mask = 0; mask < 1 << penalties.length; mask++) {
    const margins = Float64Array.from(m0);
    penalties.forEach((p, j) => {
      if ((mask & (1 << j)) === 0) return;
      const d = deltas[j]!;
      for (let e = 0; e < edits; e++) margins[e]! -= p.lambda * d[e]!;
    });
    yield [mask, margins];
  }
}

/** Sufficient subsets (indexed by bit mask) none of whose proper subsets is sufficient. */
export function minimalSubsets(sufficient: readonly boolean[]): boolean[] {
  return sufficient.map((ok, mask) => {
    if (!ok) return false;
    if (mask === 0) return true;
    for (let sub = (mask - 1) & mask; ; sub = (sub - 1) & mask) {
      if (sufficient[sub]) return false;
      if (sub === 0) return true;
    }
  });
}

/**
 * All 2^k subsets of the audit's detectors. Sufficiency and inclusion-minimality are decided by
 * looking at every proper subset, never by assuming that more penalties are safer.
 */
export function evaluateLattice(runs: readonly AttackRun[], originalValues: Float64Array, base: Scorer, penalties: readonly LatticePenalty[], options: EstimateOptions): LatticeReport {
  const size = 1 << penalties.length;
  const results: LatticeReport['subsets'][number]['results'][] = Array.from({ length: size }, () => []);
  for (const run of runs) {
    for (const [mask, margins] of subsetMargins(run, originalValues, base, penalties)) {
      for (const selection of selections) {
        const e = estimateSelection(run, margins, selection, options);
        results[mask]!.push({
          attack: run.plan.name, selection, label: selectionLabel(selection, base), asr: e.asr, upper: e.interval.high, meanMargin: e.meanMargin, clusters: e.clusters,
        });
      }
    }
  }
  const sufficient = results.map((r) => r.filter((x) => x.selection === 'oracle_worst').every((x) => x.asr === 0));
  const minimal = minimalSubsets(sufficient);
  const subsets = results.map((r, mask) => ({ detectors: subsetNames(mask, penalties), results: r, sufficient: sufficient[mask]!, minimal: minimal[mask]! }));
  return {
    detectors: penalties.map((p) => ({ name: p.name, lambda: p.lambda })),
    subsets,
    minimal: subsets.filter((s) => s.minimal).map((s) => s.detectors),
  };
}
