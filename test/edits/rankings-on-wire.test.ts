// Rankings cross between threads as corpus places: what is packed reads back as the same ids and
// completeness in the receiving thread, a ranking that names an id outside the corpus is left out
// (the receiver ranks that text again), and each take starts a fresh batch.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { MessageChannel, receiveMessageOnPort } from 'node:worker_threads';
import type { Ranking } from '../../server/src/inputs/ranking-cache.js';
import { corpusEnv } from '../../server/src/language/eval-env.js';
import { rankingBuffers, RankingsPacker, unpackRankings, type RankingsOnWire } from '../../server/src/threads/rankings-on-wire.js';

const passages = new Map(Array.from({ length: 50 }, (_, i) => `w:${i}`).map((id) => [id, { id, title: id, text: `passage ${id}` }]));
const order = corpusEnv({ file: 'corpus.jsonl', passages }).corpusOrder();

function unpacked(wire: RankingsOnWire): Map<string, Ranking> {
  const read = new Map<string, Ranking>();
  unpackRankings(wire, order.ids, (text, ranked) => read.set(text, ranked));
  return read;
}

describe('rankings on the wire', () => {
  // 300 rankings of 20 ids are more than the packer's first 4,096 places, so it grows.
  const given = Array.from({ length: 300 }, (_, t) => [`question ${t}`, { ids: Array.from({ length: 20 }, (_, i) => `w:${(t * 7 + i * 3) % 50}`), complete: t % 3 === 0 }] as const);

  it('read back as packed, from ids or places, through a structured clone with the buffers handed over', () => {
    const packer = new RankingsPacker('bm25', order);
    // Every other ranking as places already, as the ranking cache keeps them.
    given.forEach(([text, ranked], t) => {
      if (t % 2 === 0) assert.equal(packer.add(text, ranked), true);
      else packer.addPlaces(text, { places: Int32Array.from(ranked.ids, (id) => order.places.get(id)!), complete: ranked.complete });
    });
    packer.add('nothing ranked', { ids: [], complete: true });
    const wire = packer.take();
    const { port1, port2 } = new MessageChannel();
    port1.postMessage(wire, rankingBuffers([wire]));
    const received = receiveMessageOnPort(port2)!.message as RankingsOnWire;
    port1.close();
    assert.equal(wire.places.byteLength, 0, 'the buffers were handed over, not copied');
    assert.equal(received.generator, 'bm25');
    assert.deepEqual(unpacked(received), new Map([...given, ['nothing ranked', { ids: [], complete: true }]]));
  });

  it('leaves out a ranking with an id outside the corpus, and each take starts anew', () => {
    const packer = new RankingsPacker('lexical', order);
    assert.equal(packer.add('a', { ids: ['w:1', 'w:2'], complete: false }), true);
    assert.equal(packer.add('b', { ids: ['w:3', 'r:outside', 'w:4'], complete: true }), false);
    assert.equal(packer.add('c', { ids: ['w:5'], complete: true }), true);
    assert.equal(packer.size, 2);
    assert.deepEqual(unpacked(packer.take()), new Map([['a', { ids: ['w:1', 'w:2'], complete: false }], ['c', { ids: ['w:5'], complete: true }]]));
    assert.equal(packer.size, 0);
    packer.add('d', { ids: ['w:9'], complete: false });
    assert.deepEqual(unpacked(packer.take()), new Map([['d', { ids: ['w:9'], complete: false }]]));
  });

});
