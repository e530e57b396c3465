// An audit prepared on worker threads (threads/parallel-prepare.ts), or on one thread a range at a
// time, must give the report one thread gives in one pass, byte for byte: the same figures, the
// same notes on dropped candidates, the same generators behind each edit, the same first error.
// Small ranges (minRowsPerWorker, rowsPerRange) make the sample pools run in many ranges.
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { describe, it } from 'node:test';
import { auditSpec, type AuditSpecOptions } from '../../server/src/audit/audit-spec.js';
import { Worker } from 'node:worker_threads';
import { assemblePrepared, compileSetup, noCandidates, preparePart, setupRows, type PreparedPart } from '../../server/src/edits/prepare.js';
import { claimRange, prepareInParallel, rowRanges, type FromCoordinator, type ToCoordinator } from '../../server/src/threads/parallel-prepare.js';
import { maxRowsPerRange } from '../../server/src/edits/prepare.js';
import { corpusEnv } from '../../server/src/language/eval-env.js';
import type { Trajectory } from '../../server/src/pool/types.js';
import { analyze } from '../../server/src/semantics/analyze.js';
import { bindModel } from '../../server/src/semantics/bound-model.js';
import { AuditError } from '../../server/src/edits/audit-error.js';
import { goldenCorpus, goldenRows, goldenSpec } from '../helpers/golden-audit.js';
import { tempDir } from '../pool/temp-files.js';
import { cacheFolder } from '../../server/src/inputs/cache-folder.js';
import { auditEditPlan, planAudit } from '../../server/src/audit/plan.js';
import { buildBm25Index, loadedBm25Index, storedBm25Index, type Bm25Index } from '../../server/src/candidates/bm25.js';
import { createCandidateSource } from '../../server/src/candidates/candidate-source.js';
import { indexBytes, indexOfBytes } from '../../server/src/inputs/index-cache.js';

async function outcomeJson(specFile: string, options: AuditSpecOptions, text = fs.readFileSync(specFile, 'utf8')): Promise<{ json: string; progress: string[] }> {
  const progress: string[] = [];
  const outcome = await auditSpec(text, specFile, { candidateCache: false, ...options, onProgress: (m) => progress.push(m) });
  assert.deepEqual(outcome.problems.filter((p) => p.severity === 'error'), []);
  return { json: JSON.stringify({ report: outcome.report, failures: outcome.failures, dataIssues: outcome.dataIssues }, null, 2), progress };
}

const threaded = (progress: readonly string[]): boolean => progress.some((m) => / with \d+ threads$/.test(m));
const inRanges = (progress: readonly string[]): boolean => progress.some((m) => / in \d+ row ranges$/.test(m)) && !threaded(progress);

describe('an audit prepared on worker threads', () => {
  const specs = ['samples/paper.reward', 'samples/attacks.reward', 'samples/deep-research/edits.reward', 'samples/dense/dense.reward'];
  for (const spec of specs) {
    it(`gives the one-thread report of ${spec} byte for byte with 3 workers`, async () => {
      const specFile = path.resolve(spec);
      const one = await outcomeJson(specFile, { workers: 1 });
      assert.equal(threaded(one.progress), false);
      const many = await outcomeJson(specFile, { workers: 3, minRowsPerWorker: 40 });
      assert.ok(threaded(many.progress), `3 workers were used: ${many.progress.join(' | ')}`);
      assert.equal(many.json, one.json);
      const ranged = await outcomeJson(specFile, { workers: 1, rowsPerRange: 40 });
      assert.ok(inRanges(ranged.progress), `one thread, in ranges: ${ranged.progress.join(' | ')}`);
      assert.equal(ranged.json, one.json);
    });
  }

  it('reports the dropped candidates of a candidates file once, summed over the ranges', async () => {
    const specFile = path.resolve('samples/paper.reward');
    // The sample's candidates with an id the corpus lacks and a repeat added to every list.
    const dir = tempDir();
    const lists = fs.readFileSync(path.resolve('samples/pools/dense-candidates.jsonl'), 'utf8').trim().split('\n').map((l) => {
      const list = JSON.parse(l) as { candidates: string[] };
      return JSON.stringify({ ...list, candidates: [...list.candidates, 'no-such-passage', ...list.candidates.slice(0, 1)] });
    });
    dir.write('dense.jsonl', `${lists.join('\n')}\n`);
    const text = fs.readFileSync(specFile, 'utf8').replace('candidates "pools/dense-candidates.jsonl"', `candidates ${JSON.stringify(path.join(dir.dir, 'dense.jsonl'))}`);
    const notesOf = (json: string): string[] | undefined => (JSON.parse(json) as { report: { audits: { attacks: { name: string; candidateNotes: string[] }[] }[] } }).report.audits
      .flatMap((a) => a.attacks).find((a) => a.name === 'dense')?.candidateNotes;
    const one = await outcomeJson(specFile, { workers: 1, only: 'sensitivity' }, text);
    const many = await outcomeJson(specFile, { workers: 3, minRowsPerWorker: 40, only: 'sensitivity' }, text);
    assert.match(notesOf(one.json)?.join() ?? '', /supplied candidates ignored: \d+ not corpus ids, \d+ repeated within a list/);
    assert.equal(many.json, one.json);
    assert.equal((await outcomeJson(specFile, { workers: 1, rowsPerRange: 40, only: 'sensitivity' }, text)).json, one.json);
  });

  it('stops with the error one thread meets first, naming the same row', async () => {
    const specFile = path.resolve('samples/paper.reward');
    // A term that overflows only on the rows of one question far into the first pool.
    const line = fs.readFileSync(path.resolve('samples/pools/hotpot.jsonl'), 'utf8').split('\n')[900]!;
    const question = (JSON.parse(line) as { question: string }).question;
    const text = fs.readFileSync(specFile, 'utf8').replace('  violations -1.0   * violation_rate\n',
      `  violations -1.0   * violation_rate\n  huge 1 * (if question == ${JSON.stringify(question)} then 1e308 * (count(citations) + 2) else 0)\n`);
    const one = await outcomeJson(specFile, { workers: 1 }, text);
    const failure = (JSON.parse(one.json) as { failures: { reason: string }[] }).failures[0]?.reason ?? '';
    assert.match(failure, /term 'R0\.huge' is Infinity; every term must be a finite number \(trajectory \S+, \S*hotpot\.jsonl:\d+\)$/);
    const many = await outcomeJson(specFile, { workers: 3, minRowsPerWorker: 40 }, text);
    assert.equal(many.json, one.json);
    assert.equal((await outcomeJson(specFile, { workers: 1, rowsPerRange: 40 }, text)).json, one.json);
  });

  it('keeps what the workers ranked in the ranking cache, which a one-thread run and the workers then read', async () => {
    const cache = tempDir().dir;
    const specFile = path.resolve('samples/paper.reward');
    const many = await outcomeJson(specFile, { workers: 2, minRowsPerWorker: 40, candidateCache: cache });
    const kept = (): number => fs.readdirSync(cacheFolder(cache))
      .reduce((sum, file) => sum + fs.readFileSync(path.join(cacheFolder(cache), file), 'utf8').trim().split('\n').length, 0);
    const lines = kept();
    assert.ok(lines > 100, `${lines} rankings kept`);
    const one = await outcomeJson(specFile, { workers: 1, candidateCache: cache });
    assert.equal(one.json, many.json);
    assert.equal(kept(), lines, 'the second run ranked nothing new');
    // The workers are sent the stored rankings as corpus places (threads/rankings-on-wire.ts).
    const again = await outcomeJson(specFile, { workers: 2, minRowsPerWorker: 40, candidateCache: cache });
    assert.equal(again.json, many.json);
    assert.equal(kept(), lines, 'the third run ranked nothing new');
  });
});

/** The first reply of a worker started from the bundle (as the editor and the CLI start it) after `messages`; the worker is stopped then. */
async function bundleWorkerReply(messages: readonly FromCoordinator[]): Promise<ToCoordinator> {
  const worker = new Worker(path.resolve('dist/prepare-worker.js'));
  try {
    const reply = new Promise<ToCoordinator>((resolve, reject) => {
      worker.once('message', resolve);
      worker.once('error', reject);
    });
    for (const message of messages) worker.postMessage(message);
    return await reply;
  } finally {
    await worker.terminate();
  }
}

describe('the worker threads themselves', () => {
  it('are stopped when the run is cancelled, and the audit reports nothing', async () => {
    let cancelled = false;
    const outcome = await auditSpec(fs.readFileSync(path.resolve('samples/paper.reward'), 'utf8'), path.resolve('samples/paper.reward'), {
      candidateCache: false, workers: 2, minRowsPerWorker: 40, only: 'paper',
      onProgress: (m) => {
        if (m.startsWith('built edits on 1 of')) cancelled = true;
      },
      isCancelled: () => cancelled,
    });
    assert.ok(cancelled, 'the run reached the workers');
    assert.equal(outcome.report, undefined);
    assert.deepEqual(outcome.failures, []);
  });

  it('run from the bundle (dist/prepare-worker.js, as the editor and the CLI start them) and compute what this thread does', async () => {
    const { model } = analyze(goldenSpec);
    const plan = { rewards: ['R0'], detectors: ['L'], attacks: [] };
    const here = preparePart(setupRows(compileSetup(model, plan), goldenRows, corpusEnv(goldenCorpus)), noCandidates, () => false)!;
    const answer = await bundleWorkerReply([
      { kind: 'init', model: bindModel(model), plan, corpus: goldenCorpus, candidateFiles: new Map(), commands: new Map() },
      { kind: 'part', index: 0, rows: goldenRows, known: [] },
    ]);
    assert.equal(answer.kind, 'part', JSON.stringify(answer));
    assert.deepEqual(answer.kind === 'part' ? [...answer.part.originalValues] : [], [...here.originalValues]);
  });

  it('leave a range another thread has claimed, and say so', async () => {
    const { model } = analyze(goldenSpec);
    const plan = { rewards: ['R0'], detectors: ['L'], attacks: [] };
    const claims = new Int32Array(new SharedArrayBuffer(8));
    Atomics.store(claims, 0, 1); // range 0 is the calling thread's already
    const worker = new Worker(path.resolve('dist/prepare-worker.js'));
    try {
      const replies: ToCoordinator[] = [];
      const two = new Promise<void>((resolve, reject) => {
        worker.on('message', (reply: ToCoordinator) => {
          replies.push(reply);
          if (replies.length === 2) resolve();
        });
        worker.once('error', reject);
      });
      worker.postMessage({ kind: 'init', model: bindModel(model), plan, corpus: goldenCorpus, candidateFiles: new Map(), commands: new Map(), claims } satisfies FromCoordinator);
      worker.postMessage({ kind: 'part', index: 0, rows: goldenRows, known: [] } satisfies FromCoordinator);
      worker.postMessage({ kind: 'part', index: 1, rows: goldenRows, known: [] } satisfies FromCoordinator);
      await two;
      assert.deepEqual(replies.map((r) => r.kind === 'crash' ? r.message : `${r.kind} ${r.index}`), ['taken 0', 'part 1']);
      assert.equal(Atomics.load(claims, 1), 1, 'the worker claimed the range it prepared');
      assert.equal(claimRange(claims, 1), false, 'so no other thread can');
    } finally {
      await worker.terminate();
    }
  });

  it('rank with the BM25 index sent after the init instead of building their own', async () => {
    const text = goldenSpec.replace('using lexical(4)', 'using bm25(2)');
    const { model } = analyze(text);
    const decl = model.spec.decls.find((d) => d.kind === 'audit');
    assert.ok(decl?.kind === 'audit');
    const plan = auditEditPlan(planAudit(decl, text)!);
    // The index of the corpus's ids over other texts (each passage's text moved to the next id): it
    // ranks otherwise than the index a worker would build, so the edits say which one it used.
    const all = [...goldenCorpus.passages.values()];
    const moved = { file: 'c.jsonl', passages: new Map(all.map((p, i) => [p.id, { ...p, title: all[(i + 1) % all.length]!.title, text: all[(i + 1) % all.length]!.text }])) };
    const bytes = indexBytes('corpus-hash', storedBm25Index(buildBm25Index(moved)));
    const prepared = (bm25Index?: () => Bm25Index): PreparedPart => preparePart(setupRows(compileSetup(model, plan), goldenRows, corpusEnv(goldenCorpus)),
      createCandidateSource(goldenCorpus, new Map(), bm25Index === undefined ? {} : { bm25Index }), () => false)!;
    const swaps = (part: PreparedPart): number[][] => part.runs.map((run) => [...run.editReplacement.places]);
    const withSent = prepared(() => loadedBm25Index(goldenCorpus, indexOfBytes(bytes, 'corpus-hash')!));
    assert.notDeepEqual(swaps(withSent), swaps(prepared()), 'the two indexes give other edits');
    const answer = await bundleWorkerReply([
      { kind: 'init', model: bindModel(model), plan, corpus: goldenCorpus, candidateFiles: new Map(), commands: new Map() },
      { kind: 'index', bm25Index: { bytes, corpusHash: 'corpus-hash' } },
      { kind: 'part', index: 0, rows: goldenRows, known: [] },
    ]);
    assert.equal(answer.kind, 'part', JSON.stringify(answer));
    assert.deepEqual(answer.kind === 'part' ? swaps(answer.part) : [], swaps(withSent));
  });

  it('that fail stop the audit with an AuditError that names the cause and the setting', async () => {
    const { model } = analyze(goldenSpec);
    // A row no loader would let through (its steps are not a list) breaks only the thread that evaluates it.
    const rows = goldenRows.map((row, r) => (r === 3 ? ({ ...row, steps: null } as unknown as Trajectory) : row));
    const inputs = { corpusName: 'c', corpus: goldenCorpus, corpusIssues: [], pools: [{ name: 'p', file: 'p.jsonl', rows, issues: [] }] };
    const options = { workers: 2, candidateFiles: new Map(), commands: new Map(), minRows: 1 };
    await assert.rejects(prepareInParallel(model, { rewards: ['R0'], detectors: [], attacks: [] }, inputs, noCandidates, options), (error: unknown) => {
      assert.ok(error instanceof AuditError);
      assert.match(error.message, /^preparing the audit on 2 threads failed: .*null.*; `herald\.audit\.workers` or `--workers` sets fewer$/);
      return true;
    });
  });
});

describe('row ranges', () => {
  const sizes = (ranges: { from: number; to: number }[]): number[] => ranges.map((r) => r.to - r.from);
  it('four per thread, at least minRows rows each, at most maxRowsPerRange, covering every row once in order', () => {
    assert.equal(maxRowsPerRange, 5_000);
    assert.deepEqual(sizes(rowRanges(58_368, 2)), [...Array(11).fill(5_000), 3_368]);
    assert.deepEqual(sizes(rowRanges(200_000, 2)), Array(40).fill(5_000));
    // A million rows: the ranges stay at 5,000 rows, so a thread's memory does not grow with the pool.
    assert.deepEqual(sizes(rowRanges(1_000_000, 2)), Array(200).fill(5_000));
    assert.deepEqual(sizes(rowRanges(1_000_000, 64)), Array(200).fill(5_000));
    // A test's small ranges: four per thread, at least minRows each.
    assert.deepEqual(sizes(rowRanges(10, 3, 4)), [4, 4, 2]);
    assert.deepEqual(sizes(rowRanges(1_000, 2, 100)), Array(8).fill(125));
    // The cap wins over a larger minRows.
    assert.deepEqual(sizes(rowRanges(60_000, 1, 30_000)), Array(12).fill(5_000));
    for (const ranges of [rowRanges(123_457, 3), rowRanges(7, 2, 1)]) {
      ranges.forEach((r, i) => assert.equal(r.from, i === 0 ? 0 : ranges[i - 1]!.to));
    }
  });
});

describe('assemblePrepared', () => {
  const { model } = analyze(goldenSpec);
  const plan = { rewards: ['R0'], detectors: [], attacks: [] };
  const setup = setupRows(compileSetup(model, plan), goldenRows, corpusEnv(goldenCorpus));
  const inputs = { corpusName: 'c', corpus: goldenCorpus, corpusIssues: [], pools: [{ name: 'p', file: 'p.jsonl', rows: goldenRows, issues: [] }] };
  const part = (stage: number | undefined, row: number): PreparedPart => ({
    originalValues: new Float64Array(0), originalMetrics: new Float64Array(0), runs: [], drops: [],
    ...(stage === undefined ? {} : { failure: { stage, row, message: `stage ${stage} row ${row}` } }),
  });

  it('throws the failure of the earliest stage, then of the earliest range, with rows numbered over the pool', () => {
    const candidates = { candidatesFor: () => [], drops: () => [] };
    const thrown = (parts: { from: number; part: PreparedPart }[]): AuditError => {
      try {
        assemblePrepared(setup, inputs, candidates, parts);
      } catch (error) {
        assert.ok(error instanceof AuditError);
        return error;
      }
      assert.fail('no error');
    };
    // An attack's error in the first range loses to a term that is not finite on an original of the second.
    assert.match(thrown([{ from: 0, part: part(2, 1) }, { from: 3, part: part(1, 0) }]).message, /^stage 1 row 0 \(trajectory t4, /);
    // The same stage in two ranges: the first range's.
    assert.match(thrown([{ from: 0, part: part(1, 2) }, { from: 3, part: part(1, 0) }]).message, /^stage 1 row 2 \(trajectory t3, /);
    // A term that throws comes before one that is not finite, whatever the rows.
    assert.match(thrown([{ from: 0, part: part(1, 0) }, { from: 3, part: part(0, 1) }]).message, /^stage 0 row 1 \(trajectory t5, /);
  });
});
