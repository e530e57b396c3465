import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { hierarchicalDifference, perRunValues, runSpread } from '../../server/src/stats/hierarchical-bootstrap.js';

// The reference: the documented scheme written again, independently of the engine. Per resample,
// from one mulberry32 stream: base runs, treatment runs, then each benchmark's questions.
function mulberry32(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

type Matrix = { base: number[][]; treatment: number[][] };

function reference(benchmarks: Matrix[], resamples: number, seed: number): [number, number] {
  const next = mulberry32(seed);
  const pick = (n: number): number => Math.floor(next() * n);
  const stats: number[] = [];
  for (let r = 0; r < resamples; r++) {
    const b = benchmarks[0]!.base.map(() => pick(benchmarks[0]!.base.length));
    const t = benchmarks[0]!.treatment.map(() => pick(benchmarks[0]!.treatment.length));
    let suite = 0;
    for (const m of benchmarks) {
      const n = m.base[0]!.length;
      let sum = 0;
      for (let i = 0; i < n; i++) {
        const q = pick(n);
        const tm = t.reduce((s, run) => s + m.treatment[run]![q]!, 0) / t.length;
        const bm = b.reduce((s, run) => s + m.base[run]![q]!, 0) / b.length;
        sum += tm - bm;
      }
      suite += sum / n;
    }
    stats.push(suite / benchmarks.length);
  }
  stats.sort((x, y) => x - y);
  const at = (p: number): number => {
    const h = (stats.length - 1) * p;
    const lo = Math.floor(h);
    return stats[lo]! + (h - lo) * (stats[Math.ceil(h)]! - stats[lo]!);
  };
  return [at(0.025), at(0.975)];
}

describe('hierarchical bootstrap (runs within arm, then questions)', () => {
  it('a hand-built case where only runs vary: the interval is the run draws\' extremes', () => {
    // Base runs score 0 and 1 on every question, treatment runs 0.5: the statistic is 0.5 − (mean of
    // two drawn base runs) ∈ {+0.5 (p 1/4), 0 (1/2), −0.5 (1/4)}, so the 95% interval is exactly [−0.5, +0.5].
    const matrix = { base: [[0, 0, 0], [1, 1, 1]], treatment: [[0.5, 0.5, 0.5], [0.5, 0.5, 0.5]] };
    const { estimate, interval } = hierarchicalDifference([matrix], 2000, 11);
    assert.equal(estimate, 0);
    assert.deepEqual(interval, { low: -0.5, high: 0.5, method: 'hierarchical-bootstrap' });
  });

  it('questions that differ, one run per arm: resamples questions only (the run draw is always run 0)', () => {
    const matrix = { base: [[0, 1, 0, 1]], treatment: [[1, 1, 0, 1]] };
    const { estimate, interval } = hierarchicalDifference([matrix], 1000, 3);
    assert.equal(estimate, 0.25);
    const [low, high] = reference([matrix], 1000, 3);
    assert.deepEqual([interval.low, interval.high], [low, high]);
    assert.equal(low, 0);
    assert.equal(high, 0.75);
  });

  it('three runs, two benchmarks (equal-suite): the engine matches the independent reference exactly', () => {
    const a = { base: [[1, 0, 1, 1, 0], [0, 0, 1, 1, 0], [1, 1, 1, 0, 0]], treatment: [[1, 1, 1, 1, 0], [1, 0, 1, 1, 1], [0, 1, 1, 1, 0]] };
    const b = { base: [[0, 0, 1], [0, 1, 1], [0, 0, 0]], treatment: [[1, 0, 1], [0, 1, 1], [1, 1, 1]] };
    const { estimate, interval } = hierarchicalDifference([a, b], 500, 7);
    // Per question, the sum over runs: treatment 2 2 3 3 1, base 2 1 3 2 0; treatment 2 2 3, base 0 1 2.
    const diffA = (11 - 8) / 3 / 5;
    const diffB = (7 - 3) / 3 / 3;
    assert.ok(Math.abs(estimate! - (diffA + diffB) / 2) < 1e-12);
    assert.deepEqual([interval.low, interval.high], reference([a, b], 500, 7));
  });

  it('no question: no estimate and no interval (null, never 0)', () => {
    assert.deepEqual(hierarchicalDifference([{ base: [[]], treatment: [[]] }], 100, 1), { estimate: null, interval: { low: null, high: null, method: 'none' } });
  });
});

describe('between-run spread', () => {
  it('one run: SD and range are not estimated (null)', () => {
    assert.deepEqual(runSpread([0.4]), { values: [0.4], sd: null, range: null });
  });
  it('several runs: sample SD (n − 1) and range', () => {
    const s = runSpread([0.1, 0.2, 0.6]);
    assert.ok(Math.abs(s.sd! - Math.sqrt(((0.1 - 0.3) ** 2 + (0.2 - 0.3) ** 2 + (0.6 - 0.3) ** 2) / 2)) < 1e-12);
    assert.ok(Math.abs(s.range! - 0.5) < 1e-12);
  });
  it('per-run values average each benchmark over its questions, then the benchmarks', () => {
    const a = { base: [[1, 0], [0, 0]], treatment: [[1, 1], [1, 1]] };
    const b = { base: [[1, 1, 1, 1], [0, 0, 0, 1]], treatment: [[0, 0, 0, 0], [0, 0, 0, 0]] };
    assert.deepEqual(perRunValues([a, b], 'base'), [0.75, 0.125]);
  });
});
