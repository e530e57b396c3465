// Pool rows of format v2 with every kind of step, for the tests of the language's step forms.
import assert from 'node:assert/strict';
import { corpusEnv } from '../../server/src/language/eval-env.js';
import { viewOf, type TrajectoryView } from '../../server/src/language/view.js';
import { parsePoolRow } from '../../server/src/pool/schemas.js';
import type { Trajectory } from '../../server/src/pool/types.js';
import { RewardCompiler } from '../../server/src/reward/compile.js';
import { analyze } from '../../server/src/semantics/analyze.js';

const source = { pool: 'p', file: 'p.jsonl', line: 1 };

/** A deep-research trajectory: reasoning, a search with result objects, get_document, visit, an invalid action. */
export const toolRow = {
  id: 'dr-1', question_id: 'q-1', question: 'Which river flows through Newarn?',
  steps: [
    { type: 'reasoning', text: 'I need the birthplace first.', reward: null },
    { type: 'search', query: 'newarn river', reward: 0.1,
      results: [{ id: 'w:1', rank: 1, title: 'Newarn (river)', url: 'https://example.org/newarn' }, 'w:2'] },
    { type: 'tool', tool: 'get_document', args: { docid: 'w:3', top_k: 5, verbose: true, filters: { lang: ['en', 'de'] }, note: null },
      call_id: 'c1', results: ['w:3'], output: 'The Newarn flows through…', reward: -0.05 },
    { type: 'reasoning', text: 'Now check the page.' },
    { type: 'tool', tool: 'visit', args: { url: 'https://example.org/page' }, results: [{ rank: 1, url: 'https://example.org/page', title: 'Page' }] },
    { type: 'tool', tool: 'calculator', args: { expression: '2+2' }, output: '4' },
    { type: 'invalid', text: '<serach>' },
  ],
  final: { answer: 'the Newarn', citations: ['w:3', 'w:1'], text: '<answer>the Newarn</answer> [w:3] [w:1]', status: 'stop' },
  gold: { answers: ['Newarn'], support_ids: ['w:3'] },
  meta: { judge: { score: 0.8 } },
};

/** A v1 row: two searches and an invalid action. */
export const v1Row = {
  id: 'v1', question_id: 'q-2', question: 'What is the capital of France?',
  steps: [
    { type: 'search', query: 'capital of france', results: ['w:1', 'w:2'] },
    { type: 'invalid', text: '<search>' },
    { type: 'search', query: 'paris', results: ['w:2', 'w:4'] },
  ],
  final: { answer: 'Paris', citations: ['w:1'], text: '<answer>Paris</answer> [w:1]' },
  gold: { answers: ['Paris'], support_ids: ['w:1'] },
};

export function parsed(row: unknown): Trajectory {
  const r = parsePoolRow(row, source);
  if (!r.ok) assert.fail(r.reason);
  return r.value;
}

const corpus = {
  file: 'corpus.jsonl',
  passages: new Map(['w:1', 'w:2', 'w:3', 'w:4'].map((id) => [id, { id, title: `Title ${id}`, text: `Text of ${id}.` }])),
};

/** The value of `expr` on `view`, through the checker and the compiler, as a term computes it (booleans as 0/1). */
export function evaluate(expr: string, view: TrajectoryView): number {
  const { model, problems } = analyze(`signal s = ${expr}\nreward R { x 1 * s }\n`);
  assert.deepEqual(problems, [], expr);
  return new RewardCompiler(model).reward('R').terms[0]!.feature(view, corpusEnv(corpus));
}

export const toolView = (): TrajectoryView => viewOf(parsed(toolRow));
export const v1View = (): TrajectoryView => viewOf(parsed(v1Row));
