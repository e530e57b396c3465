import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { loadCandidates } from '../../server/src/inputs/loaders.js';
import { jsonl, tempDir } from './temp-files.js';

describe('loadCandidates', () => {
  const tmp = tempDir();

  it('loads candidate lists', async () => {
    const file = tmp.write('cands.jsonl', jsonl([
      { traj_id: 't1', citation_index: 0, candidates: ['w:9', 'w:17'], source: 'dense' },
      { traj_id: 't1', citation_index: 1, candidates: [] },
    ]));
    const loaded = await loadCandidates(file);
    assert.deepEqual(loaded.issues, []);
    assert.deepEqual(loaded.items, [
      { traj_id: 't1', citation_index: 0, candidates: ['w:9', 'w:17'] },
      { traj_id: 't1', citation_index: 1, candidates: [] },
    ]);
  });

  it('rejects bad indices, bad lists, missing ids and repeated positions', async () => {
    const file = tmp.write('bad.jsonl', jsonl([
      { traj_id: 't1', citation_index: -1, candidates: [] },
      { traj_id: 't1', citation_index: 0.5, candidates: [] },
      { traj_id: 't1', citation_index: '0', candidates: [] },
      { traj_id: 't1', citation_index: 0, candidates: 'w:9' },
      { traj_id: 't1', citation_index: 0, candidates: ['w:9', null] },
      { citation_index: 0, candidates: [] },
      { traj_id: 't2', citation_index: 0, candidates: ['w:1'] },
      { traj_id: 't2', citation_index: 0, candidates: ['w:2'] },
    ]));
    const loaded = await loadCandidates(file);
    assert.deepEqual(loaded.items, [{ traj_id: 't2', citation_index: 0, candidates: ['w:1'] }]);
    assert.deepEqual(loaded.issues.map((i) => [i.line, i.reason]), [
      [1, 'citation_index: must be at least 0'],
      [2, 'citation_index: expected an integer, got a fractional number'],
      [3, 'citation_index: expected a number, got a string'],
      [4, 'candidates: expected an array, got a string'],
      [5, 'candidates: expected an array of strings (item 1 is null)'],
      [6, "missing field 'traj_id'"],
      [8, "duplicate candidate list for traj_id 't2', citation_index 0 (first on line 7)"],
    ]);
  });
});
