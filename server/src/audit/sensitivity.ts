import type { AggregateEntry, PerPoolEntry, SweepEntry } from '../report/schema.js';
import type { AttackRun } from '../edits/attack-run.js';
import { estimateArrays, zeroEventUpperBound, type EstimateOptions } from '../stats/estimands.js';
import { strengthenedScorer, type FeatureTable, type Scorer } from '../edits/features.js';
import { selections } from '../edits/attack-plan.js';
import { editMargins, estimateSelection, selectedMargins, selectionLabel } from '../scoring/scoring.js';
import type { ScoringMemo } from '../edits/scoring-memo.js';

/** The penalty-scale sweep: R0 − s·Σ λ_j f_j over every lattice detector, for each scale s. */
export function penaltySweep(
  runs: readonly AttackRun[],
  table: FeatureTable,
  base: Scorer,
  penalties: readonly { readonly key: string; readonly lambda: number }[],
  scales: readonly number[],
  options: EstimateOptions,
  memo: ScoringMemo,
): SweepEntry[] {
  return scales.flatMap((scale) => {
    const scorer = strengthenedScorer(table, base, penalties, `${base.name}×${scale}`, scale);
    return runs.flatMap((run) => {
      const margins = editMargins(run, scorer.weights, memo);
      return selections.map((selection) => {
        const e = estimateSelection(run, margins, selection, options, memo);
        return {
          scale, attack: run.plan.name, selection, label: selectionLabel(selection, scorer, run),
          asr: e.asr, upper: e.interval.high, method: e.interval.method, meanMargin: e.meanMargin, clusters: e.clusters,
        };
      });
    });
  });
}

/**
 * Each pool on its own (its clusters counted within the pool), and the question-weighted
 * aggregate Σ successes / Σ clusters across pools: the paper's cross-model table.
 */
export function perPool(
  runs: readonly AttackRun[],
  scorers: readonly Scorer[],
  poolOf: (row: number) => string,
  pools: readonly string[],
  options: EstimateOptions,
  memo: ScoringMemo,
): { perPool: PerPoolEntry[]; aggregate: AggregateEntry[] } {
  const entries: PerPoolEntry[] = [];
  const aggregate: AggregateEntry[] = [];
  for (const run of runs) {
    // Which units belong to which pool does not depend on the scorer: split once per attack.
    const clustersOfUnits = run.index.unitCluster;
    const lists = new Map(pools.map((pool): [string, number[]] => [pool, []]));
    run.index.unitRow.forEach((row, u) => lists.get(poolOf(row))?.push(u));
    const unitsOf = new Map(pools.map((pool) => [pool, Int32Array.from(lists.get(pool)!)]));
    const clustersIn = new Map(pools.map((pool) => [pool, unitsOf.get(pool)!.map((u) => clustersOfUnits[u]!)]));
    for (const scorer of scorers) {
      const margins = editMargins(run, scorer.weights, memo);
      for (const selection of selections) {
        const selected = selectedMargins(run, margins, selection, memo);
        const label = selectionLabel(selection, scorer, run);
        let successes = 0;
        let clusters = 0;
        for (const pool of pools) {
          const units = unitsOf.get(pool)!;
          const inPool = new Float64Array(units.length);
          for (let i = 0; i < units.length; i++) inPool[i] = selected[units[i]!]!;
          const e = estimateArrays(clustersIn.get(pool)!, inPool, options);
          entries.push({ pool, attack: run.plan.name, reward: scorer.name, selection, label, asr: e.asr, upper: e.interval.high, method: e.interval.method, clusters: e.clusters });
          successes += e.successes;
          clusters += e.clusters;
        }
        aggregate.push({
          attack: run.plan.name, reward: scorer.name, selection, label, asr: clusters === 0 ? null : successes / clusters, successes, clusters,
          upper: successes === 0 && clusters > 0 ? zeroEventUpperBound(clusters) : null,
        });
      }
    }
  }
  return { perPool: entries, aggregate };
}
