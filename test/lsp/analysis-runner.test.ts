import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { describe, it } from 'node:test';
import { compareSpec } from '../../server/src/compare/compare-spec.js';
import type { AnalysisRequest } from '../../server/src/lsp/analysis-run.js';
import { AnalysisRunner } from '../../server/src/lsp/analysis-runner.js';
import { signalSpec } from '../../server/src/signal/signal-spec.js';
import { repoRoot } from './lsp-test-client.js';

const workerFile = path.join(repoRoot, 'dist/analysis-worker.js');

function request(sample: string, parts: Pick<AnalysisRequest, 'audits' | 'signals' | 'comparisons'>): AnalysisRequest {
  const specFile = path.join(repoRoot, 'samples', sample);
  return { text: fs.readFileSync(specFile, 'utf8'), specFile, ...parts };
}

describe('the analysis runner', () => {
  it('fifty audits, each cancelled by the next, leave one result and no job behind', async () => {
    const runner = new AnalysisRunner(workerFile);
    const paper = request('paper.reward', { audits: true, signals: false, comparisons: false });
    const jobs = [];
    for (let i = 0; i < 50; i++) {
      jobs[i - 1]?.cancel();
      jobs.push(runner.run(paper, () => undefined));
    }
    assert.ok(jobs.every((j) => j.training === undefined), 'no training part was asked for');
    const outcomes = await Promise.all(jobs.map((j) => j.audits));
    assert.equal(runner.running, 0, 'every job has answered');
    assert.deepEqual(outcomes.slice(0, -1).filter((o) => o?.state !== 'cancelled'), [], 'every superseded job stopped as cancelled');
    const last = outcomes[outcomes.length - 1];
    assert.equal(last?.state, 'done');
    assert.deepEqual(last.results.report?.audits.map((a) => a.name), ['paper', 'replication', 'sensitivity']);
    await runner.dispose();
  });

  it('runs training-signal audits and comparisons off the server thread, with the figures the CLI computes', async () => {
    const runner = new AnalysisRunner(workerFile);
    const training = request('training.reward', { audits: false, signals: true, comparisons: true });
    const progress: string[] = [];
    const job = runner.run(training, (message) => progress.push(message));
    assert.equal(job.audits, undefined);
    const outcome = await job.training;
    assert.equal(outcome?.state, 'done');
    assert.ok(outcome.results.ok);
    assert.deepEqual(outcome.results.signals, (await signalSpec(training.text, training.specFile)).reports);
    assert.deepEqual(outcome.results.comparisons, (await compareSpec(training.text, training.specFile)).reports);
    assert.deepEqual(progress, ['training-signal audits', 'paired comparisons']);
    assert.equal(runner.running, 0);
    await runner.dispose();
  });

  it('a run cancelled before the worker takes it ends every part as cancelled', async () => {
    const runner = new AnalysisRunner(workerFile);
    const job = runner.run(request('training.reward', { audits: true, signals: true, comparisons: true }), () => undefined);
    job.cancel();
    assert.deepEqual([await job.audits, await job.training], [{ state: 'cancelled' }, { state: 'cancelled' }]);
    await runner.dispose();
  });

  it('a worker that stops fails the parts still pending, as values, and the next run starts a fresh worker', async () => {
    const runner = new AnalysisRunner(workerFile);
    const job = runner.run(request('paper.reward', { audits: true, signals: false, comparisons: false }), () => undefined);
    await runner.dispose();
    assert.deepEqual(await job.audits, { state: 'failed', error: 'the analysis worker stopped' });
    assert.equal(runner.running, 0);
    const next = runner.run(request('training.reward', { audits: false, signals: true, comparisons: false }), () => undefined);
    assert.equal((await next.training)?.state, 'done');
    await runner.dispose();
  });
});
