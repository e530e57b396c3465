import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { createRanker, type RankFunction } from '../../../server/src/candidates/ranker.js';

// A ranking function that records how often it runs and the limits it was asked for: text "n"
// ranks ids r0 … r(n-1).
function counted(): { rankAll: RankFunction; calls: () => number; limits: number[] } {
  let calls = 0;
  const limits: number[] = [];
  return {
    rankAll: (text, limit) => {
      calls += 1;
      limits.push(limit);
      const all = Array.from({ length: Number(text) }, (_, i) => `r${i}`);
      return { ids: all.slice(0, limit), complete: all.length <= limit };
    },
    calls: () => calls,
    limits,
  };
}

describe('ranker', () => {
  it('takes the top ids after exclusions, at most the limit', () => {
    const { rankAll } = counted();
    const ranker = createRanker(rankAll);
    assert.deepEqual(ranker.top('5', new Set(['r0', 'r2']), 2), ['r1', 'r3']);
    assert.deepEqual(ranker.top('5', new Set(), 0), []);
    assert.deepEqual(ranker.top('3', new Set(['r1']), 10), ['r0', 'r2']);
  });

  it('ranks a text once however many budgets and positions ask', () => {
    const { rankAll, calls } = counted();
    const ranker = createRanker(rankAll);
    for (const limit of [1, 2, 4, 8, 16]) ranker.top('20', new Set(['r3']), limit);
    assert.equal(calls(), 1);
  });

  it('re-ranks when the remembered prefix runs out, with the same answer as no memo', () => {
    const { rankAll, calls, limits } = counted();
    const ranker = createRanker(rankAll, { prefix: 3 });
    ranker.top('10', new Set(), 1);
    assert.deepEqual(ranker.top('10', new Set(['r0', 'r1']), 4), ['r2', 'r3', 'r4', 'r5']);
    assert.equal(calls(), 2);
    assert.deepEqual(limits, [3, Infinity], 'the memo asks for its prefix only, and for the rest when it runs out');
    assert.deepEqual(ranker.top('10', new Set(), 3), ['r0', 'r1', 'r2']);
    assert.equal(calls(), 2, 'a request the prefix can serve does not re-rank');
  });

  it('forgets the least recently used text beyond its capacity', () => {
    const { rankAll, calls } = counted();
    const ranker = createRanker(rankAll, { capacity: 2 });
    ranker.top('1', new Set(), 1);
    ranker.top('2', new Set(), 1);
    ranker.top('1', new Set(), 1); // "1" is now more recent than "2"
    ranker.top('3', new Set(), 1); // evicts "2"
    assert.equal(calls(), 3);
    ranker.top('1', new Set(), 1);
    assert.equal(calls(), 3);
    ranker.top('2', new Set(), 1);
    assert.equal(calls(), 4);
  });
});
