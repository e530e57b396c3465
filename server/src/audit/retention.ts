import type { RetentionEntry } from '../report/schema.js';
import { repeatedQueries } from '../reward/functions.js';
import type { EvalEnv, TrajectoryView } from '../reward/view.js';
import type { Scorer } from './features.js';

/** Queries at least this similar (token Jaccard) count as a repeated-query pair. */
export const repeatedQueryThreshold = 0.8;

/**
 * A rule-defined set of originals that honour the retrieval contract: a valid nonempty final,
 * one to five searches, nonempty citations that are all known and all retrieved, and no
 * repeated-query pair. Retention asks how many of them a reward leaves unpenalised.
 */
export function isContractCompatible(view: TrajectoryView, env: EvalEnv): boolean {
  return (
    view.hasFinal &&
    view.answer.trim().length > 0 &&
    view.searches.length >= 1 &&
    view.searches.length <= 5 &&
    view.citations.length > 0 &&
    view.citations.every((c) => env.corpusIds.has(c) && view.retrieved.has(c)) &&
    repeatedQueries(view.searches, repeatedQueryThreshold) === 0
  );
}

// Compatibility reads only the originals, not the weights: once per prepared audit's views.
const compatibleCache = new WeakMap<readonly TrajectoryView[], readonly number[]>();

function compatibleRowsOf(views: readonly TrajectoryView[], env: EvalEnv): readonly number[] {
  let rows = compatibleCache.get(views);
  if (rows === undefined) compatibleCache.set(views, (rows = views.flatMap((view, row) => (isContractCompatible(view, env) ? [row] : []))));
  return rows;
}

/** Share of compatible originals on which none of the terms a reward adds over the audited one is active. */
export function retention(
  views: readonly TrajectoryView[],
  env: EvalEnv,
  originalValues: Float64Array,
  base: Scorer,
  others: readonly Scorer[],
  termName: (scorer: Scorer, feature: number) => string,
): RetentionEntry[] {
  const F = base.weights.length;
  const compatibleRows = compatibleRowsOf(views, env);
  return others.map((scorer) => {
    const added: number[] = [];
    for (let k = 0; k < F; k++) if (scorer.weights[k] !== base.weights[k]) added.push(k);
    const retained = compatibleRows.filter((row) => added.every((k) => originalValues[row * F + k] === 0)).length;
    return {
      reward: scorer.name,
      penalties: added.map((k) => termName(scorer, k)),
      compatible: compatibleRows.length,
      retained,
      retention: compatibleRows.length === 0 ? 0 : retained / compatibleRows.length,
    };
  });
}
