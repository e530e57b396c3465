import type { UtilityEntry } from '../report/schema.js';
import { pairedMargin, type Scorer } from '../edits/features.js';
import { metricColumn, type OriginalMetric } from '../edits/original-metrics.js';
import type { PreparedEdits, SampleGroup } from '../edits/prepare.js';

/** What best-of-n selection is judged by, for every original. */
export interface RowMetrics {
  readonly exactMatch: Float64Array;
  readonly precision: Float64Array;
  readonly recall: Float64Array;
  readonly validFinal: Float64Array;
  readonly searchCalls: Float64Array;
}

/** The metrics of every original, as preparation evaluated them (edits/original-metrics.ts). */
export function rowMetrics(prepared: Pick<PreparedEdits, 'originalMetrics' | 'rows'>): RowMetrics {
  const of = (metric: OriginalMetric): Float64Array => metricColumn(prepared.originalMetrics, prepared.rows.length, metric);
  return {
    exactMatch: of('exactMatch'),
    precision: of('precision'),
    recall: of('recall'),
    validFinal: of('validFinal'),
    searchCalls: of('searchCalls'),
  };
}

/**
 * Offline utility of best-of-n selection by each reward. The metrics read gold answers and
 * support ids, and selection by an oracle reward reads them too: a diagnostic, not an
 * inference-time selector.
 */
export function offlineUtility(groups: readonly SampleGroup[], metrics: RowMetrics, originalValues: Float64Array, scorers: readonly Scorer[]): UtilityEntry[] {
  if (groups.length === 0) return [];
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
