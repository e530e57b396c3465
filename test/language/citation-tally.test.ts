// On an edit that swaps one citation, an expression that counts a test over the citations is
// computed from its original's tests and the swapped citation's alone (language/citation-tally.ts).
// These tests pin which expressions are counted so, and that each gives the value, or the error, a
// full evaluation gives.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { replaceCitation } from '../../server/src/edits/edit-program.js';
import { corpusEnv, type EvalEnv } from '../../server/src/language/eval-env.js';
import type { TrajectoryView } from '../../server/src/language/view.js';
import { RewardCompiler } from '../../server/src/reward/compile.js';
import { analyze } from '../../server/src/semantics/analyze.js';
import { seededRandom } from '../../server/src/stats/random.js';

const passages: [string, string][] = [['w:1', 'Paris is the capital'], ['w:2', 'Lyon'], ['w:3', 'the city of Paris'], ['w:4', 'Marseille'], ['w:5', 'PARIS, France']];
const corpus = { file: 'corpus.jsonl', passages: new Map(passages.map(([id, text]) => [id, { id, title: '', text }])) };

function viewOf(citations: readonly string[], retrieved: readonly string[], meta: TrajectoryView['meta'] = {}): TrajectoryView {
  return {
    question: 'What is the capital of France?',
    answer: 'Paris',
    finalText: `<answer>Paris</answer> ${citations.map((c) => `[${c}]`).join(' ')}`,
    hasFinal: true,
    citations,
    retrieved: new Set(retrieved),
    steps: [{ type: 'search', query: 'capital of france', results: [...retrieved] }],
    searches: [{ type: 'search', query: 'capital of france', results: [...retrieved] }],
    invalidActions: 0,
    finalStatus: '',
    gold: { answers: ['Paris'], support_ids: ['w:3'] },
    meta,
    swap: undefined,
  };
}

/** The feature of `expr` (a signal weighed by one term), with the fields declared before it. */
function feature(expr: string, fields = ''): (view: TrajectoryView, env: EvalEnv) => number {
  const { model, problems } = analyze(`${fields}signal s = ${expr}\nreward R { x 1 * s }\n`);
  assert.deepEqual(problems, [], expr);
  return new RewardCompiler(model).reward('R').terms[0]!.feature;
}

/** `corpusEnv` whose corpus ids and passages count their look-ups. */
function countingEnv(): { env: EvalEnv; lookups: () => number } {
  const base = corpusEnv(corpus);
  let lookups = 0;
  class CountingSet extends Set<string> {
    override has(id: string): boolean {
      lookups++;
      return super.has(id);
    }
  }
  const env: EvalEnv = {
    ...base,
    corpusIds: new CountingSet(base.corpusIds),
    normalizedPassage: (id) => {
      lookups++;
      return base.normalizedPassage(id);
    },
  };
  return { env, lookups: () => lookups };
}

/** Ten edits of `original` that swap its citation at `position`, as an attack builds them. */
function swaps(original: TrajectoryView, position: number): TrajectoryView[] {
  return Array.from({ length: 10 }, (_, i) => replaceCitation(original, position, `w:${i}`, original));
}

describe('citation swaps counted from the original', () => {
  const original = viewOf(['w:1', 'w:9', 'w:2', 'w:1'], ['w:1', 'w:2']);

  it('tests each id once per original: its citations, then only the ids its swaps put in', () => {
    // The original cites w:1, w:9, w:2 (w:1 twice); its ten swaps put in w:0 … w:9, three of which it
    // cites: 3 + 7 tests, where testing every citation of every edit would make 4 + 10 × 4.
    for (const expr of ['count c in citations: c in corpus', 'grounding(citations, gold.answers)', 'misses(citations, corpus)', 'count c in citations: c in corpus and c not in retrieved']) {
      const f = feature(expr);
      const { env, lookups } = countingEnv();
      for (const edited of swaps(original, 1)) f(edited, env);
      assert.equal(lookups(), 3 + 7, expr);
      // Swaps at another position ask for the same ids: nothing is tested again.
      for (const edited of swaps(original, 3)) f(edited, env);
      assert.equal(lookups(), 3 + 7, expr);
    }
  });

  it('reads what the test needs of the original once, however many citations and swaps it tests', () => {
    // `misses` also reads, per edit, whether any id is wanted at all: once per swap beside its test's one read.
    const swapsTested = 3 * swaps(original, 0).length;
    for (const [expr, field, reads] of [['grounding(citations, gold.answers)', 'answers', 1], ['misses(citations, gold.support)', 'support_ids', 1 + swapsTested]] as const) {
      // The gold record is shared by the original and its swaps; its field counts its reads.
      let goldReads = 0;
      const gold = { ...original.gold };
      Object.defineProperty(gold, field, { get: () => (goldReads++, original.gold[field]) });
      const counted = { ...original, gold };
      const f = feature(expr);
      const env = corpusEnv(corpus);
      for (const position of [0, 1, 3]) for (const edited of swaps(counted, position)) f(edited, env);
      assert.equal(goldReads, reads, expr);
    }
  });

  it('evaluates in full what a swap can change otherwise, or what a variable in scope changes', () => {
    const uncounted = [
      // the test reads the final text, which a swap rewrites
      'count c in citations: c in corpus and contains(final_text, "paris")',
      // the test reads the citations themselves
      'count c in citations: c in corpus and count(citations) > 1',
      // a variable in scope: the inner count differs from one search to the next
      'count s in searches: (count c in citations: c in corpus and c in s.results) > 0',
      // a set function: repeats count once
      'precision(citations, corpus)',
    ];
    for (const expr of uncounted) {
      const f = feature(expr);
      const { env, lookups } = countingEnv();
      for (const edited of swaps(original, 1)) f(edited, env);
      const counted = lookups();
      const plain = countingEnv();
      for (const edited of swaps(original, 1)) f({ ...edited, swap: undefined }, plain.env);
      assert.equal(counted, plain.lookups(), expr);
    }
  });

  it('gives the value a full evaluation gives, on random trajectories and swaps', () => {
    const expressions = [
      'any c in citations: c in corpus and c not in retrieved',
      'all c in citations: c in retrieved',
      'count c in citations: c in corpus',
      'any c in citations: c not in corpus',
      'grounding(citations, gold.answers)',
      'grounding(citations, "capital")',
      'misses(citations, gold.support)',
      'mean(any c in citations: c not in retrieved, grounding(citations, gold.answers), misses(citations, gold.support))',
      '(count c in citations: c in retrieved) / count(citations)',
      'tokens(final_text) + count(citations)',
      'recall(citations, gold.support)',
    ];
    const compiled = expressions.map((expr) => ({ expr, f: feature(expr) }));
    const env = corpusEnv(corpus);
    const random = seededRandom(7);
    const id = (): string => `w:${Math.floor(random() * 8)}`;
    for (let trial = 0; trial < 200; trial++) {
      const citations = Array.from({ length: 1 + Math.floor(random() * 5) }, id);
      const view = viewOf(citations, Array.from({ length: Math.floor(random() * 4) }, id));
      for (let position = 0; position < citations.length; position++) {
        for (let i = 0; i < 8; i++) {
          const edited = replaceCitation(view, position, `w:${i}`, view);
          for (const { expr, f } of compiled) {
            assert.ok(Object.is(f(edited, env), f({ ...edited, swap: undefined }, env)), `${expr} on ${citations.join(',')} with ${position} → w:${i}`);
          }
        }
      }
    }
  });

  it('raises the error a full evaluation raises, and none it would not', () => {
    const f = feature('any c in citations: c in corpus and score > 0', 'field score "a logged score" : number = meta.score\n');
    const env = corpusEnv(corpus);
    const message = /logged field 'score': meta.score is string, not a number/;
    // The original's own tests fail (w:1 is in the corpus): the edit that keeps w:1 first fails too,
    // and one whose first citation is outside the corpus never reads the score.
    const failing = viewOf(['w:9', 'w:1'], [], { score: 'high' });
    assert.equal(f(replaceCitation(failing, 1, 'w:8', failing), env), 0);
    assert.throws(() => f(replaceCitation(failing, 0, 'w:2', failing), env), message);
    // The original's tests pass, the swapped citation's test fails: the full evaluation's error.
    const clean = viewOf(['w:9', 'w:8'], [], { score: 'high' });
    assert.equal(f(replaceCitation(clean, 0, 'w:7', clean), env), 0);
    assert.throws(() => f(replaceCitation(clean, 1, 'w:3', clean), env), message);
  });
});
