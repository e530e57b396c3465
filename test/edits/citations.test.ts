import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { fakeIdEdits, launderEdits } from './prelude-edits.js';
import { viewOf } from '../../server/src/language/view.js';
import { maxCitationsPerRow } from '../../server/src/problems/limits.js';
import { parsePoolRow } from '../../server/src/pool/schemas.js';
import { poolRow } from '../pool/temp-files.js';

// A row's edits were all built before the first was scored: one edited copy of the citation list
// per position, citations² ids in all (a row of 30,000 citations exhausted the heap). They are
// now built one at a time, and a row past the citation limit is skipped with its reason.

const source = { pool: 'p', file: 'p.jsonl', line: 1 };
const ids = (n: number): string[] => Array.from({ length: n }, (_, i) => `w:${i}`);
const rowWith = (citations: readonly string[]): Record<string, unknown> =>
  poolRow('t', { final: { answer: 'a', citations, text: citations.map((c) => `[${c}]`).join(' ') } });

/** An empty corpus that counts its look-ups: one per fake id built. */
class CountingSet extends Set<string> {
  looked = 0;
  override has(id: string): boolean {
    this.looked++;
    return super.has(id);
  }
}

describe('edits: a row with many citations', () => {
  it('skips a row of 30,000 citations with the limit as its reason, and takes one at the limit', () => {
    const tooMany = parsePoolRow(rowWith(ids(30_000)), source);
    assert.deepEqual(tooMany, { ok: false, reason: `final.citations: 30000 citations, more than the ${maxCitationsPerRow} an audit edits in one row` });
    assert.equal(parsePoolRow(rowWith(ids(maxCitationsPerRow)), source).ok, true);
  });

  it('builds fake-id edits one at a time', () => {
    const parsed = parsePoolRow(rowWith(ids(maxCitationsPerRow)), source);
    assert.ok(parsed.ok);
    const view = viewOf(parsed.value);
    const corpus = new CountingSet();
    const edits = fakeIdEdits('t', view, corpus)[Symbol.iterator]();
    const first = edits.next();
    assert.equal(first.done, false);
    assert.deepEqual(first.value?.view.citations.slice(0, 2), ['fake:t:0', 'w:1']);
    assert.equal(corpus.looked, 1, 'only the first edit was built');
  });

  it('asks for a position\'s launder candidates when its edits are reached', () => {
    const parsed = parsePoolRow(rowWith(ids(maxCitationsPerRow)), source);
    assert.ok(parsed.ok);
    const asked: number[] = [];
    const edits = launderEdits(viewOf(parsed.value), (position) => (asked.push(position), ['w:x', 'w:y']))[Symbol.iterator]();
    assert.deepEqual([edits.next().value?.replacement, edits.next().value?.replacement, edits.next().value?.position], ['w:x', 'w:y', 1]);
    assert.deepEqual(asked, [0, 1]);
  });
});
