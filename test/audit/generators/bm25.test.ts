import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { bm25IndexOf, buildBm25Index, commonWordMinimum, commonWordShare, createBm25Generator, loadedBm25Index, rankBm25, storedBm25Index } from '../../../server/src/candidates/bm25.js';
import { indexBytes, indexOfBytes, type StoredIndex } from '../../../server/src/inputs/index-cache.js';
import { corpusOf, none, passage, trajectory } from './fixtures.js';

// "apple" is in four of five passages, "zebra" in one: the rare shared term should win even
// against passages that repeat the common one.
const corpus = corpusOf([
  passage('b1', 'Orchard', 'apple apple orchard apple'),
  passage('b2', 'Pie', 'apple pie recipe'),
  passage('b3', 'Savanna', 'the zebra grazes near the river'),
  passage('b4', 'Tree', 'apple tree apple'),
  passage('b5', 'Pie', 'apple pie recipe'),
  passage('b6', 'Bread', 'rye bread'),
]);
const index = buildBm25Index(corpus);
const request = (exclude: ReadonlySet<string> = none) => ({ trajectory: trajectory('t', 'Where does an apple meet a zebra?', ''), citationIndex: 0, exclude });

describe('bm25 generator', () => {
  it('puts the passage with the rare shared term first', () => {
    assert.equal(createBm25Generator(index, 8).candidates(request())[0], 'b3');
  });

  it('proposes only passages sharing a term, at most the budget', () => {
    const all = createBm25Generator(index, 16).candidates(request());
    assert.deepEqual([...all].sort(), ['b1', 'b2', 'b3', 'b4', 'b5']);
    assert.deepEqual(createBm25Generator(index, 2).candidates(request()), all.slice(0, 2));
    assert.deepEqual(createBm25Generator(index, 0).candidates(request()), []);
  });

  it('skips excluded ids and fills the budget from further down', () => {
    const all = createBm25Generator(index, 16).candidates(request());
    const withoutTop = createBm25Generator(index, 2).candidates(request(new Set(['b3'])));
    assert.deepEqual(withoutTop, all.filter((id) => id !== 'b3').slice(0, 2));
  });

  it('breaks equal scores by corpus file order', () => {
    const ranked = rankBm25(index.search, index.order, 'pie recipe').ids;
    assert.deepEqual(ranked, ['b2', 'b5']);
    const reversed = buildBm25Index(corpusOf([...corpus.passages.values()].reverse()));
    assert.deepEqual(rankBm25(reversed.search, reversed.order, 'pie recipe').ids, ['b5', 'b2']);
  });

  it('reads the answer as well as the question', () => {
    const generate = createBm25Generator(index, 1);
    assert.deepEqual(generate.candidates({ trajectory: trajectory('t', 'Which food?', 'rye bread'), citationIndex: 0, exclude: none }), ['b6']);
  });

  it('matches titles too', () => {
    assert.deepEqual(rankBm25(index.search, index.order, 'savanna'), { ids: ['b3'], complete: true });
  });

  it('builds its own index from a corpus with the same result', () => {
    assert.deepEqual(createBm25Generator(corpus, 4).candidates(request()), createBm25Generator(index, 4).candidates(request()));
    assert.equal(createBm25Generator(index, 4).label, 'bm25(4)');
  });

  it('keeps every word of a small corpus, even one in most passages', () => {
    assert.equal(index.common.size, 0);
    assert.equal(rankBm25(index.search, index.order, 'apple').ids.length, 4);
  });

  it('leaves out words in more than 1% of a large corpus\'s passages, and keeps the rest', () => {
    // 2,000 passages, so the limit is the minimum (1,000 > 1% of 2,000): "entry" is in all of them,
    // "city" in 1,001 and "harbour" in exactly 1,000.
    const size = 2000;
    assert.ok(commonWordMinimum > commonWordShare * size);
    const large = corpusOf(Array.from({ length: size }, (_, i) => passage(
      `p${i}`, `Entry ${i}`,
      [i < commonWordMinimum + 1 ? 'city' : '', i < commonWordMinimum ? 'harbour' : '', i === 1500 ? 'lighthouse' : ''].join(' '),
    )));
    const big = buildBm25Index(large);
    assert.deepEqual([...big.common].sort(), ['city', 'entry']);
    assert.deepEqual(rankBm25(big.search, big.order, 'entry city').ids, [], 'a query of common words alone matches nothing');
    assert.equal(rankBm25(big.search, big.order, 'harbour').ids.length, commonWordMinimum);
    const generate = createBm25Generator(big, 1);
    assert.deepEqual(generate.candidates({ trajectory: trajectory('t', 'Which city entry has a lighthouse?', ''), citationIndex: 0, exclude: none }), ['p1500']);
  });

  it('gives the first ids of the full ranking when asked for a prefix, ties cut at the limit included', () => {
    // Two runs of equal scores: the twenty passages with both words, then the ten with only
    // "kettle" and the ten with only "lamp". MiniSearch meets the second run out of file order
    // (the "kettle" passages first, as the query's first word), so the run must be ordered, and a
    // limit inside it must still order all of it.
    const words = ['lamp', 'kettle', 'kettle lamp', 'lamp kettle'];
    const tied = corpusOf(Array.from({ length: 40 }, (_, i) => passage(`t${i}`, 'Note', words[i % 4]!)));
    const built = buildBm25Index(tied);
    assert.deepEqual(rankBm25(built.search, built.order, 'kettle lamp').ids.slice(20, 24), ['t0', 't1', 't4', 't5']);
    for (const query of ['kettle lamp', 'lamp kettle', 'lamp', 'kettle note']) {
      const full = rankBm25(built.search, built.order, query);
      assert.equal(full.complete, true);
      for (const limit of [0, 1, 5, 20, 21, 25, 39, full.ids.length, full.ids.length + 3]) {
        const prefix = rankBm25(built.search, built.order, query, limit);
        assert.deepEqual(prefix.ids, full.ids.slice(0, limit), `${query}, first ${limit}`);
        assert.equal(prefix.complete, full.ids.length <= limit, `${query}, first ${limit}`);
      }
    }
  });

  it('loads from its stored bytes with the same rankings, score for score, common words and ties included', () => {
    const words = Array.from({ length: 1200 }, (_, i) => passage(`p${i}`, i % 7 === 0 ? 'Pie' : 'Tree', `common apple ${i % 5 === 0 ? 'zebra' : 'river'} w${i % 37}`));
    const large = corpusOf(words);
    const built = buildBm25Index(large);
    assert.ok(built.common.size > 0);
    const bytes = indexBytes('corpus-hash', storedBm25Index(built));
    const stored = indexOfBytes(bytes, 'corpus-hash');
    assert.ok(stored);
    const loaded = loadedBm25Index(large, stored);
    assert.deepEqual([...loaded.common], [...built.common]);
    for (const query of ['apple zebra', 'pie', 'tree river w3', 'common', 'w12 w13 savanna', '']) {
      assert.deepEqual(loaded.search.search(query, { combineWith: 'OR' }), built.search.search(query, { combineWith: 'OR' }), query);
      assert.deepEqual(rankBm25(loaded.search, loaded.order, query, 10), rankBm25(built.search, built.order, query, 10), query);
    }
  });

  it('is built again, and kept, when what is stored is another corpus\'s, damaged or unreadable', () => {
    const bytes = indexBytes('corpus-hash', storedBm25Index(index));
    assert.equal(indexOfBytes(bytes, 'another-hash'), undefined);
    assert.equal(indexOfBytes(bytes.subarray(0, bytes.length - 9), 'corpus-hash'), undefined);
    assert.equal(indexOfBytes(Buffer.from('{"version": "index-v1"}'), 'corpus-hash'), undefined);
    const kept: StoredIndex[] = [];
    const rebuilt = bm25IndexOf(corpus, { common: [], search: { notAnIndex: true } }, (stored) => kept.push(stored));
    assert.equal(kept.length, 1);
    assert.deepEqual(rankBm25(rebuilt.search, rebuilt.order, 'pie recipe'), rankBm25(index.search, index.order, 'pie recipe'));
    const reused: StoredIndex[] = [];
    bm25IndexOf(corpus, kept[0], (stored) => reused.push(stored));
    assert.equal(reused.length, 0, 'a stored index that loads is not written again');
  });
});
