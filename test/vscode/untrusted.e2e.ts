// Workspace trust on and the folder untrusted (VS Code's restricted mode), with the installed .vsix.
// What still works: the checker, hovers, and audits whose data is inside the workspace. What does not
// happen: any read of a linked file outside the workspace, by its name or through a symbolic link in
// the workspace, nor any use of the shared ranking cache. code-server runs under strace, which logs
// every file-path system call of it, its extension host and the language server, with -y: every file
// descriptor, also one an open returns, is printed with the path of the file it refers to, so a file
// opened through a link shows under its real path. The log must never name the files linked by name,
// must show no descriptor of a file in the outside folder, and must name the inside pools (so the
// trace did see the server's reads).
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { after, before, describe, it } from 'node:test';
import type { Page } from 'playwright-core';
import { lineColumn, openWorkbench, outputFolder, requireTools, sampleWorkspace, type Workbench } from './code-server';

const out = outputFolder('code-server-untrusted');
const shot = (page: Page, name: string): Promise<Buffer> => page.screenshot({ path: path.join(out, `${name}.png`) });
const strace = '/usr/bin/strace';

/** System calls that open, create, change or run a file by its path. */
const byPath = /^\d+\s+(open|openat|openat2|creat|truncate|execve|rename|renameat2?|unlink|unlinkat|mkdir|mkdirat|symlink|symlinkat|link|linkat)\(/;

/**
 * Trace lines that opened, read or wrote something under `folder`: a descriptor printed with a path
 * under it (strace -y), or a call that opens or changes a file by such a path. Resolving a link that
 * points there (readlink, stat) shows where the link leads but opens nothing, and is not counted.
 */
function accessesUnder(log: string, folder: string): string[] {
  return log.split('\n').filter((l) => l.includes(`<${folder}`) || (byPath.test(l) && l.includes(`"${folder}`)));
}

describe('an untrusted workspace in the workbench (code-server, restricted mode)', () => {
  requireTools();
  if (!fs.existsSync(strace)) throw new Error(`${strace} is missing: apt-get install strace (scripts/install-code-server.sh does)`);
  const workspace = sampleWorkspace(path.join(out, 'workspace'));
  // Beside the workspace, not in it: a spec in the workspace links these by a relative path.
  const outside = path.join(out, 'outside-data');
  const byName = ['corpus.jsonl', 'hotpot.jsonl', 'dense-candidates.jsonl'].map((f) => path.join(outside, f));
  fs.mkdirSync(outside);
  for (const file of byName) fs.copyFileSync(path.join(workspace, 'pools', path.basename(file)), file);
  const spec = fs.readFileSync(path.join(workspace, 'paper.reward'), 'utf8');
  fs.writeFileSync(path.join(workspace, 'elsewhere.reward'), spec
    .replace('"pools/corpus.jsonl"', '"../outside-data/corpus.jsonl"')
    .replace('"pools/hotpot.jsonl"', '"../outside-data/hotpot.jsonl"'));
  // Symbolic links in the workspace that lead out of it: a pool, and a baseline beside a spec.
  const linkedTargets = path.join(outside, 'linked');
  fs.mkdirSync(linkedTargets);
  fs.copyFileSync(path.join(workspace, 'pools/hotpot.jsonl'), path.join(linkedTargets, 'hotpot.jsonl'));
  fs.symlinkSync(path.join(linkedTargets, 'hotpot.jsonl'), path.join(workspace, 'linked-hotpot.jsonl'));
  fs.writeFileSync(path.join(workspace, 'linked.reward'), spec.replace('"pools/hotpot.jsonl"', '"linked-hotpot.jsonl"'));
  fs.writeFileSync(path.join(linkedTargets, 'baseline.json'), '{"version": 1, "audits": {}}\n');
  fs.writeFileSync(path.join(workspace, 'baselined.reward'), spec);
  fs.symlinkSync(path.join(linkedTargets, 'baseline.json'), path.join(workspace, 'baselined.reward.baseline.json'));
  // A comparison whose attack reads candidates outside.
  const training = fs.readFileSync(path.join(workspace, 'training.reward'), 'utf8');
  fs.writeFileSync(path.join(workspace, 'compared.reward'), training.replace('using lexical(8)', 'using candidates "../outside-data/dense-candidates.jsonl"'));
  // A spec whose committed baseline its audit breaks (launder under R0 was 0), for the accept-baseline quick fix.
  fs.writeFileSync(path.join(workspace, 'regressed.reward'), spec);
  const regressedBaseline = path.join(workspace, 'regressed.reward.baseline.json');
  fs.writeFileSync(regressedBaseline, JSON.stringify({ version: 1, audits: { paper: { weights: {}, figures: { 'launder / R0 / oracle_worst': { asr: 0, upper: 0, clusters: 200 } } } } }));
  const accepted = path.join(linkedTargets, 'accepted.json');
  // The shared ranking cache: an untrusted workspace must neither read nor write it.
  const rankingCache = path.join(out, 'ranking-cache');
  const trace = path.join(out, 'strace.log');

  let workbench: Workbench;
  let page: Page;
  let actions: Workbench['actions'];

  before(async () => {
    workbench = await openWorkbench({
      out, home: path.join(out, 'home'), workspace, trust: true,
      // -f: every process code-server starts; %file: every system call that takes a path; -y: descriptors
      // (also those an open returns) printed with the path of their file, so reads through links show.
      wrapper: [strace, '-f', '-y', '--seccomp-bpf', '-qq', '-e', 'trace=%file', '-e', 'signal=none', '-o', trace],
      // libuv's io_uring file operations would bypass the traced system calls.
      env: { UV_USE_IO_URING: '0', HERALD_CACHE_DIR: rankingCache },
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

  it('does not read a pool that is a symbolic link in the workspace to a file outside it', async () => {
    await actions.openFile('linked.reward');
    await page.locator('.statusbar-item', { hasText: 'HERALD not audited: 1 linked file is outside this untrusted workspace' }).waitFor({ timeout: 150_000 });
    await actions.toggleProblems();
    await page.locator('.markers-panel .monaco-list-row', { hasText: "'linked-hotpot.jsonl'" }).first().waitFor();
    await shot(page, '03-untrusted-linked-pool');
    await actions.toggleProblems();
  });

  it('does not read a baseline that is a symbolic link to a file outside, and says so', async () => {
    await actions.openFile('baselined.reward');
    await page.locator('.statusbar-item', { hasText: 'HERALD not audited: 1 linked file is outside this untrusted workspace (the baseline baselined.reward.baseline.json among them)' })
      .waitFor({ timeout: 150_000 });
    await shot(page, '04-untrusted-linked-baseline');
  });

  it("does not run a comparison whose candidates are outside, and the link says why", async () => {
    await actions.openFile('compared.reward');
    await page.locator('.statusbar-item', { hasText: 'HERALD not run: a linked file is outside this untrusted workspace' }).waitFor({ timeout: 150_000 });
    await actions.toggleProblems();
    await page.locator('.markers-panel .monaco-list-row', { hasText: "'../outside-data/dense-candidates.jsonl'" }).first().waitFor();
    await shot(page, '05-untrusted-comparison-candidates');
    await actions.toggleProblems();
  });

  it('accepting the baseline does not write through a symbolic link that now leads outside', async () => {
    await actions.openFile('regressed.reward');
    await actions.toggleProblems();
    await page.locator('.markers-panel .monaco-list-row', { hasText: /regression against the baseline: launder under R0/ }).first().waitFor({ timeout: 150_000 });
    await actions.toggleProblems();
    // Since the audit, the baseline's name became a link to a file outside the workspace (a checkout, say).
    fs.rmSync(regressedBaseline);
    fs.symlinkSync(accepted, regressedBaseline);
    await actions.goTo(lineColumn(spec, 'reward R0', 'R0'));
    await page.keyboard.press('Control+.');
    const accept = page.locator('.action-widget .monaco-list-row', { hasText: 'Accept the current audit figures as the baseline' });
    await accept.waitFor();
    // The menu sits under a pointer block while it animates, so choose with the keyboard.
    for (let step = 0; step < 10 && !(await accept.getAttribute('class'))?.includes('focused'); step += 1) await page.keyboard.press('ArrowDown');
    await page.keyboard.press('Enter');
    await page.locator('.notifications-toasts', { hasText: 'the baseline was not written' }).waitFor({ timeout: 30_000 });
    await shot(page, '06-accept-baseline-refused');
    assert.ok(!fs.existsSync(accepted), `accepting the baseline wrote ${accepted} through the link`);
    assert.ok(fs.lstatSync(regressedBaseline).isSymbolicLink());
  });

  it('never read a file outside the workspace, nor the ranking cache (strace of code-server and all its children)', async () => {
    await workbench.close();
    const log = fs.readFileSync(trace, 'utf8');
    // Files linked by name outside the workspace: not a single system call names them.
    const named = log.split('\n').filter((l) => byName.some((file) => l.includes(file)));
    assert.deepEqual(named, [], 'file system calls on files linked by name outside the workspace');
    // Anything in the outside folder, reached by name or through a link: never opened, read or written.
    assert.deepEqual(accessesUnder(log, outside), [], `files under ${outside} opened, read or written`);
    assert.deepEqual(accessesUnder(log, rankingCache), [], 'the ranking cache was used in an untrusted workspace');
    assert.ok(!fs.existsSync(rankingCache), 'the ranking cache was made in an untrusted workspace');
    // The control: the trace did see the language server read the inside pools, and shows descriptors with paths.
    assert.ok(log.includes(path.join(workspace, 'pools/hotpot.jsonl')), 'strace saw no read of the workspace pools: the trace is not seeing the server');
    assert.ok(log.includes(`<${path.join(workspace, 'pools/hotpot.jsonl')}>`), 'strace -y printed no descriptor with its path: reads through links would not show');
  });
});
