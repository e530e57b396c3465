import type { CertificateEntry, WorkedPair } from '../report/schema.js';
import type { AttackRun } from '../edits/attack-run.js';
import { tieTolerance } from '../stats/estimands.js';
import { editChange, type Scorer } from '../edits/features.js';
import { subsetWeights, type LatticePenalty } from './lattice.js';
import { editMargins } from '../edits/scoring.js';
import type { ScoringMemo } from '../edits/scoring-memo.js';

export interface TriggeringEdit {
  readonly run: AttackRun;
  readonly edit: number;
  readonly row: number;
  /** The base reward's paired margin. */
  readonly gain: number;
  /** The margin under R − λ_j f_j is not below zero after the tie rule: λ does not reject it. */
  readonly accepted: boolean;
}

/** The audited edits that trigger lattice detector j (f_j flips 0 → 1), in attack then edit order. */
export function triggeringEdits(runs: readonly AttackRun[], originalValues: Float64Array, base: Scorer, penalties: readonly LatticePenalty[], j: number, memo: ScoringMemo): TriggeringEdit[] {
  const F = base.weights.length;
  const p = penalties[j]!;
  const strengthened = subsetWeights(base, penalties, 1 << j);
  const triggering: TriggeringEdit[] = [];
  for (const run of runs) {
    const { editRow } = run.index;
    const gains = editMargins(run, base.weights, memo);
    const rejected = editMargins(run, strengthened, memo);
    for (let e = 0; e < editRow.length; e++) {
      if (originalValues[editRow[e]! * F + p.column] !== 0 || run.changes[p.column]![e] !== 1) continue;
      triggering.push({ run, edit: e, row: editRow[e]!, gain: gains[e]!, accepted: rejected[e]! >= 0 });
    }
  }
  return triggering;
}

/**
 * The penalty the certificate backs: λ when it is above the max gain among the edits the
 * detector catches, else the next tenth above that gain (what a quick fix proposes and what
 * held-out certification fixes on the fit half).
 */
export function certifiedLambda(lambda: number, maxGain: number | null): number {
  if (maxGain === null || lambda > maxGain) return lambda;
  return (Math.floor(maxGain * 10 + 1e-9) + 1) / 10;
}

/**
 * The finite-set certificate: R_{j} = R − λ_j f_j rejects every audited edit that triggers detector
 * j (f_j flips 0 → 1) when each of their margins under R_{j} is below zero after the tie rule, which
 * for a reward without f_j is λ_j above the largest base-reward gain among them. It covers only
 * the edits audited.
 */
export function certify(
  runs: readonly AttackRun[],
  originalValues: Float64Array,
  base: Scorer,
  penalties: readonly LatticePenalty[],
  workedPair: (run: AttackRun, edit: number) => WorkedPair,
  memo: ScoringMemo,
): CertificateEntry[] {
  return penalties.map((p, j) => {
    const triggering = triggeringEdits(runs, originalValues, base, penalties, j, memo);
    const certified = triggering.every((t) => !t.accepted);
    const example = largestGain(triggering, base.weights);
    return {
      detector: p.name,
      lambda: p.lambda,
      edits: triggering.length,
      maxGain: example?.gain ?? null,
      certified,
      example: example === undefined ? null : workedPair(example.run, example.edit),
    };
  });
}

/**
 * The edit with the largest gain; among gains tied with it (within the tie tolerance of both
 * edits' sizes), the first in row order, then attack order, then generation order (citation
 * position, then candidate rank), so the example does not depend on how the sums were rounded.
 */
function largestGain(edits: readonly TriggeringEdit[], weights: Float64Array): TriggeringEdit | undefined {
  let best: TriggeringEdit | undefined;
  for (const t of edits) if (best === undefined || t.gain > best.gain) best = t;
  if (best === undefined) return undefined;
  const scaleOf = (t: TriggeringEdit): number => editChange(weights, t.run.changes, t.edit).scale;
  const bestScale = scaleOf(best);
  // `edits` is in attack order, then edit order; a stable sort by row gives row, attack, generation order.
  const tied = edits.filter((t) => best.gain - t.gain <= tieTolerance * (bestScale + scaleOf(t)));
  return [...tied].sort((a, b) => a.row - b.row)[0];
}
