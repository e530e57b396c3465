// Resolving ids a log does not give against the corpus (docs/pools.md, "Resolving ids"): by url,
// exact text, normalised title, and citation markers through the rank they point at. What does not
// resolve is counted and reported by file:line, and never used as a corpus id.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { IssueLog, loadInputs } from '../../server/src/inputs/load-inputs.js';
import { InputCache } from '../../server/src/inputs/input-cache.js';
import { WorkspaceTrust } from '../../server/src/inputs/trust.js';
import { resolvePool, titleKey } from '../../server/src/pool/resolve-ids.js';
import { parsePoolRow } from '../../server/src/pool/schemas.js';
import type { Corpus, Passage, Trajectory } from '../../server/src/pool/types.js';
import { jsonl, poolRow, tempDir } from './temp-files.js';

const passages: Passage[] = [
  { id: 'w:1', title: 'Paris', text: 'Paris is the capital of France.', url: 'https://en.example.org/Paris' },
  { id: 'w:2', title: 'Lyon', text: 'Lyon is a city in France.' },
  { id: 'w:3', title: 'Seine', text: 'The Seine flows through Paris.' },
  { id: 'w:4', title: 'Seine', text: 'The Seine is 777 km long.' },
  { id: 'w:5', title: 'Notes', text: 'Boilerplate.' },
  { id: 'w:6', title: 'Other notes', text: 'Boilerplate.' },
];
const corpus: Corpus = { file: 'corpus.jsonl', passages: new Map(passages.map((p) => [p.id, p])) };

function row(id: string, line: number, overrides: Record<string, unknown>): Trajectory {
  const r = parsePoolRow(poolRow(id, overrides), { pool: 'p', file: 'pool.jsonl', line });
  if (!r.ok) assert.fail(r.reason);
  return r.value;
}

const search = (results: unknown[]): Record<string, unknown> => ({ steps: [{ type: 'search', query: 'q', results }] });

describe('resolvePool: results', () => {
  it('a v1 pool comes back as the same array, with nothing to report', () => {
    const rows = [row('a', 1, {}), row('b', 2, {})];
    const resolved = resolvePool(rows, corpus);
    assert.equal(resolved.rows, rows);
    assert.deepEqual(resolved.issues, []);
    assert.equal(resolved.resolution, undefined);
  });

  it('by url, exact text (whitespace aside), normalised title; logged ids stay as logged', () => {
    const rows = [row('a', 1, search([
      { rank: 1, url: 'https://en.example.org/Paris', title: 'wrong title' },
      { rank: 2, text: '  Lyon is a city\nin France. ' },
      { rank: 3, title: 'ＰＡＲＩＳ ' },
      { rank: 4, id: 'w:not-in-corpus' },
      'w:2',
    ]))];
    const resolved = resolvePool(rows, corpus);
    assert.deepEqual(resolved.issues, []);
    const [t] = resolved.rows;
    assert.deepEqual(t?.steps, [{ type: 'search', query: 'q', results: ['w:1', 'w:2', 'w:1', 'w:not-in-corpus', 'w:2'] }]);
    const step = t?.trace?.[0];
    assert.ok(step?.type === 'search');
    assert.deepEqual(step.hits?.map((h) => [h.id, h.resolvedBy]), [['w:1', 'url'], ['w:2', 'text'], ['w:1', 'title'], ['w:not-in-corpus', undefined], ['w:2', undefined]]);
    assert.deepEqual(resolved.resolution?.counts.results, { logged: 2, url: 1, text: 1, title: 1, unresolved: 0 });
    assert.equal(titleKey('  The\tWho '), 'the who');
  });

  it('the title tells passages with one text apart; a shared title alone does not resolve', () => {
    const rows = [row('a', 3, search([{ rank: 1, text: 'Boilerplate.', title: 'Other Notes' }, { rank: 2, text: 'Boilerplate.' }, { rank: 3, title: 'Seine' }, { rank: 4, title: 'Nowhere' }]))];
    const resolved = resolvePool(rows, corpus);
    const [t] = resolved.rows;
    // Unresolved results are left out of the ids: the row stays, and says so.
    assert.deepEqual(t?.steps, [{ type: 'search', query: 'q', results: ['w:6'] }]);
    assert.deepEqual(resolved.resolution?.counts.results, { logged: 0, url: 0, text: 1, title: 0, unresolved: 3 });
    assert.deepEqual(resolved.resolution?.unresolved, [
      { file: 'pool.jsonl', line: 3, reason: '3 results not resolved to a corpus passage, so not used as ids: steps[0].results[1] (rank 2): 2 passages have this text (and 2 more)' },
    ]);
  });

  it('a tool step resolves its results too', () => {
    const rows = [row('a', 1, { steps: [{ type: 'tool', tool: 'get_document', args: { docid: 'x' }, results: [{ rank: 1, title: 'Lyon' }] }] })];
    const [t] = resolvePool(rows, corpus).rows;
    assert.deepEqual(t?.trace?.[0], { type: 'tool', tool: 'get_document', args: { docid: 'x' }, results: ['w:2'], hits: [{ rank: 1, title: 'Lyon', id: 'w:2', resolvedBy: 'title' }] });
  });
});

describe('resolvePool: citation markers', () => {
  const steps = {
    steps: [
      { type: 'search', query: 'q1', results: [{ rank: 1, title: 'Lyon' }, { rank: 2, title: 'Paris' }] },
      { type: 'reasoning', text: 'now the river' },
      { type: 'search', query: 'q2', results: [{ rank: 1, text: 'The Seine flows through Paris.' }, { rank: 2, title: 'Nowhere' }] },
    ],
  };
  const cite = (citations: unknown[]): Record<string, unknown> => ({ ...steps, final: { answer: 'a', citations, text: 'a' } });

  it('through the rank of the last step with results, or of the step named; by url; by id', () => {
    const rows = [row('a', 1, cite([{ marker: '[1]', rank: 1 }, { marker: '[2]', rank: 2, step: 0 }, { marker: '[p]', url: 'https://en.example.org/Paris' }, { marker: '【w:4】', id: 'w:4' }, 'w:5']))];
    const resolved = resolvePool(rows, corpus);
    assert.deepEqual(resolved.issues, []);
    assert.deepEqual(resolved.rows[0]?.final?.citations, ['w:3', 'w:1', 'w:1', 'w:4', 'w:5']);
    assert.deepEqual(resolved.resolution?.counts.citations, { logged: 2, url: 1, rank: 2, unresolved: 0 });
  });

  it('a marker into v1 steps counts ranks from 1 in the logged order', () => {
    const rows = [row('a', 1, { final: { answer: 'a', citations: [{ marker: '[2]', rank: 2 }], text: 'a [2]' } })];
    assert.deepEqual(resolvePool(rows, corpus).rows[0]?.final?.citations, ['w:2']);
  });

  for (const [what, marker, why] of [
    ['at a result that did not resolve', { marker: '[2]', rank: 2 }, 'the result at rank 2 of step 2 is not resolved to a passage'],
    ['at a rank no result has', { marker: '[7]', rank: 7 }, 'step 2 has no result at rank 7'],
    ['at a step without results', { marker: '[1]', rank: 1, step: 1 }, 'its rank 1 points at no step with results'],
    ['by a url nothing has', { marker: '[u]', url: 'https://nowhere.example' }, 'no passage or result has its url'],
  ] as const) {
    it(`a marker pointing ${what} skips the row, by file:line`, () => {
      const rows = [row('ok', 4, {}), row('bad', 5, cite(['w:1', marker]))];
      const resolved = resolvePool(rows, corpus);
      assert.deepEqual(resolved.rows.map((t) => t.id), ['ok']);
      assert.deepEqual(resolved.issues, [{ file: 'pool.jsonl', line: 5, reason: `final.citations[1]: citation marker not resolved: ${why}` }]);
      assert.equal(resolved.resolution?.counts.citations.unresolved, 1);
    });
  }
});

describe('loadInputs resolves pools against the corpus, once', () => {
  const tmp = tempDir();

  it('rows come resolved, skipped rows are issues, counts and notes are on the pool', async () => {
    const corpusFile = tmp.write('corpus.jsonl', jsonl(passages));
    const poolFile = tmp.write('pool.jsonl', jsonl([
      poolRow('a', search([{ rank: 1, title: 'Lyon' }, { rank: 2, title: 'Nowhere' }])),
      poolRow('b', { final: { answer: 'a', citations: [{ marker: '[9]', rank: 9 }], text: 'a' } }),
    ]));
    const issues = new IssueLog();
    const load = await loadInputs(tmp.dir, { corpus: { name: 'wiki', file: corpusFile }, pools: [{ name: 'p', file: poolFile }] }, { cache: new InputCache(), trust: WorkspaceTrust.everything, issues });
    assert.ok(load.ok);
    const [pool] = load.inputs.pools;
    assert.deepEqual(pool?.rows.map((t) => [t.id, t.steps]), [['a', [{ type: 'search', query: 'q', results: ['w:2'] }]]]);
    assert.deepEqual(pool?.issues, [{ file: 'pool.jsonl', line: 2, reason: 'final.citations[0]: citation marker not resolved: step 0 has no result at rank 9' }]);
    assert.deepEqual(pool?.resolution?.unresolved.map((i) => [i.file, i.line]), [['pool.jsonl', 1]]);
    assert.deepEqual(issues.issues.map((i) => [i.file, i.line]), [[poolFile, 2]]);
  });
});
