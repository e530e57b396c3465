import assert from 'node:assert/strict';
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { parseArgs } from '../../samples/generator/cli-args.js';
import { generate, type GenerateOptions } from '../../samples/generator/generate.js';
import { createRng } from '../../samples/generator/prng.js';

// The checks below restate the fixture format of DESIGN.md and the answer normalisation of
// docs/language.md on their own, so a generator bug cannot hide behind a shared helper.

type Json = Record<string, unknown>;

const POOLS = ['hotpot', '2wiki', 'musique-k5', 'musique-k8', 'model-qwen3-1.7b', 'model-qwen3-8b', 'model-qwen3-14b', 'model-llama3-8b'];
const BEST_OF_8 = ['hotpot', '2wiki', 'musique-k5', 'musique-k8'];
const MODEL_POOLS = POOLS.filter((p) => p.startsWith('model-'));
const TRAINING_LOGS = ['train-R0.jsonl', 'train-R_L.jsonl', 'eval-R0.jsonl', 'eval-R_L.jsonl'];

function squadNormalize(text: string): string {
  return text
    .toLowerCase()
    .replace(/[!"#$%&'()*+,\-./:;<=>?@[\\\]^_`{|}~]/g, '')
    .replace(/\b(a|an|the)\b/g, ' ')
    .replace(/\s+/g, ' ')
    .trim();
}

function readJsonl(path: string): Json[] {
  return readFileSync(path, 'utf8')
    .split('\n')
    .filter((line) => line !== '')
    .map((line) => JSON.parse(line) as Json);
}

const isString = (v: unknown): v is string => typeof v === 'string';
const isStringArray = (v: unknown): v is string[] => Array.isArray(v) && v.every(isString);
const isObject = (v: unknown): v is Json => typeof v === 'object' && v !== null && !Array.isArray(v);

/** Problems with one pool row against DESIGN.md's v1 format; empty when the row is well formed. */
function rowProblems(row: Json): string[] {
  const problems: string[] = [];
  const expect = (ok: boolean, what: string) => {
    if (!ok) problems.push(what);
  };
  expect(isString(row.id) && row.id !== '', 'id');
  expect(isString(row.question_id) && row.question_id !== '', 'question_id');
  expect(isString(row.question) && row.question !== '', 'question');
  expect(Array.isArray(row.steps), 'steps');
  for (const step of Array.isArray(row.steps) ? (row.steps as unknown[]) : []) {
    if (!isObject(step)) {
      problems.push('step is not an object');
    } else if (step.type === 'search') {
      expect(isString(step.query) && step.query !== '' && isStringArray(step.results) && Object.keys(step).length === 3, 'search step');
    } else {
      expect(step.type === 'invalid' && isString(step.text) && Object.keys(step).length === 2, 'invalid step');
    }
  }
  const final = row.final;
  expect(final === null || (isObject(final) && isString(final.answer) && isStringArray(final.citations) && isString(final.text)), 'final');
  const gold = row.gold;
  expect(isObject(gold) && isStringArray(gold.answers) && gold.answers.length > 0 && isStringArray(gold.support_ids), 'gold');
  const meta = row.meta;
  expect(isObject(meta) && isString(meta.model) && Number.isInteger(meta.sample) && (meta.group === undefined || isString(meta.group)), 'meta');
  return problems;
}

function retrieved(row: Json): Set<string> {
  const ids = new Set<string>();
  for (const step of row.steps as Json[]) if (step.type === 'search') for (const id of step.results as string[]) ids.add(id);
  return ids;
}

function searchCalls(row: Json): number {
  return (row.steps as Json[]).filter((step) => step.type === 'search').length;
}

function citations(row: Json): string[] {
  return isObject(row.final) ? (row.final.citations as string[]) : [];
}

function at0(list: readonly Json[]): Json {
  const first = list[0];
  assert.ok(first !== undefined, 'empty pool');
  return first;
}

const tempDirs: string[] = [];
function freshDir(): string {
  const dir = mkdtempSync(join(tmpdir(), 'herald-samples-'));
  tempDirs.push(dir);
  return dir;
}
after(() => {
  for (const dir of tempDirs) rmSync(dir, { recursive: true, force: true });
});

function filesOf(dir: string): Map<string, Buffer> {
  return new Map(readdirSync(dir).map((name) => [name, readFileSync(join(dir, name))]));
}

describe('prng', () => {
  it('repeats a stream for the same key and differs for another key', () => {
    const draw = (key: string) => {
      const rng = createRng([key, 1]);
      return Array.from({ length: 5 }, () => rng.next());
    };
    assert.deepEqual(draw('a'), draw('a'));
    assert.notDeepEqual(draw('a'), draw('b'));
    for (const x of draw('a')) assert.ok(x >= 0 && x < 1);
  });
});

describe('generator determinism', () => {
  const small = (outDir: string, seed: string): GenerateOptions => ({ outDir, seed, scale: 0.05, corpusSize: 600 });

  it('writes byte-identical files for the same seed', () => {
    const first = freshDir();
    const second = freshDir();
    generate(small(first, 's1'));
    generate(small(second, 's1'));
    const a = filesOf(first);
    const b = filesOf(second);
    assert.deepEqual([...a.keys()].sort(), [...b.keys()].sort());
    for (const [name, bytes] of a) assert.ok(bytes.equals(b.get(name) ?? Buffer.alloc(0)), `${name} differs between two runs`);
    for (const name of TRAINING_LOGS) assert.ok(a.has(name), `${name} was not written`);
  });

  it('writes different corpora and pools for a different seed', () => {
    const first = freshDir();
    const second = freshDir();
    generate(small(first, 's1'));
    generate(small(second, 's2'));
    const a = filesOf(first);
    const b = filesOf(second);
    for (const name of ['corpus.jsonl', 'hotpot.jsonl', 'musique-k8.jsonl']) {
      assert.ok(!(a.get(name) ?? Buffer.alloc(0)).equals(b.get(name) ?? Buffer.alloc(0)), `${name} did not change with the seed`);
    }
  });
});

describe('generated pools', () => {
  const scale = 0.25;
  const corpusSize = 1500;
  let dir = '';
  let corpus = new Map<string, Json>();
  const pools = new Map<string, Json[]>();

  before(() => {
    dir = freshDir();
    generate({ outDir: dir, seed: 'shape-test', scale, corpusSize });
    corpus = new Map(readJsonl(join(dir, 'corpus.jsonl')).map((p) => [p.id as string, p]));
    for (const pool of POOLS) pools.set(pool, readJsonl(join(dir, `${pool}.jsonl`)));
  });
  const rows = (pool: string): Json[] => pools.get(pool) ?? [];
  const allRows = (): Json[] => POOLS.flatMap(rows);

  it('writes a corpus of the requested size with unique ids', () => {
    assert.equal(corpus.size, corpusSize);
    for (const passage of corpus.values()) {
      assert.ok(isString(passage.title) && isString(passage.text) && passage.text !== '');
      assert.deepEqual(Object.keys(passage), ['id', 'title', 'text']);
    }
  });

  it('scales the row counts: 8 samples per question, one row per question in the model pools', () => {
    for (const pool of BEST_OF_8) assert.equal(rows(pool).length, 200 * scale * 8, pool);
    for (const pool of MODEL_POOLS) assert.equal(rows(pool).length, 1000 * scale, pool);
  });

  it('writes rows that validate structurally, with ids unique across pools', () => {
    const ids = new Set<string>();
    for (const row of allRows()) {
      assert.deepEqual(rowProblems(row), [], `row ${String(row.id)}`);
      assert.ok(!ids.has(row.id as string), `duplicate id ${String(row.id)}`);
      ids.add(row.id as string);
    }
  });

  it('gives every best-of-8 question samples 0..7 in one group', () => {
    for (const pool of BEST_OF_8) {
      const byQuestion = new Map<string, Json[]>();
      for (const row of rows(pool)) byQuestion.set(row.question_id as string, [...(byQuestion.get(row.question_id as string) ?? []), row]);
      assert.equal(byQuestion.size, 200 * scale, pool);
      for (const [qid, samples] of byQuestion) {
        const metas = samples.map((row) => row.meta as Json);
        assert.deepEqual(metas.map((m) => m.sample).sort(), [0, 1, 2, 3, 4, 5, 6, 7], `${pool} ${qid}`);
        assert.equal(new Set(metas.map((m) => m.group)).size, 1, `${pool} ${qid} spans several groups`);
        assert.equal(new Set(samples.map((row) => row.question)).size, 1);
      }
    }
  });

  it('shares question ids, questions and gold between the two MuSiQue cutoffs', () => {
    const questions = (pool: string) => new Map(rows(pool).map((row) => [row.question_id as string, JSON.stringify([row.question, row.gold])]));
    assert.deepEqual(questions('musique-k5'), questions('musique-k8'));
    const widest = (pool: string) => Math.max(...rows(pool).flatMap((row) => (row.steps as Json[]).filter((s) => s.type === 'search').map((s) => (s.results as string[]).length)));
    assert.equal(widest('musique-k5'), 5);
    assert.equal(widest('musique-k8'), 8);
  });

  it('asks the model pools the same questions, one row each, from different models', () => {
    const questionIds = MODEL_POOLS.map((pool) => rows(pool).map((row) => row.question_id).join('\n'));
    assert.equal(new Set(questionIds).size, 1);
    assert.equal(new Set(MODEL_POOLS.map((pool) => (at0(rows(pool)).meta as Json).model)).size, MODEL_POOLS.length);
  });

  it('puts a gold answer in both gold support passages, which are corpus ids', () => {
    for (const row of allRows()) {
      const gold = row.gold as { answers: string[]; support_ids: string[] };
      assert.equal(gold.support_ids.length, 2);
      for (const id of gold.support_ids) {
        const passage = corpus.get(id);
        assert.ok(passage !== undefined, `support id ${id} of ${String(row.id)} is not in the corpus`);
        const text = ` ${squadNormalize(passage.text as string)} `;
        assert.ok(
          gold.answers.some((answer) => text.includes(` ${squadNormalize(answer)} `)),
          `${id} does not hold an answer of ${String(row.id)}`,
        );
      }
    }
  });

  it('returns only corpus ids from searches', () => {
    for (const row of allRows()) for (const id of retrieved(row)) assert.ok(corpus.has(id), `${String(row.id)} retrieved ${id}`);
  });

  it('has the violation tails: unretrieved and fake citations, no search, no final, invalid and repeated actions', () => {
    const all = allRows();
    const share = (test: (row: Json) => boolean) => all.filter(test).length / all.length;
    const unretrieved = share((row) => citations(row).some((c) => corpus.has(c) && !retrieved(row).has(c)));
    const fake = share((row) => citations(row).some((c) => !corpus.has(c)));
    const noSearch = share((row) => isObject(row.final) && row.final.answer !== '' && searchCalls(row) === 0);
    const noFinal = share((row) => row.final === null);
    const invalid = share((row) => (row.steps as Json[]).some((s) => s.type === 'invalid'));
    const repeated = share((row) => {
      const queries = (row.steps as Json[]).filter((s) => s.type === 'search').map((s) => s.query);
      return new Set(queries).size < queries.length;
    });
    assert.ok(unretrieved > 0.01 && unretrieved < 0.06, `unretrieved-citation rate ${unretrieved}`);
    assert.ok(fake > 0.002 && fake < 0.03, `fake-citation rate ${fake}`);
    assert.ok(noSearch > 0.005 && noSearch < 0.04, `no-search rate ${noSearch}`);
    assert.ok(noFinal > 0.01 && noFinal < 0.06, `no-final rate ${noFinal}`);
    assert.ok(invalid > 0.01 && invalid < 0.15, `invalid-action rate ${invalid}`);
    assert.ok(repeated > 0.01 && repeated < 0.15, `repeated-query rate ${repeated}`);
  });

  it('answers 30-75% of questions exactly, and cites mostly retrieved passages', () => {
    for (const pool of POOLS) {
      const list = rows(pool);
      const correct = list.filter((row) => {
        if (!isObject(row.final)) return false;
        const answer = squadNormalize(row.final.answer as string);
        return (row.gold as { answers: string[] }).answers.some((gold) => squadNormalize(gold) === answer);
      }).length;
      assert.ok(correct / list.length > 0.3 && correct / list.length < 0.75, `${pool} accuracy ${correct / list.length}`);
      const cited = list.flatMap((row) => citations(row).map((c) => retrieved(row).has(c)));
      assert.ok(cited.filter(Boolean).length / cited.length > 0.9, `${pool} cites too many unretrieved ids`);
    }
  });

  it('writes dense candidates that are unretrieved corpus ids for real hotpot citations', () => {
    const hotpot = new Map(rows('hotpot').map((row) => [row.id as string, row]));
    const lines = readJsonl(join(dir, 'dense-candidates.jsonl'));
    assert.ok(lines.length > rows('hotpot').length / 2);
    for (const line of lines) {
      assert.deepEqual(Object.keys(line), ['traj_id', 'citation_index', 'candidates']);
      const row = hotpot.get(line.traj_id as string);
      assert.ok(row !== undefined, `unknown trajectory ${String(line.traj_id)}`);
      const index = line.citation_index as number;
      assert.ok(Number.isInteger(index) && index >= 0 && index < citations(row).length);
      const candidates = line.candidates as string[];
      assert.ok(candidates.length > 0 && candidates.length <= 8);
      for (const id of candidates) {
        assert.ok(corpus.has(id), `candidate ${id} is not a corpus id`);
        assert.ok(!retrieved(row).has(id) && !citations(row).includes(id), `candidate ${id} was retrieved or cited`);
      }
    }
  });
});

describe('generated training and evaluation logs', () => {
  let dir = '';
  const logs = new Map<string, Json[]>();
  before(() => {
    dir = freshDir();
    generate({ outDir: dir, seed: 'log-test', scale: 0.05, corpusSize: 600 });
    for (const name of TRAINING_LOGS) logs.set(name, readJsonl(join(dir, name)));
  });
  const rows = (name: string): Json[] => logs.get(name) ?? [];

  it('writes pool-format rows with unique ids', () => {
    for (const name of TRAINING_LOGS) {
      const ids = new Set(rows(name).map((r) => r.id));
      assert.equal(ids.size, rows(name).length, name);
      for (const row of rows(name)) assert.deepEqual(rowProblems(row), [], `${name} ${String(row.id)}`);
    }
  });

  it('logs 32 steps of 4 groups of 8 per arm, with the same questions and groups in both arms', () => {
    for (const name of ['train-R0.jsonl', 'train-R_L.jsonl']) {
      const groups = new Map<string, Json[]>();
      for (const row of rows(name)) groups.set(String((row.meta as Json).group), [...(groups.get(String((row.meta as Json).group)) ?? []), row]);
      assert.equal(groups.size, 32 * 4, name);
      for (const [group, members] of groups) {
        assert.equal(members.length, 8, group);
        assert.equal(new Set(members.map((m) => (m.meta as Json).step)).size, 1, `${group} spans steps`);
        assert.equal(new Set(members.map((m) => m.question_id)).size, 1, `${group} spans questions`);
      }
    }
    const schedule = (name: string) => rows(name).map((r) => `${String((r.meta as Json).group)} ${String(r.question_id)}`);
    assert.deepEqual(schedule('train-R0.jsonl'), schedule('train-R_L.jsonl'));
  });

  it('evaluates both arms on the same question ids, samples and benchmarks, so every row pairs', () => {
    const keys = (name: string) => rows(name).map((r) => `${String(r.question_id)}#${String((r.meta as Json).sample)} ${String((r.meta as Json).benchmark)}`).sort();
    assert.deepEqual(keys('eval-R0.jsonl'), keys('eval-R_L.jsonl'));
    assert.deepEqual([...new Set(rows('eval-R0.jsonl').map((r) => (r.meta as Json).benchmark))], ['hotpot', '2wiki', 'musique']);
    assert.equal(rows('eval-R0.jsonl').length, 3 * 128 * 2);
  });
});

describe('generator command line', () => {
  it('reads the options with their defaults', () => {
    assert.deepEqual(parseArgs(['--out', 'x']), { kind: 'options', options: { outDir: 'x', seed: '2608', scale: 1, corpusSize: 3000 } });
    assert.deepEqual(parseArgs(['--out', 'x', '--scale', '2.5', '--corpus-size', '100000', '--seed', 'abc']), {
      kind: 'options',
      options: { outDir: 'x', seed: 'abc', scale: 2.5, corpusSize: 100000 },
    });
  });

  it('rejects a missing --out, a bad scale, a tiny corpus and unknown flags', () => {
    for (const argv of [[], ['--out', 'x', '--scale', '0'], ['--out', 'x', '--corpus-size', '10'], ['--out', 'x', '--fast', '1'], ['--out']]) {
      assert.equal(parseArgs(argv).kind, 'error', argv.join(' '));
    }
  });
});
