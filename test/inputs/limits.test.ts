// Issue 13, item 9 (pools): a pool, corpus, candidate file or log above the documented limit, or
// the files of one analysis above their total, are refused before a byte is read, with the limit
// in the message (a 2 GB pool used to end in V8's out-of-memory abort). Sparse files stand in for
// large ones: they take no disk, and had they been read their NUL bytes would say so instead.
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { describe, it } from 'node:test';
import { InputCache } from '../../server/src/inputs/input-cache.js';
import { inputLimitsOf, maxAnalysisBytes, maxInputBytes, raisedLimitProblem } from '../../server/src/inputs/input-limits.js';
import { streamJsonlLines } from '../../server/src/inputs/jsonl.js';
import { IssueLog, loadInputs, sizeProblem } from '../../server/src/inputs/load-inputs.js';
import { loadCorpus, loadPool } from '../../server/src/inputs/loaders.js';
import { UnreadableInput } from '../../server/src/inputs/open-input.js';
import { WorkspaceTrust } from '../../server/src/inputs/trust.js';
import { workspace } from './workspace.js';

const mebibyte = 1024 * 1024;
const hint = 'raise it with --max-input-mib or the setting herald.maxInputMiB; see Limits in docs/language.md';

function sparse(file: string, bytes: number): string {
  fs.writeFileSync(file, '');
  fs.truncateSync(file, bytes);
  return file;
}

describe('input size limits', () => {
  const ws = workspace();

  it('the limits are the documented ones', () => {
    assert.equal(maxInputBytes, 128 * mebibyte);
    assert.equal(maxAnalysisBytes, 160 * mebibyte);
    const language = fs.readFileSync('docs/language.md', 'utf8');
    assert.match(language, /128 MiB/);
    assert.match(language, /160 MiB/);
  });

  it('a 2 GiB pool is refused at once, unread, naming the limit', async () => {
    const file = sparse(path.join(ws.dir, 'huge.jsonl'), 2 * 1024 * mebibyte);
    const started = Date.now();
    const heap = process.memoryUsage().heapUsed;
    const loaded = await loadPool(file, 'huge');
    assert.equal(loaded.fileError, `${file}: cannot read: 2 GiB, above the 128 MiB limit for one linked file (see Limits in docs/language.md)`);
    assert.ok(Date.now() - started < 1000, 'refused before reading');
    assert.ok(process.memoryUsage().heapUsed - heap < 16 * mebibyte);
  });

  it('a file one byte over the limit is refused; one at the limit is read', async () => {
    const over = sparse(path.join(ws.dir, 'over.jsonl'), maxInputBytes + 1);
    assert.match((await loadCorpus(over)).fileError ?? '', /cannot read: 128\.0 MiB, above the 128 MiB limit for one linked file/);
    const at = sparse(path.join(ws.dir, 'at.jsonl'), maxInputBytes);
    // Read, so its NUL bytes are what stops it.
    assert.equal((await loadCorpus(at)).fileError, `${at}: cannot read: a NUL byte on line 1: binary content, not UTF-8 JSON Lines`);
  });

  it('files each under the limit but together above the limit of one analysis are refused before any is read', async () => {
    const corpus = sparse(path.join(ws.dir, 'big-corpus.jsonl'), 100 * mebibyte);
    const pools = ['a', 'b'].map((name) => ({ name, file: sparse(path.join(ws.dir, `pool-${name}.jsonl`), 60 * mebibyte) }));
    const issues = new IssueLog();
    const load = await loadInputs(ws.dir, { corpus: { name: 'wiki', file: corpus }, pools }, { cache: new InputCache(), trust: WorkspaceTrust.everything, issues });
    assert.equal(load.ok, false);
    assert.deepEqual(issues.issues.map((i) => [i.line, i.reason]), [
      [0, `${corpus}, ${pools[0]!.file}, ${pools[1]!.file}: cannot read: together 220 MiB, above the 160 MiB limit for the files of one analysis (${hint})`],
    ]);
  });

  it('a file above its own limit is named alone, before anything is loaded', async () => {
    const corpus = path.join(ws.dir, 'data/corpus.jsonl');
    const huge = sparse(path.join(ws.dir, 'huge-pool.jsonl'), 2 * 1024 * mebibyte);
    const issues = new IssueLog();
    const progress: string[] = [];
    const load = await loadInputs(ws.dir, { corpus: { name: 'wiki', file: corpus }, pools: [{ name: 'huge', file: huge }] }, {
      cache: new InputCache(), trust: WorkspaceTrust.everything, issues, onProgress: (m) => progress.push(m),
    });
    assert.equal(load.ok, false);
    assert.deepEqual(progress, [], 'nothing was loaded');
    assert.deepEqual(issues.issues.map((i) => i.reason), [`${huge}: cannot read: 2 GiB, above the 128 MiB limit for one linked file (${hint})`]);
  });

  it('raised limits (--max-input-mib, herald.maxInputMiB) let a larger file and a larger analysis be read', async () => {
    const pool = sparse(path.join(ws.dir, 'raised-pool.jsonl'), 200 * mebibyte);
    const corpus = sparse(path.join(ws.dir, 'raised-corpus.jsonl'), 40 * mebibyte);
    const raised = WorkspaceTrust.everything.withLimits(inputLimitsOf(256));
    assert.deepEqual(raised.limits, { file: 256 * mebibyte, analysis: 256 * mebibyte });
    assert.match(sizeProblem([pool], WorkspaceTrust.everything)?.why ?? '', /^200 MiB, above the 128 MiB limit for one linked file/);
    assert.equal(sizeProblem([corpus, pool], raised), undefined);
    assert.equal(sizeProblem([corpus, pool, sparse(path.join(ws.dir, 'raised-extra.jsonl'), 17 * mebibyte)], raised)?.why,
      `together 257 MiB, above the 256 MiB limit for the files of one analysis (${hint})`);
    // Past the size checks the pool is read: its NUL bytes, not its size, stop it.
    const issues = new IssueLog();
    const load = await loadInputs(ws.dir, { corpus: { name: 'wiki', file: path.join(ws.dir, 'data/corpus.jsonl') }, pools: [{ name: 'big', file: pool }] }, {
      cache: new InputCache(), trust: raised, issues,
    });
    assert.equal(load.ok, false);
    assert.deepEqual(issues.issues.map((i) => i.reason), [`${pool}: cannot read: a NUL byte on line 1: binary content, not UTF-8 JSON Lines`]);
    // The same folders and trust, other limits.
    const untrusted = WorkspaceTrust.of([ws.dir], inputLimitsOf(512));
    assert.deepEqual([untrusted.trusted, untrusted.folders, untrusted.limits.file], [false, [path.resolve(ws.dir)], 512 * mebibyte]);
    assert.equal(untrusted.key, WorkspaceTrust.of([ws.dir]).key, 'a file loaded under one limit is the same file under another');
  });

  it('the limits only go up: a whole number of MiB from 160', () => {
    for (const ok of [160, 1024, 65_536]) assert.equal(raisedLimitProblem(ok), undefined);
    for (const bad of [0, 100, 159, 160.5, 65_537, Number.NaN]) assert.equal(raisedLimitProblem(bad), 'a whole number of MiB from 160 (the default limit) to 65,536', String(bad));
    assert.equal(inputLimitsOf(undefined), inputLimitsOf(undefined), 'the defaults are one object');
  });

  it('a file of 300,000 bad rows is 300,000 issues, not a stack overflow', async () => {
    const bad = ws.write('bad-rows.jsonl', 'x\n'.repeat(300_000));
    const issues = new IssueLog();
    const load = await loadInputs(ws.dir, { corpus: { name: 'wiki', file: path.join(ws.dir, 'data/corpus.jsonl') }, pools: [{ name: 'bad', file: bad }] }, {
      cache: new InputCache(), trust: WorkspaceTrust.everything, issues,
    });
    assert.equal(load.ok, true);
    assert.equal(issues.issues.length, 300_000);
  });

  it('a file that grows past the limit while it is read stops there (a /proc file says it is empty)', async () => {
    const access = { trust: WorkspaceTrust.everything, maxBytes: 100, limitName: 'for this test' };
    await assert.rejects(async () => {
      for await (const line of streamJsonlLines('/proc/self/status', access)) assert.ok(line);
    }, new UnreadableInput('grew past the 100 bytes limit for this test while it was read'));
  });
});
