import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { describeFileError, splitJsonlText, streamJsonlLines, type JsonlLine } from '../../server/src/inputs/jsonl.js';
import { linkedFileAccess, UnreadableInput } from '../../server/src/inputs/open-input.js';
import { WorkspaceTrust } from '../../server/src/inputs/trust.js';
import { tempDir } from './temp-files.js';

const access = linkedFileAccess(WorkspaceTrust.everything);

async function collect(file: string, chunkSize?: number): Promise<JsonlLine[]> {
  const out: JsonlLine[] = [];
  for await (const line of streamJsonlLines(file, access, chunkSize === undefined ? {} : { chunkSize })) out.push(line);
  return out;
}

describe('splitJsonlText', () => {
  it('numbers lines from one, skips blank lines but counts them, keeps a last line without newline', () => {
    assert.deepEqual(splitJsonlText('{"a":1}\n\n   \n{"b":2}\n{"c":3}'), [
      { line: 1, text: '{"a":1}' },
      { line: 4, text: '{"b":2}' },
      { line: 5, text: '{"c":3}' },
    ]);
  });

  it('drops the CR of CRLF endings and a BOM on the first line only', () => {
    assert.deepEqual(splitJsonlText('\uFEFF{"a":1}\r\n\r\n{"b":"\uFEFF"}\r\n'), [
      { line: 1, text: '{"a":1}' },
      { line: 3, text: '{"b":"\uFEFF"}' },
    ]);
  });

  it('gives nothing for an empty text or only blank lines', () => {
    assert.deepEqual(splitJsonlText(''), []);
    assert.deepEqual(splitJsonlText('\n\r\n  \n'), []);
  });
});

describe('streamJsonlLines', () => {
  const tmp = tempDir();
  const text = '\uFEFF{"q":"Zürich — 東京"}\r\n\r\n{"q":"😀"}\n  \n{"q":"last"}';
  const file = tmp.write('lines.jsonl', text);

  it('yields the same lines as the in-memory splitter, whatever the chunk size', async () => {
    const expected = splitJsonlText(text);
    assert.equal(expected.length, 3);
    for (const chunkSize of [1, 2, 3, 5, 7, 64, 1 << 16]) {
      assert.deepEqual(await collect(file, chunkSize), expected, `chunk size ${chunkSize}`);
    }
  });

  it('streams a file of many rows with line numbers intact', async () => {
    const rows = Array.from({ length: 20_000 }, (_, i) => JSON.stringify({ i, pad: 'x'.repeat(i % 50) }));
    const big = tmp.write('big.jsonl', rows.join('\n'));
    let count = 0;
    for await (const { line, text: row } of streamJsonlLines(big, access)) {
      count += 1;
      assert.equal((JSON.parse(row) as { i: number }).i, line - 1);
    }
    assert.equal(count, 20_000);
  });

  it('rejects, saying why, for a missing file and a folder', async () => {
    await assert.rejects(collect(`${tmp.dir}/nope.jsonl`), new UnreadableInput('file not found'));
    await assert.rejects(collect(tmp.dir), new UnreadableInput('a folder, not a file'));
  });
});

describe('describeFileError', () => {
  it('says what is wrong in words, as FILE: cannot read: why', () => {
    assert.equal(describeFileError('p.jsonl', new UnreadableInput('file not found')), 'p.jsonl: cannot read: file not found');
    assert.equal(describeFileError('d', Object.assign(new Error('x'), { code: 'EISDIR' })), 'd: cannot read: a folder, not a file');
    assert.equal(describeFileError('p.jsonl', Object.assign(new Error('x'), { code: 'EACCES' })), 'p.jsonl: cannot read: permission denied');
    assert.equal(describeFileError('p.jsonl', new Error('disk on fire')), 'p.jsonl: cannot read: disk on fire');
  });
});
