import type { Chart, ChartType, Plugin } from 'chart.js';
import { thresholdLabelFontPx, thresholdLabelPlacement } from '../../server/src/contract/view.js';

// Two small drawing plugins, created per chart with their data in a closure (so no global plugin
// registry and no untyped options): a threshold line at 0, and interval whiskers on bars.

/**
 * The pointer events a chart listens to: hover and touch for its tooltips, never a click, so no
 * chart does anything (such as hiding a series from its legend) that a keyboard cannot; every
 * figure a tooltip shows is in the card's tables too.
 */
export const chartEvents: ('mousemove' | 'mouseout' | 'touchstart' | 'touchmove')[] = ['mousemove', 'mouseout', 'touchstart', 'touchmove'];

export interface ThresholdOptions {
  readonly axis: 'x' | 'y';
  readonly label: string;
  readonly color: string;
  /** Tint the side at or above 0 (the attack wins there). */
  readonly shade?: string | undefined;
  /**
   * Write the label above the plot area, where no bar or whisker is: for a chart with
   * `layout.padding.top` of `thresholdLabelRoom` and no legend on top.
   */
  readonly labelAbove?: boolean;
}

export function thresholdLine<T extends ChartType>(options: ThresholdOptions): Plugin<T> {
  const position = (chart: Chart): number | undefined => {
    const scale = chart.scales[options.axis];
    if (scale === undefined) return undefined;
    const p = scale.getPixelForValue(0);
    const { left, right, top, bottom } = chart.chartArea;
    const inside = options.axis === 'x' ? p >= left - 0.5 && p <= right + 0.5 : p >= top - 0.5 && p <= bottom + 0.5;
    return inside ? p : undefined;
  };
  return {
    id: `threshold-${options.axis}`,
    beforeDatasetsDraw(chart) {
      const p = position(chart as unknown as Chart);
      if (p === undefined || options.shade === undefined) return;
      const { ctx, chartArea: a } = chart;
      ctx.save();
      ctx.fillStyle = options.shade;
      if (options.axis === 'x') ctx.fillRect(p, a.top, a.right - p, a.bottom - a.top);
      else ctx.fillRect(a.left, a.top, a.right - a.left, p - a.top);
      ctx.restore();
    },
    afterDatasetsDraw(chart) {
      const p = position(chart as unknown as Chart);
      if (p === undefined) return;
      const { ctx, chartArea: a } = chart;
      ctx.save();
      ctx.strokeStyle = options.color;
      ctx.fillStyle = options.color;
      ctx.lineWidth = 1.5;
      ctx.setLineDash([5, 4]);
      ctx.beginPath();
      if (options.axis === 'x') {
        ctx.moveTo(p, a.top);
        ctx.lineTo(p, a.bottom);
      } else {
        ctx.moveTo(a.left, p);
        ctx.lineTo(a.right, p);
      }
      ctx.stroke();
      ctx.setLineDash([]);
      ctx.font = `${thresholdLabelFontPx}px sans-serif`;
      const place = thresholdLabelPlacement(options.axis, p, a, ctx.measureText(options.label).width, options.labelAbove === true);
      ctx.textAlign = place.align;
      ctx.textBaseline = place.baseline;
      ctx.fillText(options.label, place.x, place.y);
      ctx.restore();
    },
  };
}

export interface Whisker {
  readonly low: number;
  readonly high: number;
}

/** Draws `[low, high]` (in the y scale's units) over bar i of dataset d: `whiskers[d][i]`. */
export function intervalWhiskers(whiskers: readonly (readonly (Whisker | undefined)[])[], color: string): Plugin<'bar'> {
  return {
    id: 'interval-whiskers',
    afterDatasetsDraw(chart) {
      const y = chart.scales['y'];
      if (y === undefined) return;
      const { ctx } = chart;
      ctx.save();
      ctx.strokeStyle = color;
      ctx.lineWidth = 1.5;
      whiskers.forEach((bars, d) => {
        if (!chart.isDatasetVisible(d)) return;
        chart.getDatasetMeta(d).data.forEach((bar, i) => {
          const w = bars[i];
          if (w === undefined) return;
          const [top, bottom] = [y.getPixelForValue(w.high), y.getPixelForValue(w.low)];
          const cap = 5;
          ctx.beginPath();
          ctx.moveTo(bar.x, top);
          ctx.lineTo(bar.x, bottom);
          ctx.moveTo(bar.x - cap, top);
          ctx.lineTo(bar.x + cap, top);
          ctx.moveTo(bar.x - cap, bottom);
          ctx.lineTo(bar.x + cap, bottom);
          ctx.stroke();
        });
      });
      ctx.restore();
    },
  };
}
