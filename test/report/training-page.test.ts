import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { describe, it } from 'node:test';
import { forestRows, exposureView } from '../../server/src/render/report-page/training-chart-data.js';
import { report as reportSchema } from '../../server/src/report/schema.js';
import type { SignalReport } from '../../server/src/report/training-schema.js';
import type { ComparisonReport } from '../../server/src/report/training-schema.js';
import { thresholdLabelFontPx, thresholdLabelRoom } from '../../server/src/render/report-page/threshold-label.js';
import { drawnOn, runPage } from './page-runner.js';

// The report page of `herald signal` and `herald compare`: the exposure curve and the forest plot,
// their data checked against the report's own figures, and the view script run in jsdom.

function page(command: 'signal' | 'compare'): string {
  const out = path.join(mkdtempSync(path.join(tmpdir(), 'herald-page-')), `${command}.html`);
  const result = spawnSync(process.execPath, [path.resolve('dist/herald.js'), command, 'samples/training.reward', '--format', 'html', '--out', out], { encoding: 'utf8' });
  assert.ok(result.status === 0 || result.status === 1, result.stderr);
  return readFileSync(out, 'utf8');
}

function embedded<T>(html: string, pick: (r: ReturnType<typeof reportSchema.parse>) => T): T {
  const { window } = runPage(html);
  const json = JSON.parse(window.document.getElementById('herald-report')!.textContent!) as unknown;
  window.close();
  return pick(reportSchema.parse(json));
}

describe('exposure curve', () => {
  it('plots firing rows per step and the running count of changed groups, ending at the total', () => {
    const html = page('signal');
    const signal = embedded<SignalReport>(html, (r) => r.signals![0]!);
    const view = exposureView(signal);
    const L = view.lines[0]!;
    assert.deepEqual(view.steps, signal.steps.map((s) => s.step));
    assert.equal(L.firingRows.reduce((a, b) => a + b, 0), signal.detectors[0]!.firingRows);
    assert.equal(L.cumulativeChanged[L.cumulativeChanged.length - 1], signal.detectors[0]!.changedGroups);
    for (let i = 1; i < L.cumulativeChanged.length; i++) assert.ok(L.cumulativeChanged[i]! >= L.cumulativeChanged[i - 1]!);

    const { window, errors } = runPage(html);
    assert.deepEqual(errors, []);
    const chart = window.document.querySelector('[data-chart="exposure"]');
    assert.ok(chart !== null);
    assert.equal(chart.querySelector('canvas')?.style.display, 'block');
    assert.match(window.document.querySelector('section.signal .caption')?.textContent ?? '', /L: fires on \d+ of 1024 rows/);
    window.close();
  });
});

describe('forest plot', () => {
  it('has a row per metric and benchmark, treatment − base as in the table, its direction said on each row', () => {
    const html = page('compare');
    const comparison = embedded<ComparisonReport>(html, (r) => r.comparisons![0]!);
    const rows = forestRows(comparison);
    assert.equal(rows.length, comparison.metrics.reduce((n, m) => n + m.cells.length, 0));
    const incidence = comparison.metrics.find((m) => m.key === 'incidence:L')!.cells.find((c) => c.benchmark === 'equal-suite')!;
    const row = rows.find((r) => r.metric === 'incidence:L' && r.benchmark === 'equal-suite')!;
    // One sign convention everywhere: a reduction is negative, and the row says ↓ is better.
    assert.ok(Math.abs(row.estimate - incidence.difference! * 100) < 1e-9);
    assert.ok(Math.abs(row.low - incidence.interval.low! * 100) < 1e-9 && Math.abs(row.high - incidence.interval.high! * 100) < 1e-9);
    assert.equal(row.better, 'lower');
    assert.match(row.label, /\(↓ better\) · equal-suite$/);
    const em = comparison.metrics.find((m) => m.key === 'em')!.cells[0]!;
    assert.ok(Math.abs(rows[0]!.low - em.interval.low! * 100) < 1e-9);
    assert.match(rows[0]!.label, /^EM \(↑ better\)/);
    assert.match(html, /Every row is treatment − base, in points/);

    const { window, errors } = runPage(html, 800);
    assert.deepEqual(errors, []);
    const chart = window.document.querySelector<HTMLElement>('[data-chart="forest"]');
    assert.ok(chart !== null);
    assert.equal(chart.querySelector('canvas')?.style.display, 'block');
    assert.equal(chart.style.height, `${60 + thresholdLabelRoom + 22 * rows.length}px`);
    // The "no change" label is drawn above every bar (the interval, whisker to whisker): its text
    // box, baseline at the bottom, ends above the highest bar and starts inside the canvas.
    const drawn = drawnOn(chart.querySelector('canvas')!);
    const label = drawn.texts.find((t) => t.text === 'no change');
    assert.ok(label !== undefined, JSON.stringify(drawn.texts.map((t) => t.text)));
    assert.equal(label.baseline, 'bottom');
    // Bars are the rectangles no taller than a row's 22 px band (the others are the canvas and the plot area).
    const bars = drawn.rects.filter((r) => r.h > 0 && r.h <= 22);
    assert.ok(bars.length >= rows.length, `${bars.length} bars drawn`);
    const highestBar = Math.min(...bars.map((r) => r.y));
    assert.ok(label.y <= highestBar && label.y - thresholdLabelFontPx >= 0, `label at ${label.y}, bars from ${highestBar}`);
    assert.equal(window.document.querySelectorAll('section.comparison li.chip').length, comparison.benchmarks.length);
    window.close();
  });
});
