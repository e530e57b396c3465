// Pool format v2 (docs/pools.md): a strict superset of v1. Every v1 row loads to exactly the object
// v1 loaded (golden), and each new form is accepted, or refused with its reason.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import * as path from 'node:path';
import { describe, it } from 'node:test';
import Ajv2020 from 'ajv/dist/2020';
import { splitJsonlText } from '../../server/src/inputs/jsonl.js';
import { poolRowJsonSchema } from '../../server/src/pool/json-schema.js';
import { parsePoolRow } from '../../server/src/pool/schemas.js';
import { traceOf, type Trajectory } from '../../server/src/pool/types.js';
import { poolRow } from './temp-files.js';
import type { V1Row } from './v1-row.js';

const repo = path.join(__dirname, '..', '..', '..');
const source = { pool: 'p', file: 'p.jsonl', line: 1 };

function parsed(row: unknown): Trajectory {
  const r = parsePoolRow(row, source);
  if (!r.ok) assert.fail(r.reason);
  return r.value;
}

function reason(row: unknown): string {
  const r = parsePoolRow(row, source);
  if (r.ok) assert.fail('the row loaded');
  return r.reason;
}


/** What the v1 loader made of a valid v1 row (its conversion, written out again). */
function v1Loaded(row: V1Row): Trajectory {
  const meta = Object.fromEntries(Object.entries(row.meta ?? {}).filter(([, v]) => v !== null && v !== undefined));
  return {
    id: row.id,
    question_id: row.question_id,
    question: row.question,
    steps: row.steps.map((s) => (s.type === 'search' ? { type: 'search', query: s.query, results: s.results } : { type: 'invalid', text: s.text })),
    final: row.final === null ? null : { answer: row.final.answer, citations: row.final.citations, text: row.final.text },
    gold: { answers: row.gold.answers, support_ids: row.gold.support_ids },
    meta,
    source,
  };
}

describe('pool v2: every v1 row loads exactly as v1 loaded it', () => {
  it('the sample pools, row by row (no v2 field appears)', () => {
    for (const pool of ['hotpot.jsonl', 'train-R0.jsonl', 'eval-R_L.jsonl', 'musique-k5.jsonl', 'model-llama3-8b.jsonl']) {
      const rows = splitJsonlText(readFileSync(path.join(repo, 'samples', 'pools', pool), 'utf8'));
      for (const { line, text } of rows.slice(0, 200)) {
        // The sample rows are v1 by construction: JSON.parse gives the v1 shape.
        const row = JSON.parse(text) as V1Row;
        assert.deepEqual(parsed(row), v1Loaded(row), `${pool}:${line}`);
      }
    }
  });

  it('a v1 row has no trace: its steps are the whole trace', () => {
    const t = parsed(poolRow('t1'));
    assert.equal(t.trace, undefined);
    assert.equal(traceOf(t), t.steps);
    assert.ok(!('citationRefs' in t) && !('finalStatus' in t));
  });
});

describe('pool v2: the new forms are accepted', () => {
  it('a tool step: name, arguments, call id, results and text output, kept in the trace', () => {
    const t = parsed(poolRow('t1', {
      steps: [
        { type: 'search', query: 'q', results: ['w:1'] },
        { type: 'tool', tool: 'visit', args: { url: 'https://x.org/a', depth: 2 }, call_id: 'call_0', results: ['w:2'], output: 'the page' },
        { type: 'tool', tool: 'calculator', args: { expr: '1+1' }, output: '2' },
        { type: 'tool', tool: 'finish' },
      ],
    }));
    assert.deepEqual(t.trace, [
      { type: 'search', query: 'q', results: ['w:1'] },
      { type: 'tool', tool: 'visit', args: { url: 'https://x.org/a', depth: 2 }, call_id: 'call_0', results: ['w:2'], output: 'the page' },
      { type: 'tool', tool: 'calculator', args: { expr: '1+1' }, results: [], output: '2' },
      { type: 'tool', tool: 'finish', args: {}, results: [] },
    ]);
    // The engine reads searches and invalid actions as before: a tool call is neither.
    assert.deepEqual(t.steps, [{ type: 'search', query: 'q', results: ['w:1'] }]);
  });

  it('reasoning steps and per-step rewards (null: not given)', () => {
    const t = parsed(poolRow('t1', {
      steps: [
        { type: 'reasoning', text: 'I should search.' },
        { type: 'search', query: 'q', results: ['w:1'], reward: 0.25 },
        { type: 'invalid', text: '<serach>', reward: -1 },
        { type: 'reasoning', text: 'done', reward: null },
      ],
    }));
    assert.deepEqual(t.trace, [
      { type: 'reasoning', text: 'I should search.' },
      { type: 'search', query: 'q', results: ['w:1'], reward: 0.25 },
      { type: 'invalid', text: '<serach>', reward: -1 },
      { type: 'reasoning', text: 'done' },
    ]);
    assert.deepEqual(t.steps, [{ type: 'search', query: 'q', results: ['w:1'] }, { type: 'invalid', text: '<serach>' }]);
  });

  it('results as objects: ids given are used, the others wait for the corpus', () => {
    const t = parsed(poolRow('t1', {
      steps: [{ type: 'search', query: 'q', results: ['w:1', { id: 'w:2', rank: 2, title: 'T' }, { rank: 3, title: 'Paris', url: 'https://x.org/paris', text: 'Paris is…' }] }],
    }));
    assert.deepEqual(t.steps, [{ type: 'search', query: 'q', results: ['w:1', 'w:2'] }]);
    assert.deepEqual(t.trace?.[0], {
      type: 'search',
      query: 'q',
      results: ['w:1', 'w:2'],
      hits: [{ id: 'w:1', rank: 1 }, { id: 'w:2', rank: 2, title: 'T' }, { rank: 3, title: 'Paris', url: 'https://x.org/paris', text: 'Paris is…' }],
    });
  });

  it('citation markers and final.status', () => {
    const t = parsed(poolRow('t1', { final: { answer: 'Paris', citations: ['w:1', { marker: '[2]', rank: 2 }, { marker: '【w:9】', id: 'w:9' }], text: 'Paris [2]', status: 'stop' } }));
    assert.deepEqual(t.citationRefs, ['w:1', { marker: '[2]', rank: 2 }, { marker: '【w:9】', id: 'w:9' }]);
    assert.equal(t.finalStatus, 'stop');
    // Before resolution only the ids the log gives are citations (inputs/ resolves the rest).
    assert.deepEqual(t.final?.citations, ['w:1', 'w:9']);
  });

  it('a stop reason without a final answer ({"answer": null})', () => {
    const t = parsed(poolRow('t1', { final: { answer: null, status: 'max_turns' } }));
    assert.equal(t.final, null);
    assert.equal(t.finalStatus, 'max_turns');
  });

  it('meta holds any JSON', () => {
    const meta = { judge: { score: 0.8, reasons: ['a', 'b'] }, components: [1, 2], flag: true, none: null, group: 'g' };
    assert.deepEqual(parsed(poolRow('t1', { meta })).meta, { judge: { score: 0.8, reasons: ['a', 'b'] }, components: [1, 2], flag: true, none: null, group: 'g' });
  });
});

describe('pool v2: malformed new forms are refused with their reason', () => {
  const cases: [string, Record<string, unknown>, string][] = [
    ['a tool step without a name', { steps: [{ type: 'tool', args: {} }] }, "missing field 'steps[0].tool'"],
    ['a tool step with an empty name', { steps: [{ type: 'tool', tool: '' }] }, 'steps[0].tool: must not be empty'],
    ['tool arguments that are not an object', { steps: [{ type: 'tool', tool: 'visit', args: ['x'] }] }, 'steps[0].args: expected an object, got an array'],
    ['tool output that is not text', { steps: [{ type: 'tool', tool: 'visit', output: 3 }] }, 'steps[0].output: expected a string, got an integer'],
    ['reasoning without text', { steps: [{ type: 'reasoning' }] }, "missing field 'steps[0].text'"],
    ['a step reward that is text', { steps: [{ type: 'invalid', text: 'x', reward: 'high' }] }, 'steps[0].reward: expected a number, got a string'],
    ['a result object without a rank', { steps: [{ type: 'search', query: 'q', results: [{ title: 'T' }] }] }, "missing field 'steps[0].results[0].rank'"],
    ['a negative rank', { steps: [{ type: 'search', query: 'q', results: [{ rank: -1, title: 'T' }] }] }, 'steps[0].results[0].rank: must be at least 0'],
    ['two results at one rank', { steps: [{ type: 'search', query: 'q', results: [{ rank: 1, title: 'A' }, { rank: 1, title: 'B' }] }] }, "steps[0].results[1].rank: rank 1 is also item 0's"],
    ['a result that is a number', { steps: [{ type: 'search', query: 'q', results: ['w:1', 3] }] }, 'steps[0].results: expected an array of ids or result objects (item 1 is an integer)'],
    ['a marker naming nothing', { final: { answer: 'a', citations: [{ marker: '[1]' }], text: '' } }, 'final.citations[0]: a citation marker needs an id, a url or a rank'],
    ['a marker without its marker text', { final: { answer: 'a', citations: [{ rank: 1 }], text: '' } }, "missing field 'final.citations[0].marker'"],
    ['a marker naming a step the row lacks', { final: { answer: 'a', citations: [{ marker: '[1]', rank: 1, step: 5 }], text: '' } }, 'final.citations[0].step: there is no step 5 (the row has 2)'],
    ['a status that is a number', { final: { answer: 'a', citations: [], text: '', status: 3 } }, 'final.status: expected a string, got an integer'],
    ['a final answer without citations', { final: { answer: 'a', text: '' } }, "missing field 'final.citations'"],
    ['final as text', { final: 'Paris' }, 'final: expected an object or null, got a string'],
    ['an unknown step type', { steps: [{ type: 'visit', url: 'x' }] }, 'steps[0].type: expected "search" or "tool" or "reasoning" or "invalid", got another string'],
  ];
  for (const [what, overrides, expected] of cases) {
    it(what, () => assert.equal(reason(poolRow('t1', overrides)), expected));
  }
});

describe('pool v2: the JSON Schema agrees with the loader on the new forms', () => {
  const validate = new Ajv2020({ allErrors: true }).compile(poolRowJsonSchema());
  // Two rules are the loader's alone, like unique ids: a marker must name something, and ranks within one result list differ.
  const cases: [string, Record<string, unknown>][] = [
    ['a tool step', { steps: [{ type: 'tool', tool: 'visit', args: { url: 'u' }, call_id: 'c', results: [{ rank: 1, url: 'u' }], output: 'o', reward: 1 }] }],
    ['reasoning', { steps: [{ type: 'reasoning', text: 't' }] }],
    ['markers and a status', { final: { answer: 'a', citations: [{ marker: '[1]', rank: 1 }], text: 'a [1]', status: 'stop' } }],
    ['no answer, a status', { final: { answer: null, status: 'length' } }],
    ['a tool step without a name', { steps: [{ type: 'tool' }] }],
    ['a result without a rank', { steps: [{ type: 'search', query: 'q', results: [{ id: 'w:1' }] }] }],
    ['a reward that is text', { steps: [{ type: 'reasoning', text: 't', reward: 'x' }] }],
  ];
  for (const [what, overrides] of cases) {
    it(what, () => {
      const row: unknown = JSON.parse(JSON.stringify(poolRow('t1', overrides)));
      assert.equal(validate(row), parsePoolRow(row, source).ok);
    });
  }
});

describe('pool v2: the pool rows docs/pools.md shows load', () => {
  const text = readFileSync(path.join(repo, 'docs', 'pools.md'), 'utf8');
  const examples = [...text.matchAll(/```json\n(\{"id"[\s\S]*?)```/g)].map((m) => m[1]!).filter((json) => json.includes('"question_id"')).map((json) => JSON.parse(json) as unknown);

  it('both pool row examples load; the second is v2', () => {
    assert.equal(examples.length, 2);
    const [v1, v2] = examples.map(parsed);
    assert.equal(v1?.trace, undefined);
    assert.deepEqual(v2?.trace?.map((s) => s.type), ['reasoning', 'search', 'tool', 'invalid']);
    assert.equal(v2?.finalStatus, 'stop');
  });
});
