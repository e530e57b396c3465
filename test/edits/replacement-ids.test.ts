// Each kept edit's replacement id is kept as its place in the corpus, or as a string when it is not a
// corpus id, or as none; selected, joined and sent to another thread, every edit still reads back
// the id it was given.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { JoinedReplacementIds, ReplacementIdsBuilder, replacementAt, selectReplacements, type ReplacementIds } from '../../server/src/edits/replacement-ids.js';
import { partOnWire } from '../../server/src/threads/parallel-prepare.js';
import type { PreparedPart } from '../../server/src/edits/prepare.js';
import { corpusEnv } from '../../server/src/language/eval-env.js';

const passages = new Map(['w:1', 'w:2', 'w:3'].map((id) => [id, { id, title: id, text: `passage ${id}` }]));
const order = corpusEnv({ file: 'corpus.jsonl', passages }).corpusOrder();

function built(ids: readonly (string | undefined)[]): ReplacementIds {
  const builder = new ReplacementIdsBuilder(order);
  for (const id of ids) builder.push(id);
  return builder.finish();
}

const readBack = (ids: ReplacementIds): (string | undefined)[] => Array.from(ids.places, (_, e) => replacementAt(ids, e));

describe('replacement ids', () => {
  // More than the builder's first 1,024 slots, so it grows; 'r:9' is a retrieved id outside the corpus.
  const given = Array.from({ length: 2500 }, (_, e) => [undefined, 'w:3', 'r:9', 'w:1', `r:${e}`][e % 5]);

  it('read back as given: corpus ids as places, other ids as strings, none as none', () => {
    const ids = built(given);
    assert.deepEqual(readBack(ids), given);
    assert.equal(ids.places[1], 2, 'w:3 is the third passage');
    assert.equal(ids.others.size, 1000, 'only the ids outside the corpus are strings');
  });

  it('selected and joined, each edit keeps its id', () => {
    const ids = built(given);
    const edits = [2, 4, 5, 1, 2499, 0];
    assert.deepEqual(readBack(selectReplacements(ids, edits)), edits.map((e) => given[e]));

    const second = built(['r:x', 'w:2', undefined]);
    const joined = new JoinedReplacementIds(5, order.ids);
    joined.set(0, second, 1);
    joined.set(1, ids, 2);
    joined.set(2, second, 0);
    joined.set(3, ids, 0);
    joined.set(4, ids, 4);
    assert.deepEqual(readBack(joined.finish()), ['w:2', 'r:9', 'r:x', undefined, 'r:4']);
  });

  it('travel to the calling thread without the corpus ids, which it has in the same order', () => {
    const ids = built(given);
    const run = { rowFlags: new Uint8Array(1), constructible: 0, eligible: 0, editRow: new Int32Array(0), editPosition: new Int32Array(0), editOrdinal: new Int32Array(0), editReplacement: ids, changes: { columns: new Int32Array(0), vectors: new Float64Array(0), vectorOf: new Int32Array(0) }, detectorBits: new Uint32Array(0), unrendered: { edits: 0 }, targetActive: [], targetFlips: [], otherChanges: [] };
    const part: PreparedPart = { originalValues: new Float64Array(0), originalMetrics: new Float64Array(0), runs: [run], drops: [] };
    const { wire, transfers } = partOnWire(part);
    assert.deepEqual(wire.runs[0]!.editReplacement.corpusIds, [], 'no corpus id is sent');
    const received = structuredClone(wire, { transfer: transfers });
    assert.deepEqual(readBack({ ...received.runs[0]!.editReplacement, corpusIds: order.ids }), given);
  });
});
