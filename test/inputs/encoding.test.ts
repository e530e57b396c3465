// Issue 13, item 16: a pool in the wrong encoding is one clear problem with its file and line, not
// one JSON error per row (a UTF-16 pool gave eleven "Unexpected token '\u0000'" lines), and invalid
// UTF-8 is no longer silently replaced with U+FFFD. Issue 33, item 15: line 1 decides the encoding,
// so a NUL byte in a later row skips that row instead of making the whole pool unreadable.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { splitJsonlText, streamJsonlLines } from '../../server/src/inputs/jsonl.js';
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
    ['UTF-16 LE with a byte order mark', Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from(text, 'utf16le')]), 'UTF-16 text: save it as UTF-8'],
    ['UTF-16 BE with a byte order mark', Buffer.concat([Buffer.from([0xfe, 0xff]), utf16be(text)]), 'UTF-16 text: save it as UTF-8'],
    ['UTF-16 LE without a mark', Buffer.from(text, 'utf16le'), 'UTF-16 text: save it as UTF-8'],
    ['UTF-16 BE without a mark', utf16be(text), 'UTF-16 text: save it as UTF-8'],
    ['a gzip file', Buffer.from([0x1f, 0x8b, 0x08, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x03, 0x4b, 0x4c, 0x4a, 0x06, 0x00, 0xc2, 0x41, 0x24, 0x35, 0x03, 0x00, 0x00, 0x00]), 'a NUL byte on line 1: binary content, not UTF-8 JSON Lines'],
    ['text with a NUL byte in its first row', Buffer.from(text.replace('t0', 't\u00000')), 'a NUL byte on line 1: binary content, not UTF-8 JSON Lines'],
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

  it('a NUL byte in a later row skips that row with the reason; every other row loads', async () => {
    const file = tmp.write('nul-row.jsonl', Buffer.from(text.replace('t4', 't\u00004')));
    for (const chunkSize of [1, 3, 64, 1 << 16]) {
      const loaded = await loadPool(file, 'p', undefined, { chunkSize });
      assert.equal(loaded.fileError, undefined, `chunk size ${chunkSize}`);
      assert.deepEqual(loaded.issues, [{ file, line: 5, reason: 'invalid JSON at column 9: a NUL byte (binary content)' }], `chunk size ${chunkSize}`);
      assert.equal(loaded.items.length, 10);
    }
    assert.deepEqual(splitJsonlText(text.replace('t4', 't\u00004')).map((l) => l.line), [1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11], 'an editor\'s text splits alike');
  });

  it('UTF-8 with a byte order mark and multi-byte characters loads whole', async () => {
    const loaded = await loadPool(tmp.write('utf8.jsonl', `\uFEFF${text}`), 'p');
    assert.equal(loaded.fileError, undefined);
    assert.deepEqual(loaded.issues, []);
    assert.equal(loaded.items.length, 11);
    assert.ok(loaded.items.every((t) => t.question === 'Zürich — 東京?'));
  });
});
