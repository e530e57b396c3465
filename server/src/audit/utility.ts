import type { UtilityEntry } from '../report/schema.js';
import { exactMatch, precision, recall } from '../language/functions.js';
import type { EvalEnv } from '../language/eval-env.js';
import type { TrajectoryView } from '../language/view.js';
import { pairedMargin, type Scorer } from '../edits/features.js';
import type { SampleGroup } from '../edits/prepare.js';
import { originalColumn, type ScoringMemo } from '../edits/scoring-memo.js';

/** What best-of-n selection is judged by, for every original. */
export interface RowMetrics {
  readonly exactMatch: Float64Array;
  readonly precision: Float64Array;
  readonly recall: Float64Array;
  readonly validFinal: Float64Array;
  readonly searchCalls: Float64Array;
}

// Defined once: each function is the key its column is remembered under.
const metricOf = {
  exactMatch: (view: TrajectoryView) => exactMatch(view.answer, view.gold.answers),
  precision: (view: TrajectoryView) => precision(view.citations, view.gold.support_ids),
  recall: (view: TrajectoryView) => recall(view.citations, view.gold.support_ids),
  validFinal: (view: TrajectoryView) => (view.hasFinal ? 1 : 0),
  searchCalls: (view: TrajectoryView) => view.searches.length,
} as const;

/** The metrics of every original; they read no weights, so each is worked out once per memo. */
export function rowMetrics(memo: ScoringMemo, views: readonly TrajectoryView[], env: EvalEnv): RowMetrics {
  const of = (metric: (view: TrajectoryView) => number): Float64Array => originalColumn(memo, views, env, metric);
  return {
    exactMatch: of(metricOf.exactMatch),
    precision: of(metricOf.precision),
    recall: of(metricOf.recall),
    validFinal: of(metricOf.validFinal),
    searchCalls: of(metricOf.searchCalls),
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
