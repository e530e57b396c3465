// Getting started and everyday use in a real VS Code: the expect lines as tests, New Spec, the
// `herald` audit tasks and the walkthrough's sample. The specs here are copies of the sample that
// ships in the installed extension (walkthrough/sample), so each audit takes a second or two.
import * as assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import * as vscode from 'vscode';
import { codeOf, extensionId, waitForDiagnostics, withCode } from './helpers';

interface ExpectationOutcome {
  readonly audit: string;
  readonly label: string;
  readonly line: number;
  readonly state: string;
  readonly message: string;
}

const folder = (): string => {
  const first = vscode.workspace.workspaceFolders?.[0];
  if (first === undefined) throw new Error('the tests need a workspace folder');
  return first.uri.fsPath;
};

function installedSample(): string {
  const extension = vscode.extensions.getExtension(extensionId);
  if (extension === undefined) throw new Error(`${extensionId} is not installed`);
  return path.join(extension.extensionPath, 'walkthrough/sample');
}

/** Resolves with the exit code of the task's process once it ends. */
function exitCodeOf(execution: vscode.TaskExecution, timeoutMs = 120_000): Promise<number | undefined> {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      listener.dispose();
      reject(new Error(`the task '${execution.task.name}' did not end within ${timeoutMs / 1000} s`));
    }, timeoutMs);
    const listener = vscode.tasks.onDidEndTaskProcess((e) => {
      if (e.execution !== execution) return;
      clearTimeout(timer);
      listener.dispose();
      resolve(e.exitCode);
    });
  });
}

describe('HERALD in VS Code: getting started and everyday use', () => {
  let dir: string;
  let passing: vscode.Uri;
  let failing: vscode.Uri;

  before(async () => {
    const extension = vscode.extensions.getExtension(extensionId);
    await extension?.activate();
    dir = path.join(folder(), 'getting-started');
    fs.cpSync(installedSample(), dir, { recursive: true });
    const text = fs.readFileSync(path.join(dir, 'paper.reward'), 'utf8');
    fs.writeFileSync(path.join(dir, 'failing.reward'), text.replace('expect minimal_repair == {L}', 'expect minimal_repair == {U}'));
    passing = vscode.Uri.file(path.join(dir, 'paper.reward'));
    failing = vscode.Uri.file(path.join(dir, 'failing.reward'));
  });

  it('runs a spec\'s expect lines as tests: one item per line, passed or failed with the observed figure', async () => {
    const outcomes = await vscode.commands.executeCommand<ExpectationOutcome[]>('herald.runExpectationTests', failing);
    const doc = await vscode.workspace.openTextDocument(failing);
    assert.deepEqual(outcomes.map((o) => [o.audit, o.label, doc.lineAt(o.line).text.trim(), o.state]), [
      ['paper', 'asr(R_L, launder, oracle_worst) == 0', 'expect asr(R_L, launder, oracle_worst) == 0', 'passed'],
      ['paper', 'asr(R0, launder, first_visible) <= 20%', 'expect asr(R0, launder, first_visible) <= 20%', 'passed'],
      ['paper', 'minimal_repair == {U}', 'expect minimal_repair == {U}', 'failed'],
    ], outcomes.map((o) => `${o.state}: ${o.message}`).join('\n'));
    assert.match(outcomes[0]!.message, /^asr = 0\.00% over 40 isolated-eligible clusters$/);
    assert.equal(outcomes[2]!.message, 'observed inclusion-minimal: {L} (expected minimal_repair == {U})');
  });

  it('says why a spec with errors has no results, on every line', async () => {
    const broken = vscode.Uri.file(path.join(dir, 'broken.reward'));
    fs.writeFileSync(broken.fsPath, fs.readFileSync(passing.fsPath, 'utf8').replace('reward R0\n  compare', 'reward R9\n  compare'));
    const outcomes = await vscode.commands.executeCommand<ExpectationOutcome[]>('herald.runExpectationTests', broken);
    assert.deepEqual(outcomes.map((o) => o.state), ['errored', 'errored', 'errored']);
    assert.ok(outcomes.every((o) => o.message.startsWith('not audited')), outcomes.map((o) => o.message).join('\n'));
  });

  it('writes a new spec beside the chosen pools, opens it, and never overwrites one', async () => {
    const pools = ['hotpot', '2wiki'].map((p) => path.join(dir, 'pools', `${p}.jsonl`));
    const args = { pools, corpus: path.join(dir, 'pools/corpus.jsonl'), name: 'mine' };
    const created = await vscode.commands.executeCommand<vscode.Uri | undefined>('herald.newSpec', args);
    assert.equal(created?.fsPath, path.join(dir, 'pools/mine.reward'));
    assert.equal(vscode.window.activeTextEditor?.document.uri.fsPath, created.fsPath, 'the new spec is open');
    const text = fs.readFileSync(created.fsPath, 'utf8');
    assert.match(text, /^corpus wiki = "corpus\.jsonl"$/m);
    assert.match(text, /^pool hotpot\s+= "hotpot\.jsonl"$/m);
    assert.match(text, /^audit main /m);

    fs.writeFileSync(created.fsPath, 'kept\n');
    assert.equal(await vscode.commands.executeCommand('herald.newSpec', args), undefined);
    assert.equal(fs.readFileSync(created.fsPath, 'utf8'), 'kept\n', 'an existing spec is left as it was');

    // In a folder without a corpus.jsonl, so that the placeholder link finds nothing.
    fs.mkdirSync(path.join(dir, 'logs'));
    fs.copyFileSync(pools[0]!, path.join(dir, 'logs/hotpot.jsonl'));
    const placeholder = await vscode.commands.executeCommand<vscode.Uri | undefined>('herald.newSpec', { pools: [path.join(dir, 'logs/hotpot.jsonl')], corpus: null, name: 'no-corpus' });
    assert.ok(placeholder);
    const ds = await waitForDiagnostics(placeholder, 'missing-file on the placeholder corpus', (d) => withCode(d, 'missing-file').length > 0, 30_000);
    const doc = await vscode.workspace.openTextDocument(placeholder);
    assert.deepEqual(ds.filter((d) => d.severity === vscode.DiagnosticSeverity.Error).map((d) => `${codeOf(d)}: ${doc.lineAt(d.range.start.line).text}`),
      ['missing-file: corpus wiki = "corpus.jsonl"']);
  });

  it("writes a spec from a framework's logs, fitted to what the rows hold, and audits it", async () => {
    const logs = path.join(dir, 'verl-logs');
    fs.mkdirSync(logs);
    // The runner copies samples/search-r1/rollout (a verl dump) into the workspace.
    const dump = path.join(folder(), 'search-r1-rollout');
    for (const name of fs.readdirSync(dump)) fs.copyFileSync(path.join(dump, name), path.join(logs, name));
    fs.copyFileSync(path.join(dir, 'pools/corpus.jsonl'), path.join(logs, 'corpus.jsonl'));
    const pools = fs.readdirSync(dump).sort().map((name) => path.join(logs, name));
    const created = await vscode.commands.executeCommand<vscode.Uri | undefined>('herald.newSpecFromLogs', {
      pools, from: { format: 'verl', options: { dialect: 'search_r1' } }, corpus: path.join(logs, 'corpus.jsonl'), name: 'from-logs',
    });
    assert.equal(created?.fsPath, path.join(logs, 'from-logs.reward'));
    const text = fs.readFileSync(created.fsPath, 'utf8');
    // The corpus shares the folder, so the dump's files are one brace list: one pool, not one per file.
    assert.match(text, /^pool rollouts = "\{1,2,3,4,5,6,7,8,9,10,11,12,13\}\.jsonl" from verl\(dialect: search_r1\)$/m);
    assert.match(text, /# launder, fake_id left out: no row of this pool cites a passage \(0 of \d+\)\./);
    const ds = await waitForDiagnostics(created, 'the starter audited', (d) => d.some((x) => codeOf(x) === 'attack-succeeds' || codeOf(x) === 'attack-ties'), 120_000);
    assert.deepEqual(ds.filter((d) => d.severity === vscode.DiagnosticSeverity.Error).map((d) => `${codeOf(d)}: ${d.message}`), []);
  });

  it('puts the bundled herald on the terminal PATH: the launcher it names runs the command line', async () => {
    const bin = await vscode.commands.executeCommand<string>('herald.addToTerminalPath');
    const launcher = path.join(bin, process.platform === 'win32' ? 'herald.cmd' : 'herald');
    const version = execFileSync(launcher, ['--version'], { encoding: 'utf8' });
    const extension = vscode.extensions.getExtension(extensionId);
    assert.match(version, new RegExp(String((extension?.packageJSON as { version: string }).version).replace(/\./g, '\\.')));
  });

  it('offers herald tasks per spec and block kind, which run the bundled command line with exit 1 when an expectation fails', async () => {
    const tasks = await vscode.tasks.fetchTasks({ type: 'herald' });
    const names = tasks.map((t) => t.name);
    for (const name of ['audit paper.reward', 'audit getting-started/paper.reward', 'audit getting-started/failing.reward', 'signal training.reward', 'compare training.reward']) {
      assert.ok(names.includes(name), names.join(', '));
    }
    assert.ok(!names.includes('audit training.reward'), 'a spec without audit blocks gets no audit task');
    const task = (name: string): vscode.Task => tasks.find((t) => t.name === name)!;
    assert.equal(task('audit getting-started/paper.reward').source, 'herald');
    assert.deepEqual(task('audit getting-started/paper.reward').definition, { type: 'herald', spec: 'getting-started/paper.reward' });
    assert.equal(await exitCodeOf(await vscode.tasks.executeTask(task('audit getting-started/paper.reward'))), 0);
    assert.equal(await exitCodeOf(await vscode.tasks.executeTask(task('audit getting-started/failing.reward'))), 1);
  });

  it('opens the walkthrough\'s sample from the extension\'s storage, audits it, and runs its expectations', async () => {
    const uri = await vscode.commands.executeCommand<vscode.Uri>('herald.openSample');
    assert.equal(vscode.window.activeTextEditor?.document.uri.fsPath, uri.fsPath);
    assert.equal(vscode.window.activeTextEditor?.document.languageId, 'reward');
    assert.ok(!uri.fsPath.startsWith(folder()), `the sample is copied outside the workspace, to the extension's storage: ${uri.fsPath}`);
    await waitForDiagnostics(uri, 'launder beats R0 on the sample', (d) => withCode(d, 'attack-succeeds').some((x) => x.message.includes('launder beats R0')));
    const outcomes = await vscode.commands.executeCommand<ExpectationOutcome[]>('herald.walkthrough.runTests');
    assert.deepEqual(outcomes.map((o) => o.state), ['passed', 'passed', 'passed']);
    await vscode.commands.executeCommand('herald.getStarted');
  });
});
