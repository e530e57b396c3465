import type { CertificateEntry, WorkedPair } from '../report/schema.js';
import type { AttackRun } from '../edits/attack-run.js';
import { featureByVector, vectorCount } from '../edits/edit-changes.js';
import { tieTolerance } from '../stats/estimands.js';
import { vectorChange, type Scorer } from '../edits/features.js';
import { subsetWeights, type LatticePenalty } from './lattice.js';
import { editMargins } from '../scoring/scoring.js';
import type { EditMargins, ScoringMemo } from '../edits/scoring-memo.js';

/**
 * The audited edits of one attack that trigger lattice detector j (f_j flips 0 → 1), in edit order,
 * as indices into the run's margins under the base reward (the gains) and under R − λ_j f_j: an
 * edit is accepted when that margin is not below zero after the tie rule (λ does not reject it).
 * Index arrays, not an object per edit: a detector can catch every one of a million edits.
 */
export interface TriggeringEdits {
  readonly run: AttackRun;
  readonly edits: Int32Array;
  readonly gains: EditMargins;
  readonly strengthened: EditMargins;
}

/** The audited edits that trigger lattice detector j, per attack in attack order. */
export function triggeringEdits(runs: readonly AttackRun[], originalValues: Float64Array, base: Scorer, penalties: readonly LatticePenalty[], j: number, memo: ScoringMemo): TriggeringEdits[] {
  const F = base.weights.length;
  const p = penalties[j]!;
  const weights = subsetWeights(base, penalties, 1 << j);
  return runs.map((run) => {
    let byColumn = memo.triggering.get(run);
    if (byColumn === undefined) memo.triggering.set(run, (byColumn = new Map()));
    let edits = byColumn.get(p.column);
    if (edits === undefined) byColumn.set(p.column, (edits = triggeringOf(run, originalValues, F, p.column)));
    return { run, edits, gains: editMargins(run, base.weights, memo), strengthened: editMargins(run, weights, memo) };
  });
}

function triggeringOf(run: AttackRun, originalValues: Float64Array, F: number, column: number): Int32Array {
  const { editRow } = run.index;
  const change = featureByVector(run.changes, column);
  const { vectorOf } = run.changes;
  const edits: number[] = [];
  for (let e = 0; e < editRow.length; e++) {
    if (originalValues[editRow[e]! * F + column] === 0 && change[vectorOf[e]!] === 1) edits.push(e);
  }
  return Int32Array.from(edits);
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
    const certified = triggering.every(({ edits, strengthened }) => edits.every((e) => strengthened.at(e) < 0));
    const example = largestGain(triggering, base.weights);
    return {
      detector: p.name,
      lambda: p.lambda,
      edits: triggering.reduce((sum, t) => sum + t.edits.length, 0),
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
function largestGain(triggering: readonly TriggeringEdits[], weights: Float64Array): { run: AttackRun; edit: number; gain: number } | undefined {
  let best: { run: AttackRun; edit: number; gain: number } | undefined;
  for (const { run, edits, gains } of triggering) {
    for (const e of edits) if (best === undefined || gains.at(e) > best.gain) best = { run, edit: e, gain: gains.at(e) };
  }
  if (best === undefined) return undefined;
  // Sizes by change vector, once per run.
  const scales = new Map(triggering.map(({ run }) => [run, Float64Array.from({ length: vectorCount(run.changes) }, (_, v) => vectorChange(weights, run.changes, v).scale)]));
  const bestScale = scales.get(best.run)![best.run.changes.vectorOf[best.edit]!]!;
  // In attack order, then edit order: the first of the lowest row is first in row, attack, generation order.
  let example = best;
  let exampleRow = Infinity;
  for (const { run, edits, gains } of triggering) {
    const runScales = scales.get(run)!;
    const { vectorOf } = run.changes;
    for (const e of edits) {
      const row = run.index.editRow[e]!;
      if (row < exampleRow && best.gain - gains.at(e) <= tieTolerance * (bestScale + runScales[vectorOf[e]!]!)) {
        example = { run, edit: e, gain: gains.at(e) };
        exampleRow = row;
      }
    }
  }
  return example;
}
