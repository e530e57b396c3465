// Held-out certification (issue 17, §3): the repair and its λ are chosen on one half of the
// question clusters and tested on the other, so the certificate is not judged on the data it was
// fitted to. The split reuses `hash_random`'s hash (audit/pool-selection.ts), and every figure
// comes from the one scoring path over restricted runs (audit/restrict-run.ts).
import type { AttackRun } from '../edits/attack-run.js';
import type { Scorer } from '../edits/features.js';
import type { PreparedEdits } from '../edits/prepare.js';
import { editMargins, estimateSelection } from '../scoring/scoring.js';
import type { HeldOutReport, HeldOutResult } from '../report/generator-schema.js';
import type { EstimateOptions } from '../stats/estimands.js';
import { certifiedLambda, triggeringEdits } from './certificate.js';
import { evaluateLattice, subsetWeights, type LatticePenalty } from './lattice.js';
import { hashIndex } from './pool-selection.js';
import { restrictRun } from './restrict-run.js';

const hashRange = 2 ** 32;

/** Held out when the first four bytes of SHA-256(question_id), read big-endian, over 2^32, are below `share`. */
export function isHeldOut(questionId: string, share: number): boolean {
  // `hash_random`'s position with n = 2^32 is the four bytes themselves.
  return hashIndex(questionId, hashRange) / hashRange < share;
}

export const heldOutRule = 'held out when SHA-256(question_id)\'s first four bytes, big-endian, divided by 2^32, are below share';

/** The smallest observed minimal subset (fewest detectors, then lattice order), as a mask; undefined when none. */
function smallestRepair(minimal: readonly (readonly string[])[], penalties: readonly LatticePenalty[]): number | undefined {
  const sorted = [...minimal].sort((a, b) => a.length - b.length);
  const chosen = sorted[0];
  if (chosen === undefined) return undefined;
  let mask = 0;
  penalties.forEach((p, j) => {
    if (chosen.includes(p.name)) mask |= 1 << j;
  });
  return mask;
}

export function heldOutCertification(prepared: PreparedEdits, runs: readonly AttackRun[], base: Scorer, penalties: readonly LatticePenalty[], share: number, estimates: EstimateOptions): HeldOutReport {
  const { memo, originalValues } = prepared;
  const held = new Uint8Array(prepared.clusters);
  prepared.rows.forEach((row, r) => {
    held[prepared.clusterOf[r]!] = isHeldOut(row.question_id, share) ? 1 : 0;
  });
  let heldOutClusters = 0;
  for (const h of held) heldOutClusters += h;
  const fitRuns = runs.map((run) => restrictRun(run, (_row, cluster) => held[cluster] === 0));
  const heldRuns = runs.map((run) => restrictRun(run, (_row, cluster) => held[cluster] === 1));

  // λ per lattice detector: the certificate's step above the fit half's max gain (the spec's λ when
  // it is already above), so nothing fitted is judged on held-out data; then the repair under them.
  const fitted = penalties.map((p, j) => {
    let fitMaxGain: number | null = null;
    for (const { edits, gains } of triggeringEdits(fitRuns, originalValues, base, penalties, j, memo)) {
      for (const e of edits) fitMaxGain = fitMaxGain === null ? gains.at(e) : Math.max(fitMaxGain, gains.at(e));
    }
    return { detector: p.name, lambda: certifiedLambda(p.lambda, fitMaxGain), fitMaxGain };
  });
  const repaired = penalties.map((p, j) => ({ ...p, lambda: fitted[j]!.lambda }));
  const fitLattice = evaluateLattice(fitRuns, base, repaired, estimates, memo);
  const mask = fitLattice.vacuous ? undefined : smallestRepair(fitLattice.minimal, penalties);
  const lambdas = fitted.filter((_, j) => mask !== undefined && (mask & (1 << j)) !== 0);
  const weights = mask === undefined ? undefined : subsetWeights(base, repaired, mask);
  const results = heldRuns.map((run): HeldOutResult => {
    if (weights === undefined) return { attack: run.plan.name, asr: null, upper: null, method: 'none', clusters: 0 };
    const e = estimateSelection(run, editMargins(run, weights, memo), 'oracle_worst', estimates, memo);
    return { attack: run.plan.name, asr: e.asr, upper: e.interval.high, method: e.interval.method, clusters: e.clusters };
  });
  const tested = results.filter((r) => r.asr !== null);
  return {
    share, rule: heldOutRule, fitClusters: prepared.clusters - heldOutClusters, heldOutClusters,
    repair: mask === undefined ? null : penalties.filter((_, j) => (mask & (1 << j)) !== 0).map((p) => p.name),
    lambdas, results,
    generalised: mask === undefined || tested.length === 0 ? null : tested.every((r) => r.asr === 0),
  };
}
