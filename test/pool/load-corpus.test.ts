import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { loadCorpus } from '../../server/src/inputs/loaders.js';
import { jsonl, tempDir } from './temp-files.js';

describe('loadCorpus', () => {
  const tmp = tempDir();

  it('loads passages by id in file order', async () => {
    const file = tmp.write('corpus.jsonl', jsonl([
      { id: 'w:2', title: 'B', text: 'bee', source: 'extra keys are fine' },
      { id: 'w:1', title: '', text: 'no title is an empty title', url: 'https://example.org/w1' },
    ]));
    const loaded = await loadCorpus(file);
    assert.deepEqual(loaded.issues, []);
    assert.equal(loaded.corpus.file, file);
    assert.deepEqual([...loaded.corpus.passages.keys()], ['w:2', 'w:1']);
    assert.deepEqual(loaded.corpus.passages.get('w:2'), { id: 'w:2', title: 'B', text: 'bee' });
    // A url is kept (v2 pools resolve result objects by it), and absent when not given.
    assert.deepEqual(loaded.corpus.passages.get('w:1'), { id: 'w:1', title: '', text: 'no title is an empty title', url: 'https://example.org/w1' });
    assert.deepEqual(loaded.items.map((p) => p.id), ['w:2', 'w:1']);
  });

  it('keeps the first of duplicate passage ids', async () => {
    const file = tmp.write('dup.jsonl', jsonl([{ id: 'a', title: 'first', text: '' }, { id: 'b', title: '', text: '' }, { id: 'a', title: 'second', text: '' }]));
    const loaded = await loadCorpus(file);
    assert.equal(loaded.corpus.passages.get('a')?.title, 'first');
    assert.equal(loaded.corpus.passages.size, 2);
    assert.deepEqual(loaded.issues, [{ file, line: 3, reason: "duplicate passage id 'a' (first on line 1)" }]);
  });

  it('reports missing and mistyped fields', async () => {
    const file = tmp.write('bad.jsonl', jsonl([{ id: 'a', text: 'no title' }, { id: 'b', title: 'ok', text: 3 }, { id: '', title: '', text: '' }, { id: 'c', title: '', text: '' }]));
    const loaded = await loadCorpus(file);
    assert.deepEqual([...loaded.corpus.passages.keys()], ['c']);
    assert.deepEqual(loaded.issues.map((i) => [i.line, i.reason]), [
      [1, "missing field 'title'"],
      [2, 'text: expected a string, got an integer'],
      [3, 'id: must not be empty'],
    ]);
  });

  it('a missing corpus is an empty corpus with a file error', async () => {
    const loaded = await loadCorpus(`${tmp.dir}/none.jsonl`);
    assert.equal(loaded.corpus.passages.size, 0);
    assert.match(loaded.fileError ?? '', /file not found/);
  });
});
