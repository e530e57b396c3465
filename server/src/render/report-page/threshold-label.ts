// Where a chart's threshold line (`no change`, `M ≥ 0`, `M = 0`) writes its label, pure so a test
// can hold the coordinates. Inside the plot area a label on a vertical line sits over the first
// row's bar and whisker (the forest plot), so a chart that reserves room above its plot area
// (`thresholdLabelRoom` of top padding, no legend there) gets the label in that room instead.

/** Pixels of top padding a chart reserves for a label above its plot area: an 11 px font and a gap. */
export const thresholdLabelRoom = 18;

/** The label's font height in pixels (the plugin draws `11px sans-serif`). */
export const thresholdLabelFontPx = 11;

export interface PlotArea {
  readonly left: number;
  readonly right: number;
  readonly top: number;
  readonly bottom: number;
}

export interface LabelPlacement {
  readonly x: number;
  readonly y: number;
  readonly align: 'left' | 'right';
  readonly baseline: 'top' | 'bottom';
}

/**
 * The label of a line at pixel `at` (x for a vertical line on the x axis, y for a horizontal one on
 * the y axis), `width` pixels wide. A vertical line's label goes right of it when it fits, else
 * left; `above` puts it in the room above the plot area, else just inside the top.
 */
export function thresholdLabelPlacement(axis: 'x' | 'y', at: number, area: PlotArea, width: number, above: boolean): LabelPlacement {
  if (axis === 'y') return { x: area.right - 2, y: at - 2, align: 'right', baseline: 'bottom' };
  const fits = at + 4 + width <= area.right;
  const x = fits ? at + 4 : at - 4;
  const align = fits ? 'left' : 'right';
  return above ? { x, y: area.top - 3, align, baseline: 'bottom' } : { x, y: area.top + 2, align, baseline: 'top' };
}
