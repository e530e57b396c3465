import type { SignalReport } from '../../report/training-schema.js';
import type { ComparisonReport } from '../../report/training-schema.js';
import type { ComparisonCell } from '../../report/training-schema.js';

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
  /** In points and in the improvement direction: positive is better for every metric (the paper's Table 4). */
  readonly estimate: number;
  readonly low: number;
  readonly high: number;
  readonly verdict: ComparisonCell['verdict'];
  readonly method: ComparisonCell['interval']['method'];
}

/** One row per metric and benchmark; lower-is-better metrics are flipped (base − treatment). */
export function forestRows(comparison: ComparisonReport): ForestRow[] {
  return comparison.metrics.flatMap((m) => m.cells.flatMap((c): ForestRow[] => {
    // A cell without pairs has no difference to draw; the table says n/a.
    if (c.difference === null || c.interval.low === null || c.interval.high === null) return [];
    const sign = m.better === 'higher' ? 1 : -1;
    const [low, high] = sign > 0 ? [c.interval.low, c.interval.high] : [-c.interval.high, -c.interval.low];
    return [{
      label: `${m.better === 'higher' ? m.label : `${m.label} reduction`} · ${c.benchmark}`,
      metric: m.key, benchmark: c.benchmark,
      estimate: sign * c.difference * 100, low: low * 100, high: high * 100, verdict: c.verdict, method: c.interval.method,
    }];
  }));
}
