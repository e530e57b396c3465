// Issue 33, item 9: the language server ends while an audit's `candidates command` runs in its
// analysis worker: a shutdown, its stdin closed (the editor went away) or a SIGKILL. Every process the
// command started, in a session of its own included, is killed (the worker's termination and the
// process's death close the run's guard pipe). The sleepers carry a marker as an argument.
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { pathToFileURL } from 'node:url';
import { after, describe, it } from 'node:test';
import { pullClientCapabilities, TestClient } from './lsp-test-client.js';
import { newMarker, sleepersLeft, specFolder, started, survivors } from '../helpers/command-processes.js';

/** A trusted server with a spec open whose audit runs a command, once that command's sleepers run. */
async function serverRunningCommand(): Promise<{ client: TestClient; marker: string }> {
  const marker = newMarker();
  const dir = specFolder(marker);
  after(() => fs.rmSync(dir, { recursive: true, force: true }));
  const client = await TestClient.start({
    capabilities: pullClientCapabilities,
    workspace: { workspaceFolders: [{ uri: pathToFileURL(dir).href, name: 'ws' }], initializationOptions: { workspaceTrusted: true } },
  });
  const spec = path.join(dir, 'spec.reward');
  await client.open(pathToFileURL(spec).href, fs.readFileSync(spec, 'utf8'));
  assert.ok(await started(marker, sleepersLeft, 60_000), 'the audit started the command');
  return { client, marker };
}

describe('the language server ends while a command runs', () => {
  it('shutdown and exit kill every process the command started', async () => {
    const { client, marker } = await serverRunningCommand();
    await client.stop();
    assert.deepEqual(await survivors(marker), []);
  });

  it('stdin closed (the editor went away) kills every process the command started', async () => {
    const { client, marker } = await serverRunningCommand();
    const exited = new Promise((resolve) => client.server.once('exit', resolve));
    client.server.stdin?.end();
    await exited;
    client.connection.dispose();
    assert.deepEqual(await survivors(marker), []);
  });

  it('SIGKILL of the server: the run\'s guard kills every process the command started', async () => {
    const { client, marker } = await serverRunningCommand();
    const exited = new Promise((resolve) => client.server.once('exit', resolve));
    client.server.kill('SIGKILL');
    await exited;
    client.connection.dispose();
    assert.deepEqual(await survivors(marker), []);
  });
});
