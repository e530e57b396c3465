import type { LatticeReport } from '../report/schema.js';
import type { AttackRun } from '../edits/attack-run.js';
import { changesFeature } from '../edits/edit-changes.js';
import type { EstimateOptions } from '../stats/estimands.js';
import type { Scorer } from '../edits/features.js';
import { selections } from '../edits/attack-plan.js';
import { editMargins, estimateSelection, selectionLabel } from '../scoring/scoring.js';
import type { EditMargins, ScoringMemo } from '../edits/scoring-memo.js';
import { AuditError } from '../edits/audit-error.js';
import { maxLatticeDetectors } from '../problems/limits.js';

// Subsets are bit masks over the detectors in lattice order. The checker keeps a lattice to
// `maxLatticeDetectors` (12) detectors, far below the 31 at which `1 << j` would leave the 32-bit
// integers that bit operators work in, and `evaluateLattice` refuses anything larger.

export interface LatticePenalty {
  readonly name: string;
  readonly lambda: number;
  readonly column: number;
}

export function subsetNames(mask: number, penalties: readonly LatticePenalty[]): string[] {
  return penalties.filter((_, j) => (mask & (1 << j)) !== 0).map((p) => p.name);
}

/** The weights of R_S = R − Σ_{j∈S} λ_j f_j for the subset S given as a bit mask. */
export function subsetWeights(base: Scorer, penalties: readonly LatticePenalty[], mask: number): Float64Array {
  const weights = Float64Array.from(base.weights);
  penalties.forEach((p, j) => {
    if ((mask & (1 << j)) !== 0) weights[p.column]! -= p.lambda;
  });
  return weights;
}

/**
 * Margins under R_S for every subset S, each computed from R_S's own weights exactly as any other
 * reward's (so R_S and a compared reward with the same weights share margins, ties and all).
 * Yields each subset's margins in mask order, only for the subsets of `within` when it is given.
 */
export function* subsetMargins(run: AttackRun, base: Scorer, penalties: readonly LatticePenalty[], memo: ScoringMemo, within = (1 << penalties.length) - 1): Generator<[number, EditMargins]> {
  for (let mask = 0; mask < 1 << penalties.length; mask++) {
    if ((mask & within) !== mask) continue;
    yield [mask, editMargins(run, subsetWeights(base, penalties, mask), memo)];
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
export function evaluateLattice(runs: readonly AttackRun[], base: Scorer, penalties: readonly LatticePenalty[], options: EstimateOptions, memo: ScoringMemo): LatticeReport {
  if (penalties.length > maxLatticeDetectors) {
    throw new AuditError(`a lattice of ${penalties.length} detectors has ${2 ** penalties.length} subsets; at most ${maxLatticeDetectors} detectors are audited`);
  }
  const size = 1 << penalties.length;
  const results: LatticeReport['subsets'][number]['results'][] = Array.from({ length: size }, () => []);
  for (const run of runs) {
    // A detector whose value no edit of this attack changes (d_j = 0 throughout; isolation makes
    // that every detector outside the attack's targets) leaves every margin as it is, so subsets
    // that differ only in such detectors share one estimate: 2^|active| estimates, not 2^k.
    const active = activeMask(run, penalties);
    const shared = new Map<number, LatticeReport['subsets'][number]['results']>();
    for (const [mask, margins] of subsetMargins(run, base, penalties, memo, active)) {
      shared.set(mask, selections.map((selection) => {
        const e = estimateSelection(run, margins, selection, options, memo);
        return { attack: run.plan.name, selection, label: selectionLabel(selection, base, run), asr: e.asr, upper: e.interval.high, method: e.interval.method, meanMargin: e.meanMargin, clusters: e.clusters };
      }));
    }
    for (let mask = 0; mask < size; mask++) for (const entry of shared.get(mask & active)!) results[mask]!.push({ ...entry });
  }
  // An attack without isolated-eligible clusters (an undefined ASR) observed nothing and constrains
  // nothing; when no attack has any, nothing was observed at all and no subset is sufficient.
  const vacuous = runs.every((run) => run.index.unitRow.length === 0);
  const sufficient = results.map((r) => !vacuous && r.filter((x) => x.selection === 'oracle_worst').every((x) => x.asr === null || x.asr === 0));
  const minimal = minimalSubsets(sufficient);
  const subsets = results.map((r, mask) => ({ detectors: subsetNames(mask, penalties), results: r, sufficient: sufficient[mask]!, minimal: minimal[mask]! }));
  return {
    detectors: penalties.map((p) => ({ name: p.name, lambda: p.lambda })),
    subsets,
    minimal: subsets.filter((s) => s.minimal).map((s) => s.detectors),
    vacuous,
  };
}

/** The detectors (as a bit mask) whose value some edit of the attack changes. */
function activeMask(run: AttackRun, penalties: readonly LatticePenalty[]): number {
  let mask = 0;
  penalties.forEach((p, j) => {
    if (changesFeature(run.changes, p.column)) mask |= 1 << j;
  });
  return mask;
}
