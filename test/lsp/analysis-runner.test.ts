import assert from 'node:assert/strict';
import { SpecVersion } from '../../server/src/host/spec-version.js';
import { analysisRequest } from '../helpers/analysis-request.js';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { describe, it } from 'node:test';
import { compareSpec } from '../../server/src/compare/compare-spec.js';
import type { AnalysisRequest, Outcome } from '../../server/src/lsp/analysis-run.js';
import type { ImportedRows, ImportRequest } from '../../server/src/lsp/import-run.js';
import { AnalysisRunner } from '../../server/src/lsp/analysis-runner.js';
import { signalSpec } from '../../server/src/signal/signal-spec.js';
import { repoRoot, tempFolder } from './lsp-test-client.js';

const workerFile = path.join(repoRoot, 'dist/analysis-worker.js');

function request(sample: string, parts: Pick<AnalysisRequest, 'audits' | 'signals' | 'comparisons'>): AnalysisRequest {
  const specFile = path.join(repoRoot, 'samples', sample);
  return analysisRequest(fs.readFileSync(specFile, 'utf8'), specFile, parts);
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
    assert.deepEqual(outcome.results.signals, (await signalSpec(training.spec.text, training.spec.specFile)).reports);
    assert.deepEqual(outcome.results.comparisons, (await compareSpec(training.spec.text, training.spec.specFile)).reports);
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

  it('a worker that runs out of memory fails its parts with the limit and what it was doing, and the next request starts a fresh worker', async () => {
    // 32 MB: the paper audit loads its pools and dies preparing edits.
    const runner = new AnalysisRunner(workerFile, { heapMiB: () => 32 });
    const job = runner.run(request('paper.reward', { audits: true, signals: true, comparisons: false }), () => undefined);
    const [audits, training] = await Promise.all([job.audits, job.training]);
    assert.equal(audits?.state, 'failed');
    assert.match(audits.stopped ?? '', /^the analysis stopped: it ran out of memory \(limit 32 MB\) while analysing paper\.reward \(.+\)$/);
    assert.deepEqual(training, audits, 'the training part of the same run fails with the same reason');
    assert.equal(runner.running, 0);
    const next = runner.run(request('training.reward', { audits: false, signals: true, comparisons: false }), () => undefined);
    assert.equal((await next.training)?.state, 'done');
    await runner.dispose();
  });

  it('a request under larger input limits starts a larger worker, and the runs of the old one still finish', async () => {
    const heaps: (number | undefined)[] = [];
    const runner = new AnalysisRunner(workerFile, {
      heapMiB: (maxInputMiB) => {
        heaps.push(maxInputMiB);
        return maxInputMiB === undefined ? 128 : 256;
      },
    });
    const first = runner.run(request('training.reward', { audits: false, signals: true, comparisons: false }), () => undefined);
    const larger = runner.run({ ...request('training.reward', { audits: false, signals: true, comparisons: false }), maxInputMiB: 1024 }, () => undefined);
    const again = runner.run(request('training.reward', { audits: false, signals: false, comparisons: true }), () => undefined);
    assert.deepEqual([(await first.training)?.state, (await larger.training)?.state, (await again.training)?.state], ['done', 'done', 'done']);
    assert.deepEqual(heaps, [undefined, 1024, undefined]);
    assert.equal(runner.running, 0);
    await runner.dispose();
  });

  it('imports a pool for the editor in the worker and checks its rows there, sending them again only when a file changed', async () => {
    const folder = tempFolder();
    const rollout = fs.readFileSync(path.join(repoRoot, 'samples/search-r1/rollout/1.jsonl'), 'utf8').split('\n').filter((l) => l !== '');
    const file = path.join(folder.dir, 'log.jsonl');
    fs.writeFileSync(file, `${rollout.slice(0, 3).join('\n')}\n`);
    const specFile = path.join(folder.dir, 'spec.reward');
    const spec = `corpus wiki = "${path.join(repoRoot, 'samples/pools/corpus.jsonl')}"\npool p = "*.jsonl" from verl(dialect: search_r1)\n`;
    const runner = new AnalysisRunner(workerFile);
    const asked: ImportRequest = {
      pool: { name: 'p', file: path.join(folder.dir, '*.jsonl'), glob: true, importer: { format: 'verl', options: { dialect: 'search_r1' } } },
      files: [file], specDir: folder.dir, select: { kind: 'file', file, spec: SpecVersion.ofText(spec, specFile).bound },
    };
    const lines = (outcome: Outcome<ImportedRows>): unknown => (outcome.state === 'done' ? outcome.results.checked?.map((r) => [r.line, r.ok]) : outcome);
    const first = await runner.importRows(asked);
    assert.deepEqual(lines(first), [[1, true], [2, true], [3, true]]);
    assert.equal(first.state, 'done');
    const again = await runner.importRows({ ...asked, known: first.results.load });
    assert.deepEqual(again, { state: 'done', results: { load: first.results.load } }, 'the same import: no rows cross again');
    fs.appendFileSync(file, `${rollout[3]}\nnot json\n`);
    const changed = await runner.importRows({ ...asked, known: first.results.load });
    assert.deepEqual(lines(changed), [[1, true], [2, true], [3, true], [4, true], [5, false]]);
    const shown = first.results.checked?.[1];
    assert.ok(shown?.ok === true);
    const id = /^\*\*trajectory\*\* `([^`]+)`/.exec(shown.shown[0] ?? '')?.[1] ?? '';
    const one = await runner.importRows({ ...asked, select: { kind: 'id', id } });
    assert.equal(one.state === 'done' ? one.results.row?.source.line : one, 2);
    await runner.dispose();
    folder.remove();
  });
});
