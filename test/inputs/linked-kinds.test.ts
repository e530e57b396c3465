// Issue 13, item 1: a comparison's candidates are a file the spec reads like any other (listed,
// probed, trusted), and whatever a spec links that is not a regular file (FIFO, device, socket,
// folder) is refused before it is read: by the checker at the link, and by the loaders if one is
// put there after the check, at once and naming the file, never blocking on a FIFO.
import assert from 'node:assert/strict';
import * as net from 'node:net';
import * as path from 'node:path';
import { after, describe, it } from 'node:test';
import { probeFile } from '../../server/src/inputs/file-probe.js';
import { InputCache } from '../../server/src/inputs/input-cache.js';
import { IssueLog, loadInputs } from '../../server/src/inputs/load-inputs.js';
import { loadCandidates, loadCorpus, loadPool } from '../../server/src/inputs/loaders.js';
import { specInputs } from '../../server/src/inputs/spec-inputs.js';
import { WorkspaceTrust } from '../../server/src/inputs/trust.js';
import { analyze } from '../../server/src/semantics/analyze.js';
import { comparisonSpec, workspace } from './workspace.js';

/** Settles within `ms` or fails: a load that blocks on a FIFO must fail the test, not hang it. */
async function promptly<T>(what: string, promise: Promise<T>, ms = 10_000): Promise<T> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`${what} did not finish within ${ms} ms (blocked?)`)), ms);
  });
  try {
    return await Promise.race([promise, timeout]);
  } finally {
    clearTimeout(timer);
  }
}

describe("a comparison's candidates file is listed, checked and trusted like every linked file", () => {
  const ws = workspace();
  const specFile = path.join(ws.dir, 'compare.reward');
  const codeAtLink = (candidates: string): string[] => {
    const text = comparisonSpec('data/corpus.jsonl', 'data/hotpot.jsonl', candidates);
    return analyze(text, { specFile, probeFile }).problems.filter((p) => text.slice(p.span.start, p.span.end) === JSON.stringify(candidates)).map((p) => p.code);
  };

  it('specInputs lists the candidates of a comparison', () => {
    const text = comparisonSpec('data/corpus.jsonl', 'data/hotpot.jsonl', '../outside/cands.jsonl');
    const inputs = specInputs(analyze(text).model.spec, specFile);
    assert.deepEqual(inputs.filter((i) => i.kind === 'candidates').map((i) => i.path), [path.join(ws.outside, 'cands.jsonl')]);
  });

  it('the checker: a missing candidates file is missing-file; a FIFO, /dev/zero, a socket and a folder are unreadable-file', async () => {
    ws.fifo('pipe.jsonl');
    const socket = path.join(ws.dir, 'sock.jsonl');
    const server = net.createServer().listen(socket);
    after(() => server.close());
    await new Promise((resolve) => server.once('listening', resolve));
    assert.deepEqual(codeAtLink('nothere.jsonl'), ['missing-file']);
    for (const link of ['pipe.jsonl', '/dev/zero', 'sock.jsonl', 'data']) assert.deepEqual(codeAtLink(link), ['unreadable-file'], link);
  });

  it('in an untrusted workspace, candidates outside it are untrusted-file and not probed', () => {
    const trust = new WorkspaceTrust(false, [ws.dir]);
    const text = comparisonSpec('data/corpus.jsonl', 'data/hotpot.jsonl', '../outside/cands.jsonl');
    const probed: string[] = [];
    const probe = (p: string) => (trust.allows(p) ? (probed.push(p), probeFile(p)) : 'untrusted' as const);
    const problems = analyze(text, { specFile, probeFile: probe }).problems;
    assert.deepEqual(problems.filter((p) => p.code === 'untrusted-file').map((p) => text.slice(p.span.start, p.span.end)), ['"../outside/cands.jsonl"']);
    assert.ok(!probed.some((p) => p.startsWith(ws.outside)), probed.join('\n'));
  });
});

describe('the loaders refuse what is not a regular file, at once, naming it', () => {
  const ws = workspace();

  it('a FIFO (nobody writes to it) as candidates, pool and corpus: not a regular file, no wait', async () => {
    const fifo = ws.fifo('late.jsonl');
    const loads: (() => Promise<{ fileError?: string | undefined; items: readonly unknown[] }>)[] = [() => loadCandidates(fifo), () => loadPool(fifo, 'p'), () => loadCorpus(fifo)];
    for (const load of loads) {
      const loaded = await promptly('loading a FIFO', load());
      assert.equal(loaded.fileError, `${fifo}: cannot read: not a regular file (a FIFO)`);
      assert.deepEqual(loaded.items, []);
    }
  });

  it('devices, a socket and a folder', async () => {
    const socket = path.join(ws.dir, 'socket.jsonl');
    const server = net.createServer().listen(socket);
    after(() => server.close());
    await new Promise((resolve) => server.once('listening', resolve));
    const cases: [string, string][] = [
      ['/dev/zero', 'not a regular file (a character device)'],
      ['/dev/urandom', 'not a regular file (a character device)'],
      [socket, 'not a regular file (a socket)'],
      [ws.dir, 'a folder, not a file'],
    ];
    for (const [file, why] of cases) assert.equal((await promptly(file, loadPool(file, 'p'))).fileError, `${file}: cannot read: ${why}`);
  });

  it('a comparison whose candidates became a FIFO after the check fails its load with the file named', async () => {
    const fifo = ws.fifo('cands.jsonl');
    const issues = new IssueLog();
    const request = { corpus: { name: 'wiki', file: path.join(ws.dir, 'data/corpus.jsonl') }, pools: [{ name: 'base', file: path.join(ws.dir, 'data/hotpot.jsonl') }], candidates: [{ link: 'cands.jsonl', file: fifo }] };
    const load = await promptly('loadInputs', loadInputs(ws.dir, request, { cache: new InputCache(), trust: WorkspaceTrust.everything, issues }));
    assert.equal(load.ok, false);
    assert.deepEqual(issues.issues, [{ file: fifo, line: 0, reason: `${fifo}: cannot read: not a regular file (a FIFO)` }]);
  });
});
