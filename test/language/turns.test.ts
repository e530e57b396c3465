// Turns (docs/language.md, "Turns") and `join`: the pool's per-step `turn` and row `turns`
// (docs/pools.md), the `turns` collection's type, visibility, read set and evaluation, also on a
// view whose steps an edit deleted or duplicated.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { viewOf, withSteps } from '../../server/src/language/view.js';
import { parsePoolRow } from '../../server/src/pool/schemas.js';
import { analyze } from '../../server/src/semantics/analyze.js';
import { issueCodes } from '../../server/src/problems/issue-codes.js';
import { evaluate, parsed } from './v2-rows.js';

const source = { pool: 'p', file: 'p.jsonl', line: 1 };

// ASearcher-like: two search turns and an answer turn; turn 1 is badly formatted (no <think>).
const row = {
  id: 't', question_id: 'q', question: 'Where was Rukal born?',
  steps: [
    { type: 'reasoning', text: 'Find him.', turn: 0 },
    { type: 'search', query: 'Rukal', results: ['w:1'], turn: 0 },
    { type: 'search', query: 'Rukal birthplace', results: ['w:2'], turn: 1 },
  ],
  turns: ['<think>Find him.</think><search>Rukal</search>', '<search>Rukal birthplace</search>', '<think>Done.</think><answer>Tosca</answer>'],
  final: { answer: 'Tosca', citations: [], text: '<answer>Tosca</answer>' },
  gold: { answers: ['Tosca'], support_ids: [] },
  meta: {},
};

const signal = (body: string): string => `signal s = ${body}\nreward R { x 1 * s }\n`;

describe('turns in the pool format', () => {
  it('keeps each step\'s turn and the row\'s turn texts', () => {
    const read = parsePoolRow(row, source);
    assert.ok(read.ok);
    assert.deepEqual(read.value.trace?.map((s) => s.turn), [0, 0, 1]);
    assert.deepEqual(read.value.turnTexts, row.turns);
  });

  it('refuses a turn that is not a whole number at least 0, and turns that are not texts', () => {
    const negative = parsePoolRow({ ...row, steps: [{ type: 'search', query: 'x', results: [], turn: -1 }] }, source);
    assert.equal(negative.ok, false);
    const fraction = parsePoolRow({ ...row, steps: [{ type: 'invalid', text: 'x', turn: 0.5 }] }, source);
    assert.equal(fraction.ok, false);
    const texts = parsePoolRow({ ...row, turns: [1] }, source);
    assert.equal(texts.ok, false);
  });
});

describe('the turns collection', () => {
  it('is turns, visible, reads the steps; its members are typed', () => {
    const { model, problems } = analyze(signal('count t in turns: matches(t.text, "^<think>")'));
    assert.deepEqual(problems, []);
    const decl = model.globals.get('s')!.decl;
    assert.equal(`${model.declInfo.get(decl)?.type}/${model.declInfo.get(decl)?.visibility}`, 'number/visible');
    assert.deepEqual([...model.readSets.ofDecl(decl)].sort(), ['steps']);
    const wrong = analyze(signal('count t in turns: t.text + 1 > 0')).problems;
    assert.deepEqual(wrong.map((p) => p.code), [issueCodes.typeMismatch]);
  });

  it('groups the steps by turn, with each turn\'s text, in index order', () => {
    const view = viewOf(parsed(row));
    assert.equal(evaluate('count(turns)', view), 3);
    assert.equal(evaluate('count t in turns: matches(t.text, "^<think>")', view), 2);
    assert.equal(evaluate('all t in turns: matches(t.text, "^<think>")', view), 0);
    assert.equal(evaluate('sum t in turns: count(t.steps)', view), 3);
    assert.equal(evaluate('count(first(turns).steps)', view), 2);
    assert.equal(evaluate('last(turns).index', view), 2);
    assert.equal(evaluate('count(last(turns).steps)', view), 0);
    assert.equal(evaluate('max t in turns where count(t.steps) > 0: t.index else -5', view), 1);
  });

  it('regroups the edited steps: a deleted step leaves its turn (text kept), a duplicate joins its step\'s turn', () => {
    const view = viewOf(parsed(row));
    const deleted = withSteps(view, view.steps.slice(2));
    assert.equal(evaluate('count(turns)', deleted), 3);
    assert.equal(evaluate('count(first(turns).steps)', deleted), 0);
    assert.equal(evaluate('count t in turns: any s in t.steps: s.type == "search"', deleted), 1);
    const duplicated = withSteps(view, [...view.steps, view.steps[2]!]);
    assert.equal(evaluate('count(last(turns).steps)', duplicated), 0);
    assert.equal(evaluate('max t in turns: count(t.steps) else 0', duplicated), 2);
  });

  it('is empty for a row that logs no turns (a v1 row)', () => {
    const v1 = viewOf(parsed({ ...row, steps: [{ type: 'search', query: 'Rukal', results: ['w:1'] }], turns: undefined }));
    assert.equal(evaluate('count(turns)', v1), 0);
    assert.equal(evaluate('last(turns).index', v1), -1);
  });
});

describe('join', () => {
  it('joins texts with the separator, "" for none', () => {
    const view = viewOf(parsed(row));
    assert.equal(evaluate('count_of(join(all_matches(final_text, "<(a)nswer>", 1), "-"), "a")', view), 1);
    assert.equal(evaluate('tokens(join(reasoning, " and "))', view), 2);
    assert.equal(evaluate('if join(all_matches(final_text, "(?s)<refine>(.*?)</refine>", 1), " ") == "" then 1 else 0', view), 1);
    const turnsText = analyze(signal('count_of(join(reasoning, "|"), "|")')).problems;
    assert.deepEqual(turnsText, []);
  });

  it('takes a text set and a text', () => {
    const wrong = analyze(signal('tokens(join(final_text, " "))')).problems;
    assert.deepEqual(wrong.map((p) => p.code), [issueCodes.typeMismatch]);
  });
});
