import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { binOf, histogramBins, histogramEdges } from '../../server/src/audit/margin-histogram.js';
import { goldenAudit } from '../helpers/golden-audit.js';

// The bins behind the report page's margin charts: fixed per attack, on a rounded step, with 0 (the
// success threshold) an edge, so a tie lands on the winning side.

const niceSteps = new Set([1, 2, 2.5, 5]);

function assertEdges(edges: readonly number[], min: number, max: number): void {
  assert.equal(edges.length, histogramBins + 1);
  const step = edges[1]! - edges[0]!;
  for (let i = 1; i < edges.length; i++) assert.ok(Math.abs(edges[i]! - edges[i - 1]! - step) < 1e-9 * Math.max(1, Math.abs(step)), `equal steps at ${i}`);
  const mantissa = Number((step / 10 ** Math.floor(Math.log10(step))).toPrecision(6));
  assert.ok(niceSteps.has(mantissa), `step ${step}`);
  assert.ok(edges[0]! <= min && edges[edges.length - 1]! >= max, `[${edges[0]}, ${edges.at(-1)}] covers [${min}, ${max}]`);
}

describe('margin histogram bins', () => {
  it('cover the margins on a rounded step with 0 among the edges', () => {
    for (const [min, max] of [[-1.2, 0.81375], [-2.8, 1.9], [-0.38625, 0.41375], [-5, 5], [-0.001, 0.0004]] as const) {
      const edges = histogramEdges(min, max);
      assertEdges(edges, min, max);
      assert.ok(edges.includes(0), `0 is an edge for [${min}, ${max}]`);
    }
    assert.deepEqual(histogramEdges(-1.2, 0.81375).slice(0, 3), [-1.3, -1.2, -1.1]);
  });

  it('still cover a single value', () => {
    for (const v of [-1.2, 0, 0.3, 1e-9]) assertEdges(histogramEdges(v, v), v, v);
  });

  it('put a value on an edge in the bin that starts there, and the maximum in the last bin', () => {
    const edges = histogramEdges(-1.2, 0.81375);
    assert.equal(edges[binOf(edges, 0)], 0);
    assert.equal(binOf(edges, -1e-12), edges.indexOf(0) - 1);
    assert.equal(binOf(edges, edges[edges.length - 1]!), histogramBins - 1);
    assert.equal(binOf(edges, edges[0]!), 0);
    for (let i = 0; i < histogramBins; i++) assert.equal(binOf(edges, edges[i]!), i);
  });

  it('count every isolated-eligible trajectory of the golden audit once per series', () => {
    for (const attack of goldenAudit().attacks) {
      const { edges, series } = attack.marginHistogram;
      assert.equal(edges.length, histogramBins + 1);
      assert.deepEqual(series.map((s) => s.reward), ['R0', 'R0', 'R_L', 'R_L', 'R_full', 'R_full', 'R0[L]', 'R0[L]']);
      for (const s of series) assert.equal(s.counts.reduce((a, b) => a + b, 0), attack.counts.rows.isolatedEligible);
    }
  });
});
