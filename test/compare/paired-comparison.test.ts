import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import { compareSpec } from '../../server/src/compare/compare-spec.js';
import { verdictOf } from '../../server/src/compare/verdict.js';
import type { ComparisonReport } from '../../server/src/report/training-schema.js';

// A reference bootstrap written independently of the engine: mulberry32 draws, clusters resampled
// with replacement (resample-major), means sorted, type-7 percentiles.
function mulberry32(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

function referenceInterval(values: readonly number[], resamples: number, seed: number): [number, number] {
  const next = mulberry32(seed);
  const means: number[] = [];
  for (let b = 0; b < resamples; b++) {
    let sum = 0;
    for (let i = 0; i < values.length; i++) sum += values[Math.floor(next() * values.length)]!;
    means.push(sum / values.length);
  }
  means.sort((x, y) => x - y);
  const at = (p: number): number => {
    const h = (means.length - 1) * p;
    const lo = Math.floor(h);
    return means[lo]! + (h - lo) * (means[Math.ceil(h)]! - means[lo]!);
  };
  return [at(0.025), at(0.975)];
}

const dir = mkdtempSync(join(tmpdir(), 'herald-compare-'));
after(() => rmSync(dir, { recursive: true, force: true }));

/** One evaluation row: question q, answer correct or not, citing the one passage it retrieved (a gold support id). */
function row(q: number, correct: boolean, arm: string): string {
  return JSON.stringify({
    id: `q${q}@${arm}`, question_id: `q${q}`, question: `question ${q}?`,
    steps: [{ type: 'search', query: `question ${q}`, results: ['p1'] }],
    final: { answer: correct ? 'paris' : 'rome', citations: ['p1'], text: `<answer>x</answer> [p1]` },
    gold: { answers: ['paris'], support_ids: ['p1'] },
    meta: { sample: 0, benchmark: 'bench' },
  });
}

function writeArm(name: string, correct: readonly boolean[]): void {
  writeFileSync(join(dir, `${name}.jsonl`), `${correct.map((c, i) => row(i + 1, c, name)).join('\n')}\n`);
}

writeFileSync(join(dir, 'corpus.jsonl'), ['p1', 'p2', 'p3'].map((id) => JSON.stringify({ id, title: id, text: `passage ${id} about paris` })).join('\n'));
// EM per question: base 1 1 0 0; worse arm 1 0 0 1 (paired differences 0 −1 0 +1); better arm 1 1 0 1 (0 0 0 +1).
writeArm('base', [true, true, false, false]);
writeArm('worse', [true, false, false, true]);
writeArm('better', [true, true, false, true]);

const spec = `corpus wiki = "corpus.jsonl"
pool base = "base.jsonl"
pool worse = "worse.jsonl"
pool better = "better.jsonl"
detector L "cites a real passage it never retrieved" = any c in citations: c in corpus and c not in retrieved
reward R0 { answer 1 * exact_match(answer, gold.answers) }
comparison mixed {
  reward R0
  corpus wiki
  base base
  treatment worse
  detectors L
  seed 3
  bootstrap 200
}
comparison gain {
  reward R0
  corpus wiki
  base base
  treatment better
  detectors L
  seed 3
  bootstrap 200
}
`;

async function run(): Promise<ComparisonReport[]> {
  const outcome = await compareSpec(spec, join(dir, 'spec.reward'));
  assert.deepEqual(outcome.problems, []);
  assert.equal(outcome.runError, undefined);
  return [...(outcome.reports ?? [])];
}

describe('paired comparison on a hand-computed case', () => {
  it('pairs by question and sample, and matches the reference bootstrap and the non-inferiority decision', async () => {
    const [mixed, gain] = await run();
    assert.ok(mixed !== undefined && gain !== undefined);
    assert.equal(mixed.pairs, 4);
    assert.deepEqual(mixed.benchmarks, ['bench']);
    for (const [report, differences] of [[mixed, [0, -1, 0, 1]], [gain, [0, 0, 0, 1]]] as [ComparisonReport, number[]][]) {
      const em = report.metrics.find((m) => m.key === 'em')!.cells[0]!;
      const [low, high] = referenceInterval(differences, 200, 3);
      assert.equal(em.difference, differences.reduce((s, d) => s + d, 0) / 4);
      assert.equal(em.interval.method, 'bootstrap');
      assert.ok(Math.abs(em.interval.low! - low) < 1e-12 && Math.abs(em.interval.high! - high) < 1e-12, `${report.name}: ${JSON.stringify(em.interval)} vs [${low}, ${high}]`);
      // The gate: the paired lower bound of EM must exceed −2 points.
      assert.equal(report.nonInferiority.passed, low > -0.02, report.name);
      assert.deepEqual(report.nonInferiority.benchmarks, [{ benchmark: 'bench', lower: em.interval.low, passed: low > -0.02 }]);
    }
    // The mixed arm loses a question as often as it gains one: the lower bound is far below −2 points.
    assert.equal(mixed.nonInferiority.passed, false);
    // The better arm never loses: every resample's mean is ≥ 0.
    assert.equal(gain.nonInferiority.passed, true);
  });

  it('reports no event in either arm as a bound on both sides that blocks a reduction claim, not as equal', async () => {
    const [mixed] = await run();
    const incidence = mixed!.metrics.find((m) => m.key === 'incidence:L')!.cells[0]!;
    assert.deepEqual([incidence.baseEvents, incidence.treatmentEvents], [0, 0]);
    const bound = 1 - Math.pow(0.05, 1 / 4);
    assert.equal(incidence.interval.method, 'exact-zero');
    assert.ok(Math.abs(incidence.interval.high! - bound) < 1e-12 && Math.abs(incidence.interval.low! + bound) < 1e-12);
    assert.equal(incidence.verdict, 'blocks a reduction claim');
  });
});

describe('equal-suite average', () => {
  it('resamples questions within each benchmark before averaging, as the reference does', async () => {
    // Benchmark a: q1, q2 (differences +1, 0); benchmark b: q3, q4, q5 (0, −1, +1).
    const suiteRow = (q: number, correct: boolean, arm: string): string => {
      const parsed = JSON.parse(row(q, correct, arm)) as { meta: Record<string, unknown> };
      parsed.meta.benchmark = q <= 2 ? 'a' : 'b';
      return JSON.stringify(parsed);
    };
    writeFileSync(join(dir, 'suite-base.jsonl'), [false, true, true, true, false].map((c, i) => suiteRow(i + 1, c, 'sb')).join('\n'));
    writeFileSync(join(dir, 'suite-treatment.jsonl'), [true, true, true, false, true].map((c, i) => suiteRow(i + 1, c, 'st')).join('\n'));
    const text = spec.replace(/comparison mixed[\s\S]*$/, `comparison suite {
  reward R0
  corpus wiki
  base suite_base
  treatment suite_treatment
  detectors L
  seed 11
  bootstrap 300
}
`).replace('pool base =', 'pool suite_base = "suite-base.jsonl"\npool suite_treatment = "suite-treatment.jsonl"\npool base =')
      .replace(/pool (base|worse|better) = .*\n/g, '');
    const outcome = await compareSpec(text, join(dir, 'suite.reward'));
    assert.deepEqual(outcome.problems, []);
    const em = outcome.reports![0]!.metrics.find((m) => m.key === 'em')!;
    assert.deepEqual(em.cells.map((c) => c.benchmark), ['a', 'b', 'equal-suite']);
    const groups = [[1, 0], [0, -1, 1]];
    const next = mulberry32(11);
    const means: number[] = [];
    for (let b = 0; b < 300; b++) {
      let suite = 0;
      for (const g of groups) {
        let sum = 0;
        for (let i = 0; i < g.length; i++) sum += g[Math.floor(next() * g.length)]!;
        suite += sum / g.length;
      }
      means.push(suite / groups.length);
    }
    means.sort((x, y) => x - y);
    const at = (p: number): number => {
      const h = (means.length - 1) * p;
      const lo = Math.floor(h);
      return means[lo]! + (h - lo) * (means[Math.ceil(h)]! - means[lo]!);
    };
    const suite = em.cells[2]!;
    assert.equal(suite.difference, (0.5 + 0) / 2);
    assert.ok(Math.abs(suite.interval.low! - at(0.025)) < 1e-12 && Math.abs(suite.interval.high! - at(0.975)) < 1e-12);
    // Per benchmark, the plain cluster bootstrap of that benchmark's differences.
    const [aLow, aHigh] = referenceInterval([1, 0], 300, 11);
    assert.deepEqual([em.cells[0]!.interval.low, em.cells[0]!.interval.high], [aLow, aHigh]);
  });
});

describe('verdicts', () => {
  const base = { better: 'lower' as const, rate: true, clusters: 1000, claim: 0.01 };
  it('a reduction whose interval excludes zero improves, whatever the event count', () => {
    assert.equal(verdictOf({ ...base, low: -0.03, high: -0.001, baseEvents: 5, treatmentEvents: 0 }), 'improves');
    assert.equal(verdictOf({ ...base, low: 0.001, high: 0.03, baseEvents: 5, treatmentEvents: 9 }), 'worsens');
  });
  it('rare events crossing zero block a reduction claim; frequent ones within ±claim are within claim', () => {
    assert.equal(verdictOf({ ...base, low: -0.004, high: 0.004, baseEvents: 4, treatmentEvents: 3 }), 'blocks a reduction claim');
    assert.equal(verdictOf({ ...base, low: -0.004, high: 0.004, baseEvents: 40, treatmentEvents: 38 }), 'within claim');
    assert.equal(verdictOf({ ...base, low: -0.02, high: 0.004, baseEvents: 40, treatmentEvents: 38 }), 'inconclusive');
    // Enough events overall, but none in one arm of 100 clusters: its bound (2.95%) exceeds the 1-point claim.
    assert.equal(verdictOf({ ...base, clusters: 100, low: -0.2, high: 0.001, baseEvents: 12, treatmentEvents: 0 }), 'blocks a reduction claim');
  });
  it('a continuous metric crossing zero is inconclusive', () => {
    assert.equal(verdictOf({ ...base, better: 'higher', rate: false, low: -0.01, high: 0.02, baseEvents: 0, treatmentEvents: 0 }), 'inconclusive');
  });
});
