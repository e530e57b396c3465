import type { SignalReport } from '../../report/training-schema.js';
import type { ComparisonReport } from '../../report/training-schema.js';
import type { ComparisonCell } from '../../report/training-schema.js';
import { betterArrow } from '../../findings/wording.js';

// What the exposure curve and the forest plot draw, from the report alone (no DOM, no chart
// library), so the page's captions and the browser's charts agree and tests can check them.

export interface ExposureLine {
  readonly detector: string;
  /** Per step: rows on which the detector fires. */
  readonly firingRows: readonly number[];
  /** Per step: the running total of groups whose advantages the penalty changed. */
  readonly cumulativeChanged: readonly number[];
}

export interface ExposureView {
  readonly steps: readonly number[];
  readonly lines: readonly ExposureLine[];
  readonly minGroups: number;
}

export function exposureView(signal: SignalReport): ExposureView {
  return {
    steps: signal.steps.map((s) => s.step),
    minGroups: signal.minGroups,
    lines: signal.detectors.map((d, j) => {
      let running = 0;
      return {
        detector: d.name,
        firingRows: signal.steps.map((s) => s.detectors[j]?.firingRows ?? 0),
        cumulativeChanged: signal.steps.map((s) => (running += s.detectors[j]?.changedGroups ?? 0)),
      };
    }),
  };
}

export interface ForestRow {
  readonly label: string;
  readonly metric: string;
  readonly benchmark: string;
  /** Which direction is an improvement: `higher` (↑ better, right of zero) or `lower` (↓ better, left of zero). */
  readonly better: 'higher' | 'lower';
  /** treatment − base in points, as in the table and the CLI (one sign convention everywhere). */
  readonly estimate: number;
  readonly low: number;
  readonly high: number;
  readonly verdict: ComparisonCell['verdict'];
  readonly method: ComparisonCell['interval']['method'];
}

/** One row per metric and benchmark, treatment − base for every metric (never flipped). */
export function forestRows(comparison: ComparisonReport): ForestRow[] {
  return comparison.metrics.flatMap((m) => m.cells.flatMap((c): ForestRow[] => {
    // A cell without pairs has no difference to draw; the table says n/a.
    if (c.difference === null || c.interval.low === null || c.interval.high === null) return [];
    return [{
      label: `${m.label} (${betterArrow(m.better)}) · ${c.benchmark}`,
      metric: m.key, benchmark: c.benchmark, better: m.better,
      estimate: c.difference * 100, low: c.interval.low * 100, high: c.interval.high * 100, verdict: c.verdict, method: c.interval.method,
    }];
  }));
}
