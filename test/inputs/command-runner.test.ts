// Issue 33, item 9: no process a command starts outlives its run, on every way the run ends: the
// shell's exit (with children left in the background or in a session of their own), a failure, the
// timeout, a cancellation, killLiveRuns (the CLI's signal handlers), a terminated worker thread and
// the death of the process that ran it (the guard). Every sleeper carries a marker in its command
// line, and the assertion is that none holding it is left once the run is over.
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { after, describe, it } from 'node:test';
import { Worker } from 'node:worker_threads';
import { killLiveRuns, runCommand, type CommandRun } from '../../server/src/inputs/command-runner.js';
import { commandRunVariable, taggedProcesses } from '../../server/src/inputs/command-sweep.js';
import { newMarker, noSetsid, remaining, setsid, sleeper, started, survivors } from '../helpers/command-processes.js';

const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'herald-command-'));
after(() => fs.rmSync(dir, { recursive: true, force: true }));
const runner = path.resolve(__dirname, '../../server/src/inputs/command-runner.js');

const run = (command: string, more: Partial<CommandRun> = {}): CommandRun => ({ command, cwd: dir, stdin: '', timeoutSeconds: 30, ...more });
/** A sleeper in the background with its output elsewhere, one in a session of its own (where setsid is installed), and `then`. */
const leaveBehind = (marker: string, then: string): string =>
  `${sleeper(marker)} >/dev/null 2>&1 & ${noSetsid === undefined ? `${setsid} ${sleeper(marker)} >/dev/null 2>&1 & ` : ''}${then}`;
/** The sleepers leaveBehind starts. */
const leftBehind = noSetsid === undefined ? 2 : 1;

describe('the processes of a command run', () => {
  it('a normal exit kills what the shell left running in the background', async () => {
    const marker = newMarker();
    const outcome = await runCommand(run(`${sleeper(marker)} >/dev/null 2>&1 & echo done`));
    assert.deepEqual(outcome, { kind: 'done', stdout: 'done\n' });
    assert.deepEqual(await survivors(marker), []);
  });

  it('a background child that keeps the output open neither survives nor holds the run until its timeout', async () => {
    const marker = newMarker();
    const begun = Date.now();
    const outcome = await runCommand(run(`${sleeper(marker)} & echo done`, { timeoutSeconds: 20 }));
    assert.deepEqual(outcome, { kind: 'done', stdout: 'done\n' });
    assert.ok(Date.now() - begun < 10_000, `the run took ${Date.now() - begun} ms`);
    assert.deepEqual(await survivors(marker), []);
  });

  it('a setsid daemon (out of the group, same environment) is killed when the run ends', { skip: noSetsid }, async () => {
    const marker = newMarker();
    const outcome = await runCommand(run(`${setsid} ${sleeper(marker)} >/dev/null 2>&1 & /bin/sh -c '${setsid} ${sleeper(marker)} >/dev/null 2>&1 &'; echo done`));
    assert.deepEqual(outcome, { kind: 'done', stdout: 'done\n' });
    assert.deepEqual(await survivors(marker), []);
  });

  it('every process of the run carries its tag, and none is left with it', async () => {
    const outcome = await runCommand(run(`${sleeper(newMarker())} >/dev/null 2>&1 & echo "$${commandRunVariable}"`));
    assert.equal(outcome.kind, 'done');
    const token = outcome.kind === 'done' ? outcome.stdout.trim() : '';
    assert.match(token, /^[0-9a-f]{32}$/);
    assert.deepEqual(await remaining(() => taggedProcesses(token)), []);
  });

  it('a run inside another run keeps the outer token beside its own, so the outer sweep reaches it', async () => {
    const outer = 'f'.repeat(32);
    process.env[commandRunVariable] = outer;
    try {
      const outcome = await runCommand(run(`echo "$${commandRunVariable}"`));
      assert.equal(outcome.kind, 'done');
      if (outcome.kind === 'done') assert.match(outcome.stdout, new RegExp(`^${outer} [0-9a-f]{32}\n$`));
    } finally {
      delete process.env[commandRunVariable];
    }
  });

  it('a failing command: its status, and nothing it started is left', async () => {
    const marker = newMarker();
    const outcome = await runCommand(run(leaveBehind(marker, 'echo no model >&2; exit 3')));
    assert.equal(outcome.kind, 'failed');
    if (outcome.kind === 'failed') assert.match(outcome.error, /exited with status 3: no model$/);
    assert.deepEqual(await survivors(marker), []);
  });

  it('at the timeout the group and the daemons it started are killed', async () => {
    const marker = newMarker();
    const outcome = await runCommand(run(leaveBehind(marker, 'wait'), { timeoutSeconds: 1 }));
    assert.equal(outcome.kind, 'failed');
    if (outcome.kind === 'failed') assert.match(outcome.error, /did not finish within 1 s/);
    assert.deepEqual(await survivors(marker), []);
  });

  it('a cancelled run kills the group and the daemons it started', async () => {
    const marker = newMarker();
    let cancelled = false;
    const outcome = runCommand(run(leaveBehind(marker, 'wait'), { isCancelled: () => cancelled }));
    assert.ok(await started(marker, leftBehind), 'the sleepers started');
    cancelled = true;
    assert.deepEqual(await outcome, { kind: 'cancelled' });
    assert.deepEqual(await survivors(marker), []);
  });

  it('killLiveRuns (the CLI on SIGINT or SIGTERM) kills every live run at once', async () => {
    const marker = newMarker();
    const outcome = runCommand(run(leaveBehind(marker, 'wait')));
    assert.ok(await started(marker, leftBehind), 'the sleepers started');
    killLiveRuns();
    assert.equal((await outcome).kind, 'failed');
    assert.deepEqual(await survivors(marker), []);
  });

  it('a worker thread terminated mid-run leaves nothing (the analysis worker on shutdown)', async () => {
    const marker = newMarker();
    const worker = new Worker(`require(${JSON.stringify(runner)}).runCommand(${JSON.stringify(run(leaveBehind(marker, 'wait')))});`, { eval: true });
    assert.ok(await started(marker, leftBehind), 'the sleepers started');
    await worker.terminate();
    assert.deepEqual(await survivors(marker), []);
  });

  it('the process running the command killed by SIGKILL: the guard kills the run, then exits', async () => {
    const marker = newMarker();
    const tokenFile = path.join(dir, `${marker}.token`);
    const command = `echo "$${commandRunVariable}" > ${JSON.stringify(tokenFile)}; ${leaveBehind(marker, 'wait')}`;
    const parent = spawn(process.execPath, ['-e', `require(${JSON.stringify(runner)}).runCommand(${JSON.stringify(run(command))});`], { stdio: 'ignore' });
    assert.ok(await started(marker, leftBehind), 'the sleepers started');
    const token = fs.readFileSync(tokenFile, 'utf8').trim().split(' ').pop() ?? '';
    assert.ok(await started(token, 1), 'a guard has the run\'s token as an argument');
    parent.kill('SIGKILL');
    assert.deepEqual(await survivors(marker), []);
    assert.deepEqual(await survivors(token), [], 'the guard exited');
  });
});

