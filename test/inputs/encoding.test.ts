// Issue 13, item 16: a pool in the wrong encoding is one clear problem with its file and line, not
// one JSON error per row (a UTF-16 pool gave eleven "Unexpected token '\u0000'" lines), and invalid
// UTF-8 is no longer silently replaced with U+FFFD.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { streamJsonlLines } from '../../server/src/inputs/jsonl.js';
import { loadPool } from '../../server/src/inputs/loaders.js';
import { linkedFileAccess, UnreadableInput } from '../../server/src/inputs/open-input.js';
import { WorkspaceTrust } from '../../server/src/inputs/trust.js';
import { jsonl, poolRow, tempDir } from '../pool/temp-files.js';

const text = jsonl(Array.from({ length: 11 }, (_, i) => poolRow(`t${i}`, { question: 'Zürich — 東京?' })));

function utf16be(value: string): Buffer {
  const le = Buffer.from(value, 'utf16le');
  for (let i = 0; i + 1 < le.length; i += 2) [le[i], le[i + 1]] = [le[i + 1]!, le[i]!];
  return le;
}

describe('encodings other than UTF-8', () => {
  const tmp = tempDir();
  const cases: [string, Buffer, string][] = [
    ['UTF-16 LE with a byte order mark', Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from(text, 'utf16le')]), 'UTF-16 text (a byte order mark on line 1): save it as UTF-8'],
    ['UTF-16 BE with a byte order mark', Buffer.concat([Buffer.from([0xfe, 0xff]), utf16be(text)]), 'UTF-16 text (a byte order mark on line 1): save it as UTF-8'],
    ['UTF-16 LE without a mark', Buffer.from(text, 'utf16le'), 'a NUL byte on line 1: UTF-16 or binary content, not UTF-8 JSON Lines'],
    ['a NUL byte on a later line', Buffer.from(text.replace('t4', 't\u00004')), 'a NUL byte on line 5: UTF-16 or binary content, not UTF-8 JSON Lines'],
    ['Latin-1 on line 3', Buffer.concat([Buffer.from(jsonl([poolRow('a'), poolRow('b')])), Buffer.from(jsonl([poolRow('c', { question: 'Zürich?' })]), 'latin1')]), 'invalid UTF-8 on line 3: save the file as UTF-8'],
  ];

  for (const [name, bytes, why] of cases) {
    it(`${name}: one file problem naming the line, no row issues`, async () => {
      const file = tmp.write(`${name.replace(/\W+/g, '-')}.jsonl`, bytes);
      const loaded = await loadPool(file, 'p');
      assert.equal(loaded.fileError, `${file}: cannot read: ${why}`);
      assert.deepEqual(loaded.issues, []);
      for (const chunkSize of [1, 3, 64]) {
        await assert.rejects(async () => {
          for await (const line of streamJsonlLines(file, linkedFileAccess(WorkspaceTrust.everything), { chunkSize })) assert.ok(line);
        }, new UnreadableInput(why), `chunk size ${chunkSize}`);
      }
    });
  }

  it('UTF-8 with a byte order mark and multi-byte characters loads whole', async () => {
    const loaded = await loadPool(tmp.write('utf8.jsonl', `\uFEFF${text}`), 'p');
    assert.equal(loaded.fileError, undefined);
    assert.deepEqual(loaded.issues, []);
    assert.equal(loaded.items.length, 11);
    assert.ok(loaded.items.every((t) => t.question === 'Zürich — 東京?'));
  });
});
