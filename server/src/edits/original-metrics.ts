// What the report reads of each original besides its features: whether it honours the retrieval
// contract (retention counts over those that do, audit/retention.ts) and the metrics best-of-n
// selection is judged by (audit/utility.ts, the `gold_informed` pool selection). They are evaluated
// with the features, on the views that exist while a row range is prepared, so no view outlives
// preparation: a view takes about 540 bytes a row, these six values 48.
import { exactMatch, precision, recall, repeatedQueries } from '../language/functions.js';
import type { EvalEnv } from '../language/eval-env.js';
import type { TrajectoryView } from '../language/view.js';

/**
 * The retrieval contract that defines the compatible set, as the paper states it: a valid nonempty
 * final, one to five searches, nonempty citations that are all corpus ids and all retrieved, and no
 * pair of queries whose normalised token sets have a Jaccard similarity of 0.8 or more.
 */
export const retentionContract = { minSearches: 1, maxSearches: 5, repeatedQueryJaccard: 0.8 } as const;

/** Whether an original honours the retrieval contract (see `retentionContract`). */
export function isContractCompatible(view: TrajectoryView, env: EvalEnv): boolean {
  return (
    view.hasFinal &&
    view.answer.trim().length > 0 &&
    view.searches.length >= retentionContract.minSearches &&
    view.searches.length <= retentionContract.maxSearches &&
    view.citations.length > 0 &&
    view.citations.every((c) => env.corpusIds.has(c) && view.retrieved.has(c)) &&
    repeatedQueries(view.searches, retentionContract.repeatedQueryJaccard) === 0
  );
}

const metricOf = {
  compatible: (view: TrajectoryView, env: EvalEnv) => (isContractCompatible(view, env) ? 1 : 0),
  exactMatch: (view: TrajectoryView) => exactMatch(view.answer, view.gold.answers),
  precision: (view: TrajectoryView) => precision(view.citations, view.gold.support_ids),
  recall: (view: TrajectoryView) => recall(view.citations, view.gold.support_ids),
  validFinal: (view: TrajectoryView) => (view.hasFinal ? 1 : 0),
  searchCalls: (view: TrajectoryView) => view.searches.length,
} as const;

export type OriginalMetric = keyof typeof metricOf;

const metrics = Object.keys(metricOf) as OriginalMetric[];

/** Each original's metrics, metric by metric: one column of `views.length` values per metric, in `metricOf`'s order. */
export function evaluateMetrics(views: readonly TrajectoryView[], env: EvalEnv): Float64Array {
  const rows = views.length;
  const values = new Float64Array(metrics.length * rows);
  metrics.forEach((metric, m) => {
    const of = metricOf[metric];
    for (let row = 0; row < rows; row++) values[m * rows + row] = of(views[row]!, env);
  });
  return values;
}

/** One metric of every original, from `evaluateMetrics`'s layout over `rows` originals. */
export function metricColumn(values: Float64Array, rows: number, metric: OriginalMetric): Float64Array {
  const m = metrics.indexOf(metric);
  return values.subarray(m * rows, (m + 1) * rows);
}

/** The metrics of consecutive row ranges, laid out as one `evaluateMetrics` over all `rows` of them. */
export function joinMetrics(parts: readonly { readonly from: number; readonly values: Float64Array }[], rows: number): Float64Array {
  if (parts.length === 1) return parts[0]!.values;
  const values = new Float64Array(metrics.length * rows);
  for (const { from, values: part } of parts) {
    const partRows = part.length / metrics.length;
    for (let m = 0; m < metrics.length; m++) values.set(part.subarray(m * partRows, (m + 1) * partRows), m * rows + from);
  }
  return values;
}

/** The metrics of originals [from, to), laid out as `evaluateMetrics` over them alone, from its layout over all `rows`. */
export function metricsOfRange(values: Float64Array, rows: number, from: number, to: number): Float64Array {
  const range = new Float64Array(metrics.length * (to - from));
  for (let m = 0; m < metrics.length; m++) range.set(values.subarray(m * rows + from, m * rows + to), m * (to - from));
  return range;
}
