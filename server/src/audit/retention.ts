import type { RetentionEntry } from '../report/schema.js';
import { clusterBootstrap, noInterval, type Interval } from '../stats/bootstrap.js';
import { zeroEventUpperBound, type EstimateOptions } from '../stats/estimands.js';
import { extraFeatures, type Scorer } from '../edits/features.js';
import { metricColumn } from '../edits/original-metrics.js';
import type { PreparedEdits } from '../edits/prepare.js';

/** The originals that honour the retrieval contract (edits/original-metrics.ts), as preparation found them. */
export function compatibleRows(prepared: Pick<PreparedEdits, 'originalMetrics' | 'rows'>): number[] {
  const compatible = metricColumn(prepared.originalMetrics, prepared.rows.length, 'compatible');
  const rows: number[] = [];
  for (let row = 0; row < compatible.length; row++) if (compatible[row] === 1) rows.push(row);
  return rows;
}

/** The penalties `reward` adds to `base`, or why retention is not defined for it. */
function addedPenalties(base: Scorer, reward: Scorer, termName: (scorer: Scorer, feature: number) => string): number[] | string {
  const extra = extraFeatures(base, reward);
  if (extra === undefined) {
    const keepsBase = base.weights.every((w, k) => w === 0 || w === reward.weights[k]);
    return keepsBase
      ? `${reward.name} adds no term to ${base.name}`
      : `${reward.name} does not keep every term of ${base.name} with its weight, so it is not ${base.name} plus penalties`;
  }
  const positive = extra.filter((k) => reward.weights[k]! > 0);
  if (positive.length > 0) {
    return `${reward.name} adds ${positive.map((k) => `'${termName(reward, k)}'`).join(', ')} with a positive weight: retention counts added penalties only`;
  }
  return extra;
}

/**
 * Contract-compatible retention of each compared reward that is the audited reward plus penalties:
 * the mean over question clusters of the within-cluster share of compatible originals on which none
 * of the added penalties is active, with a question-cluster bootstrap interval (the paper's 74.45%
 * [71.08%, 77.99%] over its 593-question compatible set).
 */
export function retention(
  compatibleRows: readonly number[],
  originalValues: Float64Array,
  clusterOf: (row: number) => number,
  base: Scorer,
  others: readonly Scorer[],
  termName: (scorer: Scorer, feature: number) => string,
  options: EstimateOptions,
): RetentionEntry[] {
  const F = base.weights.length;
  const clusters = new Set(compatibleRows.map(clusterOf)).size;
  return others.map((scorer): RetentionEntry => {
    const added = addedPenalties(base, scorer, termName);
    if (typeof added === 'string') {
      return { reward: scorer.name, penalties: [], defined: false, reason: added, compatible: compatibleRows.length, retained: null, clusters, retention: null, interval: { ...noInterval } };
    }
    const byCluster = new Map<number, { rows: number; retained: number }>();
    let retained = 0;
    for (const row of compatibleRows) {
      const keeps = added.every((k) => originalValues[row * F + k] === 0);
      if (keeps) retained++;
      const c = byCluster.get(clusterOf(row)) ?? { rows: 0, retained: 0 };
      byCluster.set(clusterOf(row), { rows: c.rows + 1, retained: c.retained + (keeps ? 1 : 0) });
    }
    const shares = [...byCluster.entries()].sort(([a], [b]) => a - b).map(([, c]) => c.retained / c.rows);
    const share = shares.length === 0 ? null : shares.reduce((s, x) => s + x, 0) / shares.length;
    return {
      reward: scorer.name, penalties: added.map((k) => termName(scorer, k)), defined: true, reason: null,
      compatible: compatibleRows.length, retained, clusters, retention: share, interval: retentionInterval(shares, options),
    };
  });
}

/**
 * The bootstrap of the cluster shares, except at the two ends, where resampling would claim
 * certainty: nothing retained gives the exact zero-event bound (retention ≤ 1 − 0.05^(1/n)), nothing
 * penalised the same bound mirrored (retention ≥ 0.05^(1/n)), both with method `exact-zero`.
 */
function retentionInterval(shares: readonly number[], options: EstimateOptions): Interval {
  const n = shares.length;
  if (n === 0) return { ...noInterval };
  if (shares.every((s) => s === 0)) return { low: 0, high: zeroEventUpperBound(n), method: 'exact-zero' };
  if (shares.every((s) => s === 1)) return { low: 1 - zeroEventUpperBound(n), high: 1, method: 'exact-zero' };
  return clusterBootstrap(shares, options.resamples, options.seed, options.bootstrap);
}
