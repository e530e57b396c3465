import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { thresholdLabelFontPx, thresholdLabelPlacement, thresholdLabelRoom } from '../../server/src/render/report-page/threshold-label.js';

// Where a threshold line writes its label (server/src/render/report-page/threshold-label.ts).

const area = { left: 120, right: 620, top: thresholdLabelRoom, bottom: 300 };
const labelWidth = 54;

describe('a threshold line\'s label', () => {
  it('above the plot (the forest plot\'s "no change"): wholly in the room kept for it, so no bar or whisker is under it', () => {
    const place = thresholdLabelPlacement('x', 400, area, labelWidth, true);
    assert.deepEqual(place, { x: 404, y: area.top - 3, align: 'left', baseline: 'bottom' });
    // The text box [y − font, y] lies between the canvas top and the plot area's top.
    assert.ok(place.y - thresholdLabelFontPx >= 0 && place.y < area.top);
  });

  it('goes left of the line when it does not fit right of it', () => {
    assert.deepEqual(thresholdLabelPlacement('x', 600, area, labelWidth, true), { x: 596, y: area.top - 3, align: 'right', baseline: 'bottom' });
  });

  it('inside the top of the plot when no room is kept, and above a horizontal line at the right', () => {
    assert.deepEqual(thresholdLabelPlacement('x', 400, area, labelWidth, false), { x: 404, y: area.top + 2, align: 'left', baseline: 'top' });
    assert.deepEqual(thresholdLabelPlacement('y', 150, area, labelWidth, false), { x: 618, y: 148, align: 'right', baseline: 'bottom' });
  });
});
