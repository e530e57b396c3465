import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { reportRequest, trainingSignalStatusNotification, type ReportResult, type TrainingSignalStatusParams } from '../../server/src/contract/protocol.js';
import { pullClientCapabilities, repoRoot, tempFolder, TestClient } from './lsp-test-client.js';

// The sample spec with training and comparison blocks and no audit, with its links made absolute.
const spec = fs.readFileSync(path.join(repoRoot, 'samples/training.reward'), 'utf8').replaceAll('"pools/', `"${path.join(repoRoot, 'samples/pools')}/`);

describe('the report view\'s report for training and comparison blocks (stdio)', () => {
  const folder = tempFolder();
  const uri = folder.uri('training.reward');
  let client: TestClient;
  let status: Promise<TrainingSignalStatusParams>;

  before(async () => {
    fs.writeFileSync(path.join(folder.dir, 'training.reward'), spec);
    client = await TestClient.start({ capabilities: pullClientCapabilities });
    status = new Promise((resolve) => client.connection.onNotification(trainingSignalStatusNotification, resolve));
  });

  after(async () => {
    await client.stop();
    folder.remove();
  });

  it('holds the same signal and comparison figures as herald signal and herald compare', async () => {
    assert.equal((await client.connection.sendRequest(reportRequest, { uri })), null, 'nothing before the spec is opened');
    await client.open(uri, spec);
    const done = await status;
    assert.equal(done.state, 'done', done.message);
    assert.equal(done.message, 'L reaches the optimizer in 9 of 128 groups; matched: EM non-inferiority fails');
    const result = (await client.connection.sendRequest(reportRequest, { uri })) as ReportResult | null;
    assert.ok(result);
    assert.equal(result.version, 1);
    assert.deepEqual(result.report.audits, []);

    const cli = (command: string): unknown => {
      const run = spawnSync(process.execPath, [path.join(repoRoot, 'dist/herald.js'), command, 'training.reward', '--format', 'json'], { cwd: folder.dir, encoding: 'utf8' });
      return JSON.parse(run.stdout);
    };
    const signal = cli('signal') as { signals: unknown[] };
    const compare = cli('compare') as { comparisons: unknown[] };
    assert.deepEqual(result.report.signals, signal.signals);
    assert.deepEqual(result.report.comparisons, compare.comparisons);
  });
});
