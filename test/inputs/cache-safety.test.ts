// Issue 33, item 3: the caches must not trust their folder. A link planted where a cache file
// belongs is replaced, never written through or read; a cache folder that is a link, not this
// user's, or writable by others skips the cache with one warning; a planted or damaged entry is a
// miss (its digest); and nothing a cache file holds or leads to is ever quoted.
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { describe, it } from 'node:test';
import { auditSpec as runAuditSpec, newAuditCaches, type AuditOutcome, type AuditSpecOptions } from '../../server/src/audit/audit-spec.js';
import { cacheFolder, prepareCacheFolder, readCacheFile, writeCacheFile } from '../../server/src/inputs/cache-folder.js';
import { openRankingStore, rankingFileName, rankingLine, storeKeyOf } from '../../server/src/inputs/ranking-cache.js';
import { indexFileName } from '../../server/src/inputs/index-cache.js';
import { corpusOrder } from '../../server/src/pool/corpus-order.js';
import { auditSpec, secret, workspace } from './workspace.js';

const ws = workspace();
const specFile = ws.write('spec.reward', auditSpec('data/corpus.jsonl', 'data/hotpot.jsonl'));
const text = fs.readFileSync(specFile, 'utf8');
const corpusHash = createHash('sha256').update(fs.readFileSync(path.join(ws.dir, 'data/corpus.jsonl'))).digest('hex');
const storeFile = (dir: string): string => path.join(cacheFolder(dir), rankingFileName(corpusHash, 'lexical'));

interface Run {
  readonly outcome: AuditOutcome;
  readonly report: string;
  readonly warnings: string[];
  /** Everything the run said: progress, warnings, problems, issues, failures and the report. */
  readonly said: string;
}

async function audit(candidateCache: string | false, spec = text, options: AuditSpecOptions = {}): Promise<Run> {
  const progress: string[] = [];
  const outcome = await runAuditSpec(spec, specFile, { ...options, cache: newAuditCaches(), candidateCache, onProgress: (m) => progress.push(m) });
  const report = JSON.stringify(outcome.report, null, 2);
  const said = JSON.stringify([progress, outcome.problems, outcome.dataIssues, outcome.failures, outcome.report]);
  return { outcome, report, warnings: progress.filter((m) => m.includes('warning')), said };
}

/** A fresh cache folder (made by the test, as a user's would be) and its name. */
let folders = 0;
function freshCache(): string {
  const dir = path.join(ws.root, `cache-${folders++}`);
  fs.mkdirSync(dir, { mode: 0o700 });
  return dir;
}

const decoyText = '# a shell rc file: export PATH=/usr/bin\n';

describe('a link planted where a cache file belongs', () => {
  it('a ranking store that is a link to a decoy: the decoy is unchanged byte for byte, the link replaced, the report the same', async () => {
    const plain = await audit(false);
    const dir = freshCache();
    assert.equal(prepareCacheFolder(dir), undefined);
    const decoy = ws.write('decoy.rc', decoyText);
    fs.symlinkSync(decoy, storeFile(dir));
    const run = await audit(dir);
    assert.equal(run.report, plain.report);
    assert.equal(fs.readFileSync(decoy, 'utf8'), decoyText, 'nothing was written through the link');
    assert.ok(fs.lstatSync(storeFile(dir)).isFile(), 'the rankings were kept in a new file in place of the link');
    assert.deepEqual(run.warnings, [`audit quick: warning: cache entry not used: ${storeFile(dir)} is a symbolic link`]);
  });

  it('a store that is a link to a file whose first line is a secret: the secret is never read into any output, and the file is untouched', async () => {
    const dir = freshCache();
    assert.equal(prepareCacheFolder(dir), undefined);
    const secretFile = path.join(ws.outside, 'secret.txt');
    const before = fs.readFileSync(secretFile);
    fs.symlinkSync(secretFile, storeFile(dir));
    const run = await audit(dir);
    assert.ok(run.outcome.report !== undefined);
    assert.ok(!run.said.includes(secret), 'the secret appears in what the audit said');
    assert.deepEqual(fs.readFileSync(secretFile), before);
  });

  it('the files a cache writes are new files of mode 0600 in a folder of mode 0700, never left as temporary files', async () => {
    const dir = freshCache();
    await audit(dir);
    assert.equal(fs.statSync(cacheFolder(dir)).mode & 0o777, 0o700);
    const names = fs.readdirSync(cacheFolder(dir));
    assert.deepEqual(names, [rankingFileName(corpusHash, 'lexical')]);
    assert.equal(fs.statSync(storeFile(dir)).mode & 0o777, 0o600);
  });

  it('writeCacheFile replaces a link by rename: the file it led to keeps its bytes', () => {
    const dir = freshCache();
    assert.equal(prepareCacheFolder(dir), undefined);
    const decoy = ws.write('decoy-write.rc', decoyText);
    const name = path.join(cacheFolder(dir), 'entry');
    fs.symlinkSync(decoy, name);
    assert.equal(writeCacheFile(dir, 'entry', ['new ', 'bytes\n']), true);
    assert.equal(fs.readFileSync(decoy, 'utf8'), decoyText);
    assert.equal(fs.readFileSync(name, 'utf8'), 'new bytes\n');
    assert.ok(!fs.lstatSync(name).isSymbolicLink());
  });
});

describe('a cache folder that cannot be trusted is skipped with one warning', () => {
  const skipped = (reason: string): string => `warning: cache skipped (candidate rankings and command outputs are not kept between runs): ${reason}`;

  it('a cache folder that is a symbolic link (to a folder of this user\'s): skipped, nothing written where it leads', async () => {
    const plain = await audit(false);
    const target = freshCache();
    const dir = path.join(ws.root, 'linked-cache');
    fs.symlinkSync(target, dir);
    const run = await audit(dir);
    assert.equal(run.report, plain.report);
    assert.deepEqual(run.warnings, [skipped(`${dir} is a symbolic link`)]);
    assert.deepEqual(fs.readdirSync(target), []);
  });

  it('a versioned cache folder that is a symbolic link: skipped, nothing written where it leads', async () => {
    const dir = freshCache();
    const target = freshCache();
    fs.symlinkSync(target, cacheFolder(dir));
    const run = await audit(dir);
    assert.deepEqual(run.warnings, [skipped(`${cacheFolder(dir)} is a symbolic link`)]);
    assert.deepEqual(fs.readdirSync(target), []);
  });

  it('a cache folder writable by other users (0777) or by its group (0770): skipped, nothing made in it', async () => {
    const plain = await audit(false);
    for (const [mode, who] of [[0o777, 'other users'], [0o770, 'its group']] as const) {
      const dir = freshCache();
      fs.chmodSync(dir, mode);
      const run = await audit(dir);
      assert.equal(run.report, plain.report);
      assert.deepEqual(run.warnings, [skipped(`${dir} is writable by ${who}`)]);
      assert.deepEqual(fs.readdirSync(dir), [], 'nothing was made in it');
    }
  });

  it('a versioned cache folder writable by other users: skipped, and its files never read', async () => {
    const dir = freshCache();
    await audit(dir);
    fs.chmodSync(cacheFolder(dir), 0o777);
    assert.deepEqual(readCacheFile(dir, rankingFileName(corpusHash, 'lexical'), 1 << 30), { kind: 'refused', reason: `${cacheFolder(dir)} is writable by other users` });
    const run = await audit(dir);
    assert.deepEqual(run.warnings, [skipped(`${cacheFolder(dir)} is writable by other users`)]);
  });

  it('a cache folder owned by another user (uid 65534): skipped, nothing made in it', async (t) => {
    if (process.getuid?.() !== 0) {
      t.skip('needs root to give a folder to another user (chown); this run is not root');
      return;
    }
    const plain = await audit(false);
    const dir = freshCache();
    fs.chownSync(dir, 65534, 65534);
    const run = await audit(dir);
    assert.equal(run.report, plain.report);
    assert.deepEqual(run.warnings, [skipped(`${dir} is owned by another user (uid 65534)`)]);
    assert.deepEqual(fs.readdirSync(dir), []);
  });

  it('a store file owned by another user, or writable by its group, is a miss with a warning, never read', (t) => {
    const dir = freshCache();
    const order = corpusOrder({ file: 'corpus.jsonl', passages: new Map(['w:1', 'w:2'].map((id) => [id, { id, title: id, text: id }])) });
    const store = openRankingStore(dir, 'hash', 'lexical', order);
    store.set('q', { ids: ['w:2'], complete: true });
    store.flush();
    const file = path.join(cacheFolder(dir), rankingFileName('hash', 'lexical'));
    const reopen = (): [unknown, string[]] => {
      const refused: string[] = [];
      return [openRankingStore(dir, 'hash', 'lexical', order, (r) => refused.push(r)).get('q'), refused];
    };
    assert.deepEqual(reopen(), [{ ids: ['w:2'], complete: true }, []], 'the control: read back');
    fs.chmodSync(file, 0o620);
    assert.deepEqual(reopen(), [undefined, [`${file} is writable by its group`]]);
    fs.chmodSync(file, 0o600);
    if (process.getuid?.() !== 0) {
      t.skip('needs root to give a file to another user (chown); this run is not root');
      return;
    }
    fs.chownSync(file, 65534, 65534);
    assert.deepEqual(reopen(), [undefined, [`${file} is owned by another user (uid 65534)`]]);
  });
});

describe('planted and damaged entries are misses', () => {
  it('planted well-formed rankings with the wrong ids (old digests, or none) are not used: the figures equal a run without the cache', async () => {
    const plain = await audit(false);
    const dir = freshCache();
    assert.equal((await audit(dir)).report, plain.report, 'the control: a cache filled honestly gives the same report');
    const lines = fs.readFileSync(storeFile(dir), 'utf8').trimEnd().split('\n');
    const bodies = lines.map((line) => JSON.parse(line.slice(65)) as [string, boolean, string[]]);
    // Each text given the next text's ranking: corpus ids, the right shape, the wrong candidates.
    const planted = bodies.map(([query, complete], i) => JSON.stringify([query, complete, bodies[(i + 1) % bodies.length]![2]]));
    const write = (content: string): void => fs.writeFileSync(storeFile(dir), content, { mode: 0o600 });

    write(planted.map((json, i) => `${lines[i]!.slice(0, 64)} ${json}\n`).join(''));
    assert.equal((await audit(dir)).report, plain.report, 'kept digests, planted rankings');
    write(planted.map((json) => `${json}\n`).join(''));
    assert.equal((await audit(dir)).report, plain.report, 'the format before digests');

    // The digest is no secret: whoever can write the folder can sign what they plant. That is why the
    // folder must be this user's alone (above); this shows the planted rankings do change the figures.
    write(planted.map((json) => rankingLine(storeKeyOf(corpusHash, 'lexical'), json)).join(''));
    assert.notEqual((await audit(dir)).report, plain.report, 're-signed planted rankings are used');
  });

  it('a damaged store (cut short, bytes flipped) is a miss line by line, and quoted nowhere', async () => {
    const plain = await audit(false);
    const dir = freshCache();
    await audit(dir);
    const bytes = fs.readFileSync(storeFile(dir));
    const damaged = Buffer.from(bytes.subarray(0, bytes.length - 7));
    for (let at = 100; at < damaged.length; at += 997) damaged[at] = 0x41;
    fs.writeFileSync(storeFile(dir), damaged);
    const run = await audit(dir);
    assert.equal(run.report, plain.report);
    assert.deepEqual(run.warnings, []);
  });
});

describe('the command cache', () => {
  const pool = fs.readFileSync(path.join(ws.dir, 'data/hotpot.jsonl'), 'utf8').split('\n').slice(0, 30).join('\n');
  ws.write('data/small.jsonl', `${pool}\n`);
  ws.write('gen.mjs', `import { appendFileSync, readFileSync } from 'node:fs';
import { createInterface } from 'node:readline';
appendFileSync('runs.txt', 'run\\n');
const ids = readFileSync('data/corpus.jsonl', 'utf8').split('\\n').filter(Boolean).slice(0, 20).map((l) => JSON.parse(l).id);
for await (const line of createInterface({ input: process.stdin })) console.log(JSON.stringify({ request: JSON.parse(line).request, candidates: ids }));
`);
  const spec = auditSpec('data/corpus.jsonl', 'data/small.jsonl').replace('using lexical(2)', 'using candidates command "node gen.mjs"');
  const runs = (): number => fs.readFileSync(path.join(ws.dir, 'runs.txt'), 'utf8').split('\n').length - 1;
  const commandFile = (dir: string): string => {
    const names = fs.readdirSync(cacheFolder(dir)).filter((n) => n.startsWith('command-'));
    assert.equal(names.length, 1, names.join());
    return path.join(cacheFolder(dir), names[0]!);
  };

  it('a planted command-cache entry (well-formed answers, without or with a wrong digest) is not used: the command runs anyway', async () => {
    const dir = freshCache();
    const first = await audit(dir, spec);
    assert.deepEqual(first.outcome.failures, []);
    const before = runs();
    assert.equal((await audit(dir, spec)).report, first.report);
    assert.equal(runs(), before, 'the control: the second audit read the cache');
    const file = commandFile(dir);
    const [digest, ...output] = fs.readFileSync(file, 'utf8').split('\n');
    // Every request answered with nothing: well-formed, and a different audit.
    const planted = output.filter(Boolean).map((line) => JSON.stringify({ request: (JSON.parse(line) as { request: number }).request, candidates: [] })).join('\n');
    for (const content of [`${planted}\n`, `${digest}\n${planted}\n`, `${'0'.repeat(64)}\n${planted}\n`]) {
      const ran = runs();
      fs.writeFileSync(file, content, { mode: 0o600 });
      const run = await audit(dir, spec);
      assert.equal(runs(), ran + 1, `the command ran again over ${JSON.stringify(content.slice(0, 80))}`);
      assert.equal(run.report, first.report);
    }
  });

  it('a command-cache entry that is a link to a file whose first line is a secret: the command runs, the secret is never quoted, the file untouched', async () => {
    const dir = freshCache();
    await audit(dir, spec);
    const file = commandFile(dir);
    const secretFile = path.join(ws.outside, 'secret.txt');
    const before = fs.readFileSync(secretFile);
    fs.rmSync(file);
    fs.symlinkSync(secretFile, file);
    const ran = runs();
    const run = await audit(dir, spec);
    assert.equal(runs(), ran + 1, 'the command ran');
    assert.deepEqual(run.outcome.failures, []);
    assert.ok(!run.said.includes(secret), 'the secret appears in what the audit said');
    assert.deepEqual(run.warnings, [`audit quick: warning: cache entry not used: ${file} is a symbolic link`]);
    assert.deepEqual(fs.readFileSync(secretFile), before);
    assert.ok(fs.lstatSync(file).isFile(), 'the output was kept in a new file in place of the link');
  });
});

describe('the BM25 index kept beside the rankings', () => {
  const bm25Text = text.replace('using lexical(2)', 'using bm25(2)');
  const indexFile = (dir: string): string => path.join(cacheFolder(dir), indexFileName(corpusHash));
  it('is written by the run that builds it and loaded by one that ranks anew; damaged, it is built again; the report is the same each time', async () => {
    assert.notEqual(bm25Text, text);
    const plain = await audit(false, bm25Text);
    const dir = freshCache();
    assert.equal((await audit(dir, bm25Text)).report, plain.report);
    assert.equal(fs.statSync(indexFile(dir)).mode & 0o777, 0o600);
    // Without the rankings, the next run ranks every query again, from the index it loads.
    fs.rmSync(path.join(cacheFolder(dir), rankingFileName(corpusHash, 'bm25')));
    const written = fs.statSync(indexFile(dir)).mtimeMs;
    assert.equal((await audit(dir, bm25Text)).report, plain.report);
    assert.equal(fs.statSync(indexFile(dir)).mtimeMs, written, 'an index that loads is not written again');
    // Worker threads are sent the file and load their own from it.
    fs.rmSync(path.join(cacheFolder(dir), rankingFileName(corpusHash, 'bm25')));
    assert.equal((await audit(dir, bm25Text, { workers: 3, minRowsPerWorker: 40 })).report, plain.report);
    fs.rmSync(path.join(cacheFolder(dir), rankingFileName(corpusHash, 'bm25')));
    fs.writeFileSync(indexFile(dir), Buffer.from([0xff, 0x0d, 0x6f, 0x7b, 0x00]));
    assert.equal((await audit(dir, bm25Text, { workers: 3, minRowsPerWorker: 40 })).report, plain.report, 'workers sent a damaged file build their own');
    fs.rmSync(path.join(cacheFolder(dir), rankingFileName(corpusHash, 'bm25')));
    fs.writeFileSync(indexFile(dir), Buffer.from([0xff, 0x0d, 0x6f, 0x7b, 0x00]));
    const damaged = await audit(dir, bm25Text);
    assert.equal(damaged.report, plain.report);
    assert.deepEqual(damaged.warnings, []);
    assert.ok(fs.statSync(indexFile(dir)).size > 5, 'the damaged file is replaced by the index built again');
  });
});
