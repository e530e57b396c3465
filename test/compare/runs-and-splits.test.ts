import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import { compareSpec } from '../../server/src/compare/compare-spec.js';
import { analyze } from '../../server/src/semantics/analyze.js';
import { hierarchicalDifference } from '../../server/src/stats/hierarchical-bootstrap.js';

const dir = mkdtempSync(join(tmpdir(), 'herald-runs-'));
after(() => rmSync(dir, { recursive: true, force: true }));

/** Rows of one run: per question, per sample, correct or not. */
function writeRun(name: string, correct: readonly (readonly boolean[])[], questions = correct.length): void {
  const lines = correct.slice(0, questions).flatMap((samples, q) => samples.map((ok, s) => JSON.stringify({
    id: `q${q}#${s}@${name}`, question_id: `q${q}`, question: `question ${q}?`,
    steps: [{ type: 'search', query: `question ${q}`, results: ['p1'] }],
    final: { answer: ok ? 'paris' : 'rome', citations: ['p1'], text: '<answer>x</answer> [p1]' },
    gold: { answers: ['paris'], support_ids: ['p1'] },
    meta: { sample: s, benchmark: 'bench', greedy: s === 0 },
  })));
  writeFileSync(join(dir, `${name}.jsonl`), `${lines.join('\n')}\n`);
}

writeFileSync(join(dir, 'corpus.jsonl'), JSON.stringify({ id: 'p1', title: 'p1', text: 'paris' }));
// Two samples per question (sample 0 greedy). EM per (question, sample).
writeRun('b1', [[true, false], [false, false], [true, true]]);
writeRun('b2', [[true, true], [false, true], [true, false]]);
writeRun('t1', [[true, true], [true, false], [true, true]]);
writeRun('t2', [[false, true], [true, true], [true, true]]);
writeRun('t3', [[true, true], [true, true], [false, false]], 2);

const spec = (options: string, treatment = 't1, t2'): string => `corpus wiki = "corpus.jsonl"
pool b1 = "b1.jsonl"
pool b2 = "b2.jsonl"
pool t1 = "t1.jsonl"
pool t2 = "t2.jsonl"
pool t3 = "t3.jsonl"
field is_greedy "the greedy decode" : boolean = meta.greedy
detector L "cites a real passage it never retrieved" = any c in citations: c in corpus and c not in retrieved
reward R0 { answer 1 * exact_match(answer, gold.answers) }
comparison c {
  reward R0
  corpus wiki
  base b1, b2
  treatment ${treatment}
  detectors L
  ${options}
  seed 5
  bootstrap 300
}
`;

async function compare(text: string) {
  const outcome = await compareSpec(text, join(dir, 'spec.reward'));
  assert.deepEqual(outcome.problems.filter((p) => p.severity === 'error'), []);
  return outcome.reports![0]!;
}

describe('several runs per arm', () => {
  it('one run per arm (the default): run-level variance is not estimated, said in a field and not as SD 0', async () => {
    const report = await compare(spec(''));
    assert.equal(report.runs.mode, 'one');
    assert.equal(report.runs.varianceEstimated, false);
    assert.match(report.runs.note ?? '', /run-level variance is not estimated/);
    const em = report.metrics.find((m) => m.key === 'em')!.cells[0]!;
    assert.equal(em.runs.base.sd, null);
    assert.equal(em.runs.treatment.range, null);
    assert.equal(em.interval.method, 'bootstrap');
  });

  it('runs logs: the hierarchical interval of the hand-built case, and each run\'s value with SD and range', async () => {
    const report = await compare(spec('runs logs'));
    assert.deepEqual(report.runs.base, ['b1', 'b2']);
    assert.equal(report.runs.varianceEstimated, true);
    assert.equal(report.runs.note, null);
    const em = report.metrics.find((m) => m.key === 'em')!.cells[0]!;
    // Per run, per question, the mean over the two samples.
    const matrix = { base: [[0.5, 0, 1], [1, 0.5, 0.5]], treatment: [[1, 0.5, 1], [0.5, 1, 1]] };
    const expected = hierarchicalDifference([matrix], 300, 5);
    assert.equal(em.interval.method, 'hierarchical-bootstrap');
    assert.deepEqual([em.interval.low, em.interval.high], [expected.interval.low, expected.interval.high]);
    assert.ok(Math.abs(em.difference! - (2.5 + 2.5 - 1.5 - 2) / 2 / 3) < 1e-12);
    assert.deepEqual(em.runs.base.values, [0.5, 2 / 3]);
    assert.ok(Math.abs(em.runs.base.range! - 1 / 6) < 1e-12);
  });

  it('a run that lacks a question: the question is left out of every figure and counted', async () => {
    const report = await compare(spec('runs logs', 't1, t3'));
    assert.equal(report.runs.droppedQuestions, 1);
    assert.equal(report.metrics[0]!.cells[0]!.clusters, 2);
    assert.equal(report.unpairedBase, 4);
  });
});

describe('greedy and sampled rows', () => {
  for (const [how, option] of [['meta.sample 0', 'greedy sample0'], ['a boolean logged field', 'greedy is_greedy']] as const) {
    it(`splits by ${how}: each half alone, and all rows together at the top level`, async () => {
      const report = await compare(spec(`runs logs\n  ${option}`));
      // Base rows used: 2 runs × 3 questions × 1 sample in each half, 2 samples together.
      assert.deepEqual(report.splits!.map((s) => [s.split, s.pairs]), [['greedy', 6], ['sampled', 6]]);
      assert.equal(report.pairs, 12);
      const greedyEm = report.splits![0]!.metrics.find((m) => m.key === 'em')!.cells[0]!;
      const expected = hierarchicalDifference([{ base: [[1, 0, 1], [1, 0, 1]], treatment: [[1, 1, 1], [0, 1, 1]] }], 300, 5);
      assert.deepEqual(greedyEm.difference, expected.estimate);
      assert.deepEqual([greedyEm.interval.low, greedyEm.interval.high], [expected.interval.low, expected.interval.high]);
    });
  }
  it('no greedy option: no split (null)', async () => {
    assert.equal((await compare(spec(''))).splits, null);
  });
});

describe('checking runs and greedy', () => {
  it('refuses a runs word it does not know and a greedy field that is not boolean', () => {
    const text = spec('runs seeds\n  greedy score').replace('field is_greedy', 'field score "a judge score" : number = meta.score\nfield is_greedy');
    const codes = analyze(text, { specFile: join(dir, 'spec.reward') }).problems.filter((p) => p.severity === 'error').map((p) => [p.code, text.slice(p.span.start, p.span.end)]);
    assert.deepEqual(codes, [['unknown-option', 'seeds'], ['type-mismatch', 'score']]);
    assert.deepEqual(analyze(spec('runs logs\n  greedy is_greedy'), { specFile: join(dir, 'spec.reward') }).problems.filter((p) => p.severity === 'error'), []);
  });
});
