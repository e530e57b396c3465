// Issue 13, item 4: a file that fails to parse is described by position and kind, never by its
// content. V8's JSON.parse messages quote the offending text and zod reasons quoted values; both
// reached the JSON, SARIF and HTML reports, so a spec in a pull request could link a secrets file
// and read it back out of CI artifacts.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { describe, it } from 'node:test';
import { jsonFileReason, jsonLineReason } from '../../server/src/pool/json-error.js';
import { loadCandidates, loadPool } from '../../server/src/inputs/loaders.js';
import { poolRow } from '../pool/temp-files.js';
import { auditSpec, secret, workspace } from './workspace.js';

const herald = path.resolve('dist/herald.js');

describe('JSON syntax errors by position and kind', () => {
  const cases: [string, string][] = [
    [`TOKEN=${secret}`, 'invalid JSON at column 1: unexpected character'],
    [`{"id": ${secret}}`, 'invalid JSON at column 8: unexpected character'],
    [`{"id": "x"} ${secret}`, 'invalid JSON at column 13: unexpected character'],
    ['{"id": "x"} 1', 'invalid JSON at column 13: more text after the value'],
    [`{"id": "${secret}`, 'invalid JSON at column 8: an unterminated string'],
    [`{"id": "${secret}\u0001"}`, 'invalid JSON at column 8: a control character in a string'],
    [`{"${secret}" 1}`, "invalid JSON at column 19: ':' expected"],
    ['{"id": "x",}', 'invalid JSON at column 12: a property name expected'],
  ];
  for (const [line, reason] of cases) {
    it(`${JSON.stringify(reason)}`, () => {
      assert.throws(() => JSON.parse(line));
      assert.equal(jsonLineReason(line), reason);
    });
  }

  it('a line nested 100,000 deep (the JSON reader that finds the error recursed per level): where it crosses 1,000 levels', () => {
    assert.equal(jsonLineReason('['.repeat(100_000)), 'invalid JSON at column 1001: nested deeper than 1,000 levels');
    assert.equal(jsonLineReason(`{"a": "[[[", "b": ${'{"c":'.repeat(100_000)}`), 'invalid JSON at column 5014: nested deeper than 1,000 levels');
    assert.equal(jsonFileReason(`{\n${'['.repeat(2_000)}`), 'invalid JSON at line 2, column 1000: nested deeper than 1,000 levels');
  });

  it('a whole file by line and column', () => {
    assert.equal(jsonFileReason(`{\n  "version": 1,\n  "audits": ${secret}\n}`), 'invalid JSON at line 3, column 13: unexpected character');
  });
});

describe('row reasons never quote what the file holds', () => {
  const ws = workspace();

  it('pool rows: JSON errors and wrong values name the line, field and kind only', async () => {
    const lines = [
      `TOKEN=${secret}`,
      `{"id": "${secret}`,
      JSON.stringify(poolRow('a', { id: 31337 })),
      JSON.stringify(poolRow('b', { steps: [{ type: secret }] })),
      JSON.stringify(poolRow('c', { meta: { sample: 4.25 } })),
      JSON.stringify(poolRow('d', { final: { answer: 'x', citations: [8675309], text: '' } })),
    ];
    const loaded = await loadPool(ws.write('secrets.jsonl', `${lines.join('\n')}\n`), 'p');
    assert.deepEqual(loaded.issues.map((i) => [i.line, i.reason]), [
      [1, 'invalid JSON at column 1: unexpected character'],
      [2, 'invalid JSON at column 8: an unterminated string'],
      [3, 'id: expected a string, got an integer'],
      [4, 'steps[0].type: expected "search" or "tool" or "reasoning" or "invalid", got another string'],
      [5, 'meta.sample: expected an integer, got a fractional number'],
      [6, 'final.citations: expected an array of ids or citation markers (item 0 is an integer)'],
    ]);
  });

  it('candidate rows: a negative index is below its minimum, without the number', async () => {
    const loaded = await loadCandidates(ws.write('cands.jsonl', `${JSON.stringify({ traj_id: 't', citation_index: -271828, candidates: [] })}\n`));
    assert.deepEqual(loaded.issues.map((i) => i.reason), ['citation_index: must be at least 0']);
  });

  it('a spec that links a secrets file as a pool: no JSON, SARIF or HTML report and no stderr line holds its content', () => {
    fs.copyFileSync(path.join(ws.outside, 'secret.txt'), path.join(ws.dir, 'data/secret.jsonl'));
    // Valid rows too, so the audit runs and the reports are written with the skipped rows in them.
    fs.appendFileSync(path.join(ws.dir, 'data/secret.jsonl'), fs.readFileSync(path.join(ws.dir, 'data/hotpot.jsonl'), 'utf8').split('\n').slice(0, 40).join('\n'));
    ws.write('spec.reward', auditSpec('data/corpus.jsonl', 'data/secret.jsonl'));
    for (const format of ['json', 'sarif', 'html']) {
      const result = spawnSync(process.execPath, [herald, 'audit', 'spec.reward', '--format', format, '--no-cache'], { cwd: ws.dir, encoding: 'utf8', maxBuffer: 1 << 26 });
      assert.notEqual(result.stdout.length, 0, result.stderr);
      assert.match(result.stderr, /secret\.jsonl:1: invalid JSON at column 1: unexpected character/);
      assert.ok(!result.stdout.includes(secret) && !result.stderr.includes(secret), `${format} holds the secret`);
    }
  });
});
