import type { UtilityEntry } from '../report/schema.js';
import { exactMatch, precision, recall } from '../language/functions.js';
import type { TrajectoryView } from '../language/view.js';
import { pairedMargin, type Scorer } from '../edits/features.js';

/** Rows of one pool that answer the same question: the n samples a best-of-n selector picks from. */
export interface SampleGroup {
  readonly rows: readonly number[];
}

interface RowMetrics {
  readonly exactMatch: Float64Array;
  readonly precision: Float64Array;
  readonly recall: Float64Array;
  readonly validFinal: Float64Array;
  readonly searchCalls: Float64Array;
}

// The metrics of a row do not depend on the weights: once per prepared audit's views.
const metricsCache = new WeakMap<readonly TrajectoryView[], RowMetrics>();

function rowMetrics(views: readonly TrajectoryView[]): RowMetrics {
  let metrics = metricsCache.get(views);
  if (metrics === undefined) {
    const of = (metric: (view: TrajectoryView) => number): Float64Array => Float64Array.from(views, metric);
    metrics = {
      exactMatch: of((view) => exactMatch(view.answer, view.gold.answers)),
      precision: of((view) => precision(view.citations, view.gold.support_ids)),
      recall: of((view) => recall(view.citations, view.gold.support_ids)),
      validFinal: of((view) => (view.hasFinal ? 1 : 0)),
      searchCalls: of((view) => view.searches.length),
    };
    metricsCache.set(views, metrics);
  }
  return metrics;
}

/**
 * Offline utility of best-of-n selection by each reward. The metrics read gold answers and
 * support ids, and selection by an oracle reward reads them too: a diagnostic, not an
 * inference-time selector.
 */
export function offlineUtility(groups: readonly SampleGroup[], views: readonly TrajectoryView[], originalValues: Float64Array, scorers: readonly Scorer[]): UtilityEntry[] {
  if (groups.length === 0) return [];
  const metrics = rowMetrics(views);
  const summarize = (selector: string, label: UtilityEntry['label'], pick: (group: SampleGroup) => number): UtilityEntry => {
    let em = 0;
    let citationPrecision = 0;
    let supportRecall = 0;
    let validFinal = 0;
    let searchCalls = 0;
    for (const group of groups) {
      const row = pick(group);
      em += metrics.exactMatch[row]!;
      citationPrecision += metrics.precision[row]!;
      supportRecall += metrics.recall[row]!;
      validFinal += metrics.validFinal[row]!;
      searchCalls += metrics.searchCalls[row]!;
    }
    const n = groups.length;
    return { selector, label, groups: n, exactMatch: em / n, citationPrecision: citationPrecision / n, supportRecall: supportRecall / n, validFinal: validFinal / n, searchCalls: searchCalls / n };
  };
  const F = scorers[0]?.weights.length ?? 0;
  return [
    summarize('first sample', 'label-free', (group) => group.rows[0]!),
    ...scorers.map((scorer) =>
      summarize(scorer.name, scorer.visibility === 'oracle' ? 'oracle upper bound' : 'label-free', (group) => {
        // Ties (within the tie tolerance, as margins are judged) go to the earlier sample, so
        // selection is deterministic and does not depend on how the sums were rounded.
        let best = group.rows[0]!;
        for (const row of group.rows.slice(1)) if (pairedMargin(scorer.weights, originalValues, row * F, originalValues, best * F) > 0) best = row;
        return best;
      })),
  ];
}
