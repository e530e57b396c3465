import assert from 'node:assert/strict';
import * as path from 'node:path';
import { it } from 'node:test';
import { AuditRunner } from '../../server/src/lsp/audit-runner.js';
import { repoRoot } from './lsp-test-client.js';

it('fifty audits, each cancelled by the next, leave one result and no job behind', async () => {
  const runner = new AuditRunner(path.join(repoRoot, 'dist/audit-worker.js'));
  const spec = path.join(repoRoot, 'samples/paper.reward');
  const text = (await import('node:fs')).readFileSync(spec, 'utf8');
  const jobs = [];
  for (let i = 0; i < 50; i++) {
    jobs[i - 1]?.cancel();
    jobs.push(runner.run(text, spec, () => undefined));
  }
  const results = await Promise.all(jobs.map((j) => j.result));
  assert.equal(runner.running, 0, 'every job has answered');
  assert.deepEqual(results.slice(0, -1).filter((r) => !r.cancelled), [], 'every superseded job stopped as cancelled');
  const last = results[results.length - 1]!;
  assert.equal(last.cancelled, false);
  assert.deepEqual(last.report?.audits.map((a) => a.name), ['paper', 'replication', 'sensitivity']);
  await runner.dispose();
});
