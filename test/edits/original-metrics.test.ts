// Each original's contract compatibility and selection metrics are evaluated with its features, per
// row range, and joined in row order: the values one pass over every row gives, metric by metric.
import assert from 'node:assert/strict';
import * as path from 'node:path';
import { describe, it } from 'node:test';
import { evaluateMetrics, isContractCompatible, joinMetrics, metricColumn } from '../../server/src/edits/original-metrics.js';
import { loadCorpus, loadPool } from '../../server/src/inputs/loaders.js';
import { corpusEnv } from '../../server/src/language/eval-env.js';
import { viewOf } from '../../server/src/language/view.js';

describe('original metrics', () => {
  it('ranges joined in row order give what one pass gives, and each column is its metric', async () => {
    const corpus = await loadCorpus(path.resolve('samples/pools/corpus.jsonl'));
    const pool = await loadPool(path.resolve('samples/pools/hotpot.jsonl'), 'hotpot');
    const env = corpusEnv(corpus.corpus);
    const views = pool.items.map(viewOf);
    const n = views.length;
    assert.ok(n > 20);
    const whole = evaluateMetrics(views, env);
    const cuts = [0, 7, Math.floor(n / 2), n];
    const parts = cuts.slice(1).map((to, i) => ({ from: cuts[i]!, values: evaluateMetrics(views.slice(cuts[i]!, to), env) }));
    assert.deepEqual(joinMetrics(parts, n), whole);
    const compatible = metricColumn(whole, n, 'compatible');
    assert.deepEqual(Array.from(compatible), views.map((v) => (isContractCompatible(v, env) ? 1 : 0)));
    assert.ok(compatible.includes(1) && compatible.includes(0), 'the sample has rows on both sides of the contract');
    assert.deepEqual(Array.from(metricColumn(whole, n, 'searchCalls')), views.map((v) => v.searches.length));
    assert.deepEqual(Array.from(metricColumn(whole, n, 'validFinal')), views.map((v) => (v.hasFinal ? 1 : 0)));
  });
});
