// Workspace trust on and the folder untrusted (VS Code's restricted mode), with the installed .vsix.
// What still works: the checker, hovers, and audits whose data is inside the workspace. What does not
// happen: any read of a linked file outside the workspace. code-server runs under strace, which logs
// every file-path system call of it, its extension host and the language server; the log must never
// name the outside folder, and must name the inside pools (so the trace did see the server's reads).
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { after, before, describe, it } from 'node:test';
import type { Page } from 'playwright-core';
import { lineColumn, openWorkbench, outputFolder, requireTools, sampleWorkspace, type Workbench } from './code-server';

const out = outputFolder('code-server-untrusted');
const shot = (page: Page, name: string): Promise<Buffer> => page.screenshot({ path: path.join(out, `${name}.png`) });
const strace = '/usr/bin/strace';

describe('an untrusted workspace in the workbench (code-server, restricted mode)', () => {
  requireTools();
  if (!fs.existsSync(strace)) throw new Error(`${strace} is missing: apt-get install strace (scripts/install-code-server.sh does)`);
  const workspace = sampleWorkspace(path.join(out, 'workspace'));
  // Beside the workspace, not in it: a spec in the workspace links these by a relative path.
  const outside = path.join(out, 'outside-data');
  fs.mkdirSync(outside);
  fs.copyFileSync(path.join(workspace, 'pools/corpus.jsonl'), path.join(outside, 'corpus.jsonl'));
  fs.copyFileSync(path.join(workspace, 'pools/hotpot.jsonl'), path.join(outside, 'hotpot.jsonl'));
  const spec = fs.readFileSync(path.join(workspace, 'paper.reward'), 'utf8');
  fs.writeFileSync(path.join(workspace, 'elsewhere.reward'), spec
    .replace('"pools/corpus.jsonl"', '"../outside-data/corpus.jsonl"')
    .replace('"pools/hotpot.jsonl"', '"../outside-data/hotpot.jsonl"'));
  const trace = path.join(out, 'strace.log');

  let workbench: Workbench;
  let page: Page;
  let actions: Workbench['actions'];

  before(async () => {
    workbench = await openWorkbench({
      out, home: path.join(out, 'home'), workspace, trust: true,
      // -f: every process code-server starts; %file: every system call that takes a path.
      wrapper: [strace, '-f', '--seccomp-bpf', '-qq', '-e', 'trace=%file', '-e', 'signal=none', '-o', trace],
      // libuv's io_uring file operations would bypass the traced system calls.
      env: { UV_USE_IO_URING: '0' },
    });
    ({ page, actions } = workbench);
  });

  after(() => workbench?.close());

  it('opens the folder in restricted mode', async () => {
    await page.locator('.statusbar-item', { hasText: 'Restricted Mode' }).waitFor({ timeout: 60_000 });
  });

  it('checks a spec whose data is outside the workspace, says why it is not audited, and reads none of it', async () => {
    await actions.openFile('elsewhere.reward');
    await page.locator('.statusbar-item', { hasText: 'HERALD not audited: 2 linked files are outside this untrusted workspace' }).waitFor({ timeout: 150_000 });
    await actions.toggleProblems();
    await page.locator('.markers-panel .monaco-list-row', { hasText: 'outside this untrusted workspace' }).first().waitFor();
    const rows = await actions.problemRows();
    assert.equal(rows.filter((r) => r.includes('outside this untrusted workspace; trust the workspace to check and audit it')).length, 2, rows.join('\n'));
    assert.ok(!rows.some((r) => /beats R0|penalty cancellation/.test(r)), 'no audit finding for a spec that was not audited');
    await shot(page, '01-untrusted-outside-links');
    await actions.toggleProblems();
  });

  it('still audits the sample spec, whose pools are inside the workspace, and hovers work', async () => {
    await actions.openFile('paper.reward');
    await page.locator('.statusbar-item', { hasText: /HERALD \d+ of \d+ expectations hold/ }).waitFor({ timeout: 150_000 });
    await actions.toggleProblems();
    await page.locator('.markers-panel .monaco-list-row', { hasText: /launder beats R0/ }).first().waitFor();
    await actions.toggleProblems();
    await actions.goTo(lineColumn(spec, 'detector L', 'L'));
    assert.match(await actions.hover('Certificate'), /Mean −λ·d/);
    await shot(page, '02-untrusted-inside-audited');
  });

  it('never touched a file outside the workspace (strace of code-server and all its children)', async () => {
    await workbench.close();
    const log = fs.readFileSync(trace, 'utf8');
    const touched = log.split('\n').filter((l) => l.includes(outside));
    assert.deepEqual(touched, [], `file system calls on ${outside}`);
    // The control: the trace did see the language server read the inside pools.
    assert.ok(log.includes(path.join(workspace, 'pools/hotpot.jsonl')), 'strace saw no read of the workspace pools: the trace is not seeing the server');
  });
});
