// Issue 33, item 9: `herald audit` interrupted while a spec's `candidates command` runs. Ctrl-C
// (SIGINT) and SIGTERM kill every process the command started, the ones in a session of their own
// included, and herald exits 130 or 143; a herald killed outright (SIGKILL) leaves it to the run's
// guard. The command starts sleepers that carry a marker as an argument; none may be left.
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { rmSync } from 'node:fs';
import * as path from 'node:path';
import { after, describe, it } from 'node:test';
import { newMarker, sleepersLeft, specFolder, started, survivors } from '../helpers/command-processes.js';

const herald = path.resolve('dist/herald.js');
/** Runs `herald audit` on a fresh spec, waits for its command's sleepers, sends `signal`; herald's exit code and the sleepers left. */
async function interrupted(signal: NodeJS.Signals): Promise<{ code: number | null; stderr: string; left: number[] }> {
  const marker = newMarker();
  const dir = specFolder(marker);
  after(() => rmSync(dir, { recursive: true, force: true }));
  // HERALD_ALLOW_COMMANDS: the opt-in `herald audit` asks of a spec that runs a program.
  const child = spawn(process.execPath, [herald, 'audit', 'spec.reward', '--no-cache'], {
    cwd: dir, env: { ...process.env, HERALD_ALLOW_COMMANDS: '1' }, stdio: ['ignore', 'ignore', 'pipe'],
  });
  let stderr = '';
  child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString('utf8')));
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  assert.ok(await started(marker, sleepersLeft, 60_000), `the command's sleepers started: ${stderr}`);
  child.kill(signal);
  const code = await exited;
  return { code, stderr, left: await survivors(marker) };
}

describe('herald audit interrupted while a command runs', () => {
  it('Ctrl-C (SIGINT) kills every process the command started and exits 130', async () => {
    const { code, stderr, left } = await interrupted('SIGINT');
    assert.equal(code, 130, stderr);
    assert.deepEqual(left, []);
  });

  it('SIGTERM kills every process the command started and exits 143', async () => {
    const { code, stderr, left } = await interrupted('SIGTERM');
    assert.equal(code, 143, stderr);
    assert.deepEqual(left, []);
  });

  it('SIGKILL: the run\'s guard kills every process the command started', async () => {
    const { code, left } = await interrupted('SIGKILL');
    assert.equal(code, null);
    assert.deepEqual(left, []);
  });
});
