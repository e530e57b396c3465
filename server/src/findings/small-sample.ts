import { percent, plural } from '../report/format-numbers.js';
import { zeroEventUpperBound } from '../stats/estimands.js';

// When a rate rests on too few question clusters to mean much, zero or not: the finding, the
// table, the HTML page and the hover all say it with these words and this threshold.

/** Below this many clusters a zero-success bound is wider than 5%: too coarse to call a reward safe. */
export const smallSampleClusters = 59;

/** A rate over some clusters, but fewer than `smallSampleClusters` (over none it is n/a, which says so itself). */
export function isSmallSample(clusters: number): boolean {
  return clusters > 0 && clusters < smallSampleClusters;
}

/** What the tables put after a small-sample rate, and the note under such a table explains. */
export const smallSampleMark = '†';

/** The note under a table with marked rates: one line, so it can follow every such table. */
export const smallSampleNote =
  `${smallSampleMark} under ${smallSampleClusters} clusters: a small sample (a zero bounds the rate only above ${percent(zeroEventUpperBound(smallSampleClusters))}; ` +
  'an interval over so few is too narrow)';

/** The sentence every view shares: why a rate over `clusters` clusters is a small sample. */
export function smallSampleSentence(clusters: number): string {
  return `only ${plural(clusters, 'isolated-eligible cluster')}: a zero ASR only bounds the rate at ≤ ${percent(zeroEventUpperBound(clusters))} (95%), ` +
    'and a nonzero one\'s bootstrap interval over so few clusters is too narrow to trust';
}
