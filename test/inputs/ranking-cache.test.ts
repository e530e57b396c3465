// Issue 13, items 5 and 10: the shared ranking cache is read and written only in a trusted
// workspace (and by the CLI); a cache folder that cannot be made or written is skipped with one
// warning, never a hang (Node's recursive mkdir loops forever under /proc).
import { analysisRequest } from '../helpers/analysis-request.js';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { describe, it } from 'node:test';
import { auditSpec as runAuditSpec, newAuditCaches } from '../../server/src/audit/audit-spec.js';
import { openRankingStore, rankingFileName } from '../../server/src/inputs/ranking-cache.js';
import { cacheFolder, prepareCacheFolder } from '../../server/src/inputs/cache-folder.js';
import { corpusOrder } from '../../server/src/pool/corpus-order.js';
import { WorkspaceTrust } from '../../server/src/inputs/trust.js';
import { runAnalyses, type PartReply } from '../../server/src/lsp/analysis-run.js';
import { auditSpec, makeFifo, workspace } from './workspace.js';

const files = (dir: string): string[] => (fs.existsSync(dir) ? fs.readdirSync(dir, { recursive: true, encoding: 'utf8' }) : []);

describe('a ranking cache that cannot be written is skipped with one warning', () => {
  const ws = workspace();
  const specFile = ws.write('spec.reward', auditSpec('data/corpus.jsonl', 'data/hotpot.jsonl'));
  const text = fs.readFileSync(specFile, 'utf8');

  it('HERALD_CACHE_DIR under /proc: the audit ends, with one warning (in a child process, so a hang fails instead of stalling the suite)', () => {
    const script = `
      const { auditSpec } = require(${JSON.stringify(path.resolve('out/server/src/audit/audit-spec.js'))});
      const warnings = [];
      auditSpec(${JSON.stringify(text)}, ${JSON.stringify(specFile)}, { onProgress: (m) => { if (m.startsWith('warning')) warnings.push(m); } })
        .then((o) => console.log(JSON.stringify({ report: o.report !== undefined, warnings })));
    `;
    const child = spawnSync(process.execPath, ['-e', script], { encoding: 'utf8', timeout: 60_000, env: { ...process.env, HERALD_CACHE_DIR: '/proc/herald-cache-test/x' } });
    assert.equal(child.error, undefined, 'the audit did not end within 60 s');
    assert.equal(child.status, 0, child.stderr);
    assert.deepEqual(JSON.parse(child.stdout), {
      report: true,
      warnings: ['warning: cache skipped (candidate rankings and command outputs are not kept between runs): the folder /proc/herald-cache-test cannot be made (ENOENT)'],
    });
  });

  it('a cache path that is a file: one warning, the same report', async () => {
    const notAFolder = ws.write('not-a-folder', 'x');
    const warnings: string[] = [];
    const outcome = await runAuditSpec(text, specFile, { candidateCache: notAFolder, onProgress: (m) => m.startsWith('warning') && warnings.push(m) });
    assert.ok(outcome.report !== undefined);
    assert.deepEqual(warnings, [`warning: cache skipped (candidate rankings and command outputs are not kept between runs): ${notAFolder} is not a folder`]);
  });

  it('prepareCacheFolder makes the folder level by level, and says why it cannot', () => {
    const deep = path.join(ws.root, 'cache/a/b');
    assert.equal(prepareCacheFolder(deep), undefined);
    assert.ok(fs.statSync(cacheFolder(deep)).isDirectory());
    assert.equal(fs.statSync(cacheFolder(deep)).mode & 0o777, 0o700, 'made for this user alone');
    assert.match(prepareCacheFolder('/proc/herald-cache-test') ?? '', /cannot be made \(ENOENT\)$/);
    assert.match(prepareCacheFolder('/dev/null/x') ?? '', /not a folder/);
  });

  it('a FIFO where a store file belongs neither blocks the read nor the write', () => {
    const dir = path.join(ws.root, 'fifo-cache');
    assert.equal(prepareCacheFolder(dir), undefined);
    makeFifo(path.join(cacheFolder(dir), rankingFileName('corpus-hash', 'lexical')));
    const store = openRankingStore(dir, 'corpus-hash', 'lexical', corpusOrder({ file: 'corpus.jsonl', passages: new Map([['w:1', { id: 'w:1', title: 't', text: 't' }]]) }));
    assert.equal(store.get('q'), undefined);
    store.set('q', { ids: ['w:1'], complete: true });
    store.flush();
  });
});

describe('the ranking cache in an untrusted workspace', () => {
  const ws = workspace();
  const specFile = ws.write('spec.reward', auditSpec('data/corpus.jsonl', 'data/hotpot.jsonl'));
  const text = fs.readFileSync(specFile, 'utf8');

  it('auditSpec under an untrusted rule neither makes nor reads the cache, even when one is named', async () => {
    const cache = path.join(ws.root, 'named-cache');
    const outcome = await runAuditSpec(text, specFile, { candidateCache: cache, trust: new WorkspaceTrust(false, [ws.dir]) });
    assert.ok(outcome.report !== undefined);
    assert.deepEqual(files(cache), []);
  });

  it("the worker's untrusted audits leave the default cache folder alone; trusted ones fill it (the control)", async () => {
    const cache = path.join(ws.root, 'default-cache');
    process.env['HERALD_CACHE_DIR'] = cache;
    const run = async (untrustedFolders?: readonly string[]): Promise<void> => {
      const replies: PartReply[] = [];
      const request = analysisRequest(text, specFile, { audits: true, signals: false, comparisons: false, ...(untrustedFolders === undefined ? {} : { untrustedFolders }) });
      await runAnalyses(1, request, { cache: newAuditCaches(), isCancelled: () => false, onProgress: () => undefined }, (r) => replies.push(r));
      const audits = replies.find((r) => r.kind === 'audits');
      assert.ok(audits?.kind === 'audits' && audits.outcome.state === 'done' && audits.outcome.results.report !== undefined);
    };
    await run([ws.dir]);
    assert.deepEqual(files(cache), []);
    await run();
    assert.ok(files(cache).some((f) => f.endsWith('.jsonl')), 'a trusted audit keeps its rankings');
  });
});
