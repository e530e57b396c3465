import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { clusterByQuestion } from '../../server/src/pool/clusters.js';

describe('clusterByQuestion', () => {
  it('groups rows by question id across pools, keeping input order', () => {
    const rows = [
      { id: 'a#1', question_id: 'qa', pool: 'p1' },
      { id: 'b#1', question_id: 'qb', pool: 'p1' },
      { id: 'a#2', question_id: 'qa', pool: 'p2' },
      { id: 'c#1', question_id: 'qc', pool: 'p2' },
      { id: 'b#2', question_id: 'qb', pool: 'p2' },
    ];
    const clusters = clusterByQuestion(rows);
    assert.deepEqual([...clusters.keys()], ['qa', 'qb', 'qc']);
    assert.deepEqual(clusters.get('qa')?.map((r) => r.id), ['a#1', 'a#2']);
    assert.deepEqual(clusters.get('qb')?.map((r) => r.id), ['b#1', 'b#2']);
    assert.deepEqual(clusters.get('qc')?.map((r) => r.id), ['c#1']);
  });

  it('gives no clusters for no rows', () => {
    assert.equal(clusterByQuestion([]).size, 0);
  });
});
