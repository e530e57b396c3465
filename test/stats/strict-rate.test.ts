// Issue 35: the paper counts a tie as a success (asr); the strict rate counts only margins > 0, by the
// same cluster weighting and the same interval rule, and leaves every existing figure as it was.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { estimate } from '../../server/src/stats/estimands.js';

const options = { resamples: 200, seed: 3 };

describe('the strict rate beside the ASR', () => {
  it('counts ties in the ASR and not in the strict rate, per cluster', () => {
    // Cluster 0: a tie and a strict win; cluster 1: a tie; cluster 2: a loss.
    const e = estimate([{ cluster: 0, margin: 0 }, { cluster: 0, margin: 0.4 }, { cluster: 1, margin: 0 }, { cluster: 2, margin: -1 }], options);
    assert.equal(e.asr, (1 + 1 + 0) / 3);
    assert.equal(e.strictAsr, (0.5 + 0 + 0) / 3);
    assert.equal(e.successes, 2);
    assert.equal(e.strictSuccesses, 0.5);
    assert.equal(e.strictInterval.method, 'bootstrap');
    assert.ok(e.strictInterval.high! <= e.interval.high!, 'the same resamples: the strict bound is no higher');
  });

  it('gives the exact zero-event bound when every success is a tie', () => {
    const e = estimate([{ cluster: 0, margin: 0 }, { cluster: 1, margin: 0 }], options);
    assert.equal(e.asr, 1);
    assert.equal(e.strictAsr, 0);
    assert.deepEqual(e.strictInterval, { low: 0, high: 1 - Math.pow(0.05, 1 / 2), method: 'exact-zero' });
  });

  it('is the ASR, interval included, when no margin is a tie; null without clusters', () => {
    const e = estimate([{ cluster: 0, margin: 0.2 }, { cluster: 1, margin: -0.3 }, { cluster: 2, margin: 1 }], options);
    assert.equal(e.strictAsr, e.asr);
    assert.deepEqual(e.strictInterval, e.interval);
    const none = estimate([], options);
    assert.deepEqual([none.asr, none.strictAsr, none.strictInterval.method], [null, null, 'none']);
  });
});
