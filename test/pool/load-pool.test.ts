import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { describe, it } from 'node:test';
import { loadPool } from '../../server/src/inputs/loaders.js';
import type { Loaded, Trajectory } from '../../server/src/pool/types.js';
import { jsonl, poolRow, tempDir } from './temp-files.js';

/** Loads and proves the load left the file's bytes and mtime alone. */
async function loadUntouched(file: string, pool = 'p'): Promise<Loaded<Trajectory>> {
  const before = fs.statSync(file);
  const bytes = fs.readFileSync(file);
  const loaded = await loadPool(file, pool);
  const after = fs.statSync(file);
  assert.equal(after.mtimeMs, before.mtimeMs, 'mtime changed');
  assert.ok(fs.readFileSync(file).equals(bytes), 'bytes changed');
  return loaded;
}

describe('loadPool: a valid pool', () => {
  const tmp = tempDir();

  it('loads every row with its fields, steps, meta and source', async () => {
    const file = tmp.write('pool.jsonl', jsonl([
      poolRow('t1', { extra_field: 'allowed', meta: { model: 'm', sample: 0, group: 'g', temperature: 0.7 } }),
      poolRow('t2', { question_id: 'q-t1', final: null, steps: [], meta: undefined }),
    ]));
    const loaded = await loadUntouched(file, 'base');
    assert.equal(loaded.fileError, undefined);
    assert.deepEqual(loaded.issues, []);
    assert.equal(loaded.items.length, 2);
    const [t1, t2] = loaded.items;
    assert.deepEqual(t1, {
      id: 't1',
      question_id: 'q-t1',
      question: 'What is the capital of France?',
      steps: [
        { type: 'search', query: 'capital of france', results: ['w:1', 'w:2'] },
        { type: 'invalid', text: '<search>' },
      ],
      final: { answer: 'Paris', citations: ['w:2'], text: '<answer>Paris</answer> [w:2]' },
      gold: { answers: ['Paris'], support_ids: ['w:2'] },
      meta: { model: 'm', sample: 0, group: 'g', temperature: 0.7 },
      source: { pool: 'base', file, line: 1 },
    });
    assert.equal(t2?.final, null);
    assert.deepEqual(t2?.steps, []);
    assert.deepEqual(t2?.meta, {}, 'absent meta loads as an empty object');
    assert.deepEqual(t2?.source, { pool: 'base', file, line: 2 });
    assert.ok(!('extra_field' in (t1 as object)), 'unknown top-level keys are not carried into the typed row');
  });

  it('treats null meta fields as absent', async () => {
    const file = tmp.write('null-meta.jsonl', jsonl([poolRow('t1', { meta: { model: null, sample: null, group: 'g' } }), poolRow('t2', { meta: null })]));
    const loaded = await loadUntouched(file);
    assert.deepEqual(loaded.issues, []);
    assert.deepEqual(loaded.items.map((t) => t.meta), [{ group: 'g' }, {}]);
  });

  it('reads CRLF endings, a BOM and blank lines, numbering lines as an editor does', async () => {
    const text = '\uFEFF' + jsonl([poolRow('t1'), '', '   ', poolRow('t2'), '{"id": oops}', poolRow('t3')], '\r\n').replace(/\r\n$/, '');
    const file = tmp.write('crlf.jsonl', text);
    const loaded = await loadUntouched(file);
    assert.deepEqual(loaded.items.map((t) => [t.id, t.source.line]), [['t1', 1], ['t2', 4], ['t3', 6]]);
    assert.equal(loaded.issues.length, 1);
    assert.equal(loaded.issues[0]?.line, 5);
    assert.equal(loaded.issues[0]?.reason, 'invalid JSON at column 8: unexpected character');
  });
});

describe('loadPool: bad rows are issues, the good rows still load', () => {
  const tmp = tempDir();
  const cases: { name: string; row: unknown; reason: string | RegExp }[] = [
    { name: 'malformed JSON', row: '{"id": "b", "question_id": ', reason: 'invalid JSON at column 28: a value expected' },
    { name: 'trailing garbage', row: '{"id": "b"}}', reason: 'invalid JSON at column 12: more text after the value' },
    { name: 'a non-object line', row: '[1, 2]', reason: 'expected a JSON object, got an array' },
    { name: 'a bare string', row: '"hello"', reason: 'expected a JSON object, got a string' },
    { name: 'null', row: 'null', reason: 'expected a JSON object, got null' },
    { name: 'a missing question_id', row: (() => { const r = poolRow('b'); delete r['question_id']; return r; })(), reason: "missing field 'question_id'" },
    { name: 'a missing final', row: (() => { const r = poolRow('b'); delete r['final']; return r; })(), reason: "missing field 'final'" },
    { name: 'a missing nested field', row: poolRow('b', { gold: { answers: ['x'] } }), reason: "missing field 'gold.support_ids'" },
    { name: 'an empty id', row: poolRow(''), reason: 'id: must not be empty' },
    { name: 'a numeric id', row: poolRow('b', { id: 7 }), reason: 'id: expected a string, got an integer' },
    {
      name: 'results holding a number',
      row: poolRow('b', { steps: [{ type: 'invalid', text: 'x' }, { type: 'invalid', text: 'y' }, { type: 'search', query: 'q', results: ['w:1', 5] }] }),
      reason: 'steps[2].results: expected an array of ids or result objects (item 1 is an integer)',
    },
    { name: 'results as a string', row: poolRow('b', { steps: [{ type: 'search', query: 'q', results: 'w:1' }] }), reason: 'steps[0].results: expected an array, got a string' },
    { name: 'a step that is not an object', row: poolRow('b', { steps: ['search'] }), reason: 'steps[0]: expected a step object, got a string' },
    { name: 'an unknown step type', row: poolRow('b', { steps: [{ type: 'browse', url: 'x' }] }), reason: 'steps[0].type: expected "search" or "tool" or "reasoning" or "invalid", got another string' },
    { name: 'a step without a type', row: poolRow('b', { steps: [{ query: 'q', results: [] }] }), reason: "missing field 'steps[0].type'" },
    { name: 'final as a string', row: poolRow('b', { final: 'Paris' }), reason: 'final: expected an object or null, got a string' },
    { name: 'a citation that is a number', row: poolRow('b', { final: { answer: 'a', citations: [3], text: '' } }), reason: 'final.citations: expected an array of ids or citation markers (item 0 is an integer)' },
    { name: 'a fractional sample', row: poolRow('b', { meta: { sample: 1.5 } }), reason: 'meta.sample: expected an integer, got a fractional number' },
    { name: 'meta as an array', row: poolRow('b', { meta: [] }), reason: 'meta: expected an object, got an array' },
    { name: 'several problems', row: poolRow('b', { question: 5, gold: null }), reason: 'question: expected a string, got an integer (and 1 more problem)' },
  ];

  for (const c of cases) {
    it(`reports ${c.name} on its line`, async () => {
      const file = tmp.write(`${c.name.replace(/\W+/g, '-')}.jsonl`, jsonl([poolRow('g1'), c.row, poolRow('g3')]));
      const loaded = await loadUntouched(file);
      assert.equal(loaded.fileError, undefined);
      assert.deepEqual(loaded.items.map((t) => t.id), ['g1', 'g3']);
      assert.equal(loaded.issues.length, 1, JSON.stringify(loaded.issues));
      const issue = loaded.issues[0]!;
      assert.equal(issue.file, file);
      assert.equal(issue.line, 2);
      if (typeof c.reason === 'string') assert.equal(issue.reason, c.reason);
      else assert.match(issue.reason, c.reason);
    });
  }

  it('keeps the first of duplicate ids and reports each later one', async () => {
    const file = tmp.write('dup.jsonl', jsonl([poolRow('a'), poolRow('b'), poolRow('a', { question: 'other' }), '', poolRow('a')]));
    const loaded = await loadUntouched(file);
    assert.deepEqual(loaded.items.map((t) => [t.id, t.question]), [['a', 'What is the capital of France?'], ['b', 'What is the capital of France?']]);
    assert.deepEqual(loaded.issues, [
      { file, line: 3, reason: "duplicate id 'a' (first on line 1)" },
      { file, line: 5, reason: "duplicate id 'a' (first on line 1)" },
    ]);
  });

  it('does not count an invalid row as the first occurrence of its id', async () => {
    const file = tmp.write('dup-after-bad.jsonl', jsonl([poolRow('a', { question: 1 }), poolRow('a')]));
    const loaded = await loadUntouched(file);
    assert.deepEqual(loaded.items.map((t) => t.source.line), [2]);
    assert.deepEqual(loaded.issues.map((i) => i.line), [1]);
  });
});

describe('loadPool: whole-file problems', () => {
  const tmp = tempDir();

  it('an empty file loads no rows and one issue on line 1', async () => {
    const file = tmp.write('empty.jsonl', '');
    const loaded = await loadUntouched(file);
    assert.deepEqual(loaded, { items: [], issues: [{ file, line: 1, reason: 'the file has no rows' }] });
  });

  it('a file of blank lines is empty too', async () => {
    const file = tmp.write('blank.jsonl', '\n\r\n   \n');
    const loaded = await loadUntouched(file);
    assert.deepEqual(loaded.issues, [{ file, line: 1, reason: 'the file has no rows' }]);
  });

  it('a missing file is a file error, not a throw', async () => {
    const loaded = await loadPool(`${tmp.dir}/missing.jsonl`, 'p');
    assert.deepEqual(loaded.items, []);
    assert.match(loaded.fileError ?? '', /missing\.jsonl: cannot read: file not found$/);
  });

  it('a folder is a file error, not a throw', async () => {
    const loaded = await loadPool(tmp.dir, 'p');
    assert.deepEqual(loaded.items, []);
    assert.match(loaded.fileError ?? '', /: cannot read: a folder, not a file$/);
  });

  it('an unreadable file is a file error', async () => {
    const file = tmp.write('locked.jsonl', jsonl([poolRow('a')]));
    fs.chmodSync(file, 0o000);
    try {
      if (process.getuid?.() === 0) {
        // Root reads any file: a child process loads the loader, then drops to an unprivileged user before reading.
        const loader = path.resolve('out/server/src/inputs/loaders.js');
        const script = [
          `const { loadPool } = require(${JSON.stringify(loader)});`,
          'process.setgid(65534); process.setuid(65534);',
          `loadPool(${JSON.stringify(file)}, 'p').then((l) => console.log(JSON.stringify(l)));`,
        ].join('\n');
        fs.chmodSync(path.dirname(file), 0o755);
        const child = spawnSync(process.execPath, ['-e', script], { encoding: 'utf8' });
        assert.equal(child.status, 0, child.stderr);
        const loaded = JSON.parse(child.stdout) as { items: unknown[]; fileError?: string };
        assert.deepEqual(loaded.items, []);
        assert.match(loaded.fileError ?? '', /permission denied/);
        return;
      }
      const loaded = await loadPool(file, 'p');
      assert.deepEqual(loaded.items, []);
      assert.match(loaded.fileError ?? '', /permission denied/);
    } finally {
      fs.chmodSync(file, 0o644);
    }
  });
});
