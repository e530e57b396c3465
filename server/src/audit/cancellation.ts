import type { CancellationFinding, WorkedPair } from '../report/schema.js';
import type { AttackRun } from '../edits/attack-run.js';
import { featureByVector } from '../edits/edit-changes.js';
import { estimateArrays, type EstimateOptions } from '../stats/estimands.js';
import { extraFeatures, type Scorer } from '../edits/features.js';
import { selections } from '../edits/attack-plan.js';
import { editMargins, selectedEdits } from '../scoring/scoring.js';
import type { ScoringMemo } from '../edits/scoring-memo.js';

export interface CancellationContext {
  readonly runs: readonly AttackRun[];
  readonly originalValues: Float64Array;
  readonly termName: (scorer: Scorer, feature: number) => string;
  readonly workedPair: (run: AttackRun, edit: number) => WorkedPair;
  readonly options: EstimateOptions;
  readonly memo: ScoringMemo;
}

/** The selected units on which a penalty was active (or not) on the original: their clusters and margins. */
interface Stratum {
  readonly clusters: number[];
  readonly margins: number[];
}

/**
 * For every nested pair S ⊂ T of named rewards, M_T = M_S + C_{T∖S} with C = Σ_{k∈T∖S} w_k d_k.
 * An attack that wins under T but loses under S, while one of T's extra penalties was active on
 * the original and the edit switched it off (w_k < 0, d_k < 0), wins because of that cancellation.
 */
export function findCancellations(scorers: readonly Scorer[], ctx: CancellationContext): CancellationFinding[] {
  const findings: CancellationFinding[] = [];
  const F = scorers[0]?.weights.length ?? 0;
  for (const smaller of scorers) {
    for (const larger of scorers) {
      const extra = smaller === larger ? undefined : extraFeatures(smaller, larger);
      if (extra === undefined) continue;
      for (const run of ctx.runs) {
        const marginsS = editMargins(run, smaller.weights, ctx.memo);
        const marginsT = editMargins(run, larger.weights, ctx.memo);
        for (const selection of selections) {
          const selected = selectedEdits(run, marginsT, selection, ctx.memo);
          const { unitRow, unitCluster } = run.index;
          for (const k of extra) {
            const weight = larger.weights[k]!;
            if (weight >= 0) continue;
            const winners: number[] = [];
            const originals = ctx.originalValues;
            const change = featureByVector(run.changes, k);
            const { vectorOf } = run.changes;
            for (let u = 0; u < selected.length; u++) {
              const edit = selected[u]!;
              // Most edits lose under T: test that before reading the feature values.
              if (!(marginsT.at(edit) >= 0 && marginsS.at(edit) < 0)) continue;
              const original = originals[unitRow[u]! * F + k]!;
              if (original !== 0 && change[vectorOf[edit]!]! < 0) winners.push(u);
            }
            if (winners.length === 0) continue;
            const active: Stratum = { clusters: [], margins: [] };
            const inactive: Stratum = { clusters: [], margins: [] };
            selected.forEach((edit, u) => {
              const stratum = originals[unitRow[u]! * F + k] !== 0 ? active : inactive;
              stratum.clusters.push(unitCluster[u]!);
              stratum.margins.push(marginsT.at(edit));
            });
            findings.push({
              smaller: smaller.name,
              larger: larger.name,
              attack: run.plan.name,
              selection,
              term: ctx.termName(larger, k),
              termWeight: weight,
              count: winners.length,
              clusters: new Set(winners.map((u) => unitCluster[u]!)).size,
              strata: { active: estimateArrays(active.clusters, active.margins, ctx.options), inactive: estimateArrays(inactive.clusters, inactive.margins, ctx.options) },
              example: ctx.workedPair(run, selected[winners[0]!]!),
            });
          }
        }
      }
    }
  }
  return findings;
}
