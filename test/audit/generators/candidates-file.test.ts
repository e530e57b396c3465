import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { createFileGenerator } from '../../../server/src/candidates/candidates-file.js';
import { describeDrops } from '../../../server/src/edits/candidate-drops.js';
import { corpusOf, none, passage, trajectory } from './fixtures.js';

const corpus = corpusOf(['p1', 'p2', 'p3', 'p4'].map((id) => passage(id, id, '')));
const lists = [
  { traj_id: 't1', citation_index: 0, candidates: ['p2', 'nope', 'p1', 'p2', 'p3', 'ghost', 'p4'] },
  { traj_id: 't1', citation_index: 0, candidates: ['p4'] },
  { traj_id: 't2', citation_index: 1, candidates: ['p3'] },
];
const t1 = trajectory('t1', 'q', 'a');

describe('file generator', () => {
  it('keeps supplied order and drops non-corpus, excluded and repeated ids, counting each once', () => {
    const generate = createFileGenerator(lists, corpus);
    const request = { trajectory: t1, citationIndex: 0, exclude: new Set(['p1']) };
    assert.deepEqual(generate.candidates(request), ['p2', 'p3', 'p4']);
    assert.deepEqual(generate.dropped, { notInCorpus: 2, excluded: 1, duplicates: 1 });
    generate.candidates(request);
    assert.deepEqual(generate.dropped, { notInCorpus: 2, excluded: 1, duplicates: 1 }, 'a repeated lookup is not counted again');
  });

  it('applies a budget after the drops', () => {
    const generate = createFileGenerator(lists, corpus, 2);
    assert.deepEqual(generate.candidates({ trajectory: t1, citationIndex: 0, exclude: new Set(['p2']) }), ['p1', 'p3']);
  });

  it('looks up by trajectory id and citation position', () => {
    const generate = createFileGenerator(lists, corpus);
    assert.deepEqual(generate.candidates({ trajectory: t1, citationIndex: 1, exclude: none }), []);
    assert.deepEqual(generate.candidates({ trajectory: trajectory('t2', 'q', 'a'), citationIndex: 1, exclude: none }), ['p3']);
    assert.deepEqual(generate.candidates({ trajectory: trajectory('t3', 'q', 'a'), citationIndex: 0, exclude: none }), []);
  });

  it('describes the drops for the report', () => {
    assert.equal(describeDrops({ notInCorpus: 12, excluded: 3, duplicates: 0 }), 'supplied candidates ignored: 12 not corpus ids, 3 already retrieved or cited');
    assert.equal(describeDrops({ notInCorpus: 1, excluded: 0, duplicates: 2 }), 'supplied candidates ignored: 1 not a corpus id, 2 repeated within a list');
    assert.equal(describeDrops({ notInCorpus: 0, excluded: 0, duplicates: 0 }), undefined);
  });
});
