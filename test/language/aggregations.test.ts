// Aggregations (`sum`, `max`, `min`, `mean` … `else D`), the `where` filter of every quantifier, and
// `first`/`last` (docs/language.md, "Aggregations and filters", "First and last"): how they parse,
// type, taint, read and evaluate, empty collections included.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { formatSpec } from '../../server/src/format/format.js';
import { viewOf } from '../../server/src/language/view.js';
import { issueCodes } from '../../server/src/problems/issue-codes.js';
import { analyze } from '../../server/src/semantics/analyze.js';
import type * as A from '../../server/src/syntax/ast.js';
import { parse } from '../../server/src/syntax/parse.js';
import { marked } from '../helpers/marked.js';
import { evaluate, parsed, toolView } from './v2-rows.js';

const signal = (body: string): string => `signal s = ${body}\nreward R { x 1 * s }\n`;

/** The signal's body, parsed without problems. */
function bodyOf(expression: string): A.Expr {
  const result = parse(signal(expression));
  assert.deepEqual(result.problems, [], expression);
  const decl = result.spec.decls[0];
  assert.equal(decl?.kind, 'signal');
  assert.ok(decl.kind === 'signal' && decl.body !== undefined);
  return decl.body;
}

/** The problems of a spec as [code, span], and the spans its ⟦…⟧ markers name. */
function problems(source: string): { found: [string, unknown][]; spans: unknown[]; messages: string[] } {
  const { text, spans } = marked(source);
  const all = analyze(text).problems;
  return { found: all.map((p) => [p.code, p.span]), spans, messages: all.map((p) => p.message) };
}

/** `type/visibility` of signal `s` (or of `name`). */
function info(spec: string, name = 's'): string {
  const { model, problems: found } = analyze(spec);
  assert.deepEqual(found, [], spec);
  const i = model.declInfo.get(model.globals.get(name)!.decl);
  return `${i?.type}/${i?.visibility}`;
}

/** The parts signal `s` reads. */
function reads(body: string): string[] {
  const { model, problems: found } = analyze(signal(body));
  assert.deepEqual(found, [], body);
  return [...model.readSets.ofDecl(model.globals.get('s')!.decl)].sort();
}

// A trajectory with nothing: no steps, no final, no gold.
const emptyView = () => viewOf(parsed({
  id: 'e', question_id: 'q', question: 'Q?', steps: [], final: null, gold: { answers: [], support_ids: [] }, meta: {},
}));

describe('aggregations: parsing', () => {
  it('reads the word, the variable, the collection, the filter, the body and the else value', () => {
    const e = bodyOf('max s in steps where s.type == "search": s.step_reward else -1');
    assert.equal(e.kind, 'quantifier');
    assert.ok(e.kind === 'quantifier');
    assert.equal(e.quantifier, 'max');
    assert.equal(e.variable?.text, 's');
    assert.equal(e.filter?.kind, 'binary');
    assert.equal(e.body?.kind, 'member');
    assert.equal(e.fallback?.kind, 'unary');
  });

  it('keeps the words names elsewhere: max(…) and mean(…) are calls, a signal may be named sum, normalize mean stays', () => {
    assert.equal(bodyOf('max(1, 2) + mean(has_final, 0)').kind, 'binary');
    assert.deepEqual(analyze('signal sum = search_calls\nreward R { x 1 * sum }\n').problems, []);
    assert.deepEqual(parse('training t { reward R  normalize mean }\n').problems, []);
  });

  it('gives the else to the nearest max, min or mean, and never to sum or a quantifier', () => {
    const nested = bodyOf('if has_final then max a in gold.answers: token_f1(answer, a) else 0 else 1');
    assert.ok(nested.kind === 'if' && nested.whenTrue?.kind === 'quantifier' && nested.whenTrue.fallback?.kind === 'number');
    assert.equal(nested.whenFalse?.kind, 'number');
    const summed = bodyOf('if has_final then sum s in steps: s.step_reward else 1');
    assert.ok(summed.kind === 'if' && summed.whenTrue?.kind === 'quantifier' && summed.whenTrue.fallback === undefined);
    const counted = bodyOf('if has_final then count s in steps where s.retrieval: true else 0');
    assert.ok(counted.kind === 'if' && counted.whenTrue?.kind === 'quantifier' && counted.whenTrue.filter !== undefined);
  });

  it('formats to one canonical line, and formatting again changes nothing', () => {
    const messy = 'signal s =  sum  s  in steps  where s.type=="search" :s.step_reward\nsignal m = max a in gold.answers:token_f1(answer,a)else  0\n';
    const formatted = formatSpec(messy);
    assert.equal(formatted, 'signal s = sum s in steps where s.type == "search": s.step_reward\nsignal m = max a in gold.answers: token_f1(answer, a) else 0\n');
    assert.equal(formatSpec(formatted), formatted);
    assert.equal(formatSpec('signal f = token_f1(answer, first(gold.answers)) + count(last(steps).results)\n'), 'signal f = token_f1(answer, first(gold.answers)) + count(last(steps).results)\n');
  });
});

describe('aggregations: types, visibility and errors', () => {
  it('is a number, visible over visible collections and oracle when gold flows in', () => {
    assert.equal(info(signal('sum s in steps: s.step_reward')), 'number/visible');
    assert.equal(info(signal('mean s in searches: count(s.results) else 0')), 'number/visible');
    assert.equal(info(signal('max a in gold.answers: token_f1(answer, a) else 0')), 'number/oracle');
    assert.equal(info(signal('sum c in citations where c in gold.support: 1')), 'number/oracle', 'the filter taints');
    assert.equal(info(signal('max s in steps: s.step_reward else count(gold.answers)')), 'number/oracle', 'the else value taints');
    assert.equal(info(signal('sum c in citations: c in retrieved')), 'number/visible', 'a boolean body counts as 0/1');
  });

  it('refuses an oracle aggregation in a detector, at the gold it reads', () => {
    const p = problems('detector D "d" = (max a in ⟦gold⟧.answers: token_f1(answer, a) else 0) > 0.5\nreward R { d -1 * D }\n');
    assert.deepEqual(p.found, [[issueCodes.oracleDetector, p.spans[0]]]);
  });

  it('requires the else of max, min and mean, on the word', () => {
    for (const word of ['max', 'min', 'mean']) {
      const p = problems(signal(`⟦${word}⟧ s in steps: s.step_reward`));
      assert.deepEqual(p.found, [[issueCodes.parseError, p.spans[0]]], word);
      assert.match(p.messages[0]!, new RegExp(`'${word}' of no element has no value: end it with 'else D'`));
    }
    assert.deepEqual(problems(signal('sum s in steps: s.step_reward')).found, []);
  });

  it('reports a body, filter or else value of the wrong type where it is written', () => {
    const body = problems(signal('sum s in steps: ⟦s.query⟧'));
    assert.deepEqual(body.found, [[issueCodes.typeMismatch, body.spans[0]]]);
    assert.match(body.messages[0]!, /the body of 'sum' must be a number or a boolean indicator, not text/);
    const filter = problems(signal('sum s in steps where ⟦s.step_reward⟧: 1'));
    assert.deepEqual(filter.found, [[issueCodes.typeMismatch, filter.spans[0]]]);
    assert.match(filter.messages[0]!, /the 'where' filter of 'sum' must be boolean, not number/);
    const fallback = problems(signal('max s in steps: 1 else ⟦"none"⟧'));
    assert.deepEqual(fallback.found, [[issueCodes.typeMismatch, fallback.spans[0]]]);
    const collection = problems(signal('sum s in ⟦answer⟧: 1'));
    assert.deepEqual(collection.found, [[issueCodes.typeMismatch, collection.spans[0]]]);
    assert.match(collection.messages[0]!, /'sum' ranges over an id set, text set or steps, not text/);
  });

  it('binds the variable in the filter and the body, not in the else value', () => {
    const p = problems(signal('mean x in steps where x.retrieval: x.step_reward else ⟦x⟧.step_reward'));
    assert.deepEqual(p.found, [[issueCodes.unknownName, p.spans[0]]]);
  });
});

describe('aggregations: evaluation', () => {
  const view = toolView();
  // The step rewards of the row: 0.1 (search), -0.05 (get_document), none elsewhere (read as 0).

  it('sums the step rewards, all or those the filter keeps', () => {
    assert.equal(evaluate('sum s in steps: s.step_reward', view), 0.1 + -0.05);
    assert.equal(evaluate('sum s in steps where s.type == "search": s.step_reward', view), 0.1);
    assert.equal(evaluate('sum c in citations: c in gold.support', view), 1);
  });

  it('takes the largest, the smallest and the mean of what the filter keeps', () => {
    assert.equal(evaluate('max s in steps: s.step_reward else 9', view), 0.1);
    assert.equal(evaluate('min s in steps: s.step_reward else 9', view), -0.05);
    assert.equal(evaluate('mean s in steps where s.has_step_reward: s.step_reward else 9', view), (0.1 - 0.05) / 2);
    assert.equal(evaluate('max s in steps where s.type == "reasoning": s.step_reward else 9', view), 0, 'an unlogged reward reads 0');
    assert.equal(evaluate('max a in gold.answers: token_f1(answer, a) else 0', view), 1);
  });

  it('gives 0 for sum and the else value for max, min and mean over no element', () => {
    const empty = emptyView();
    assert.equal(evaluate('sum s in steps: s.step_reward', empty), 0);
    assert.equal(evaluate('max a in gold.answers: token_f1(answer, a) else -1', empty), -1);
    assert.equal(evaluate('min s in steps: 1 else 0.25', empty), 0.25);
    assert.equal(evaluate('mean s in steps: 1 else 0.5', empty), 0.5);
    // A filter that keeps nothing is the same as an empty collection.
    assert.equal(evaluate('mean s in steps where s.type == "nothing": 1 else 7', view), 7);
    assert.equal(evaluate('sum s in steps where s.type == "nothing": 1', view), 0);
  });

  it('filters any, all and count as the reference says', () => {
    assert.equal(evaluate('count s in steps where s.type == "tool": s.has_step_reward', view), 1);
    assert.equal(evaluate('any s in steps where s.type == "tool": s.step_reward < 0', view), 1);
    assert.equal(evaluate('all s in steps where s.type == "tool": s.has_step_reward', view), 0);
    assert.equal(evaluate('all s in steps where s.type == "nothing": false', view), 1, 'all over nothing kept holds');
    assert.equal(evaluate('all c in citations where c in gold.support: c in retrieved', view), 1);
    assert.equal(evaluate('count c in citations where c in retrieved: true', view), 2);
  });

  it('nests, each variable bound to its own element', () => {
    assert.equal(evaluate('sum s in steps: count r in s.results where r in citations: true', view), 2);
    assert.equal(evaluate('max s in searches: (sum r in s.results: 1) else 0', view), 2);
  });
});

describe('aggregations: read sets', () => {
  it('reads what the collection, the filter, the body and the else value read', () => {
    assert.deepEqual(reads('sum s in steps: s.step_reward'), ['steps']);
    assert.deepEqual(reads('max a in gold.answers: token_f1(answer, a) else 0'), ['answer', 'gold']);
    assert.deepEqual(reads('sum c in citations where c in retrieved: 1'), ['citations', 'steps']);
    assert.deepEqual(reads('mean c in citations: 1 else tokens(final_text)'), ['citations', 'final_text']);
    assert.deepEqual(reads('token_f1(answer, first(gold.answers))'), ['answer', 'gold']);
  });
});

describe('first and last', () => {
  const view = toolView();

  it('are an element of the collection, typed as its elements', () => {
    assert.equal(evaluate('first(gold.answers) == "Newarn"', view), 1);
    assert.equal(evaluate('first(steps).type == "reasoning"', view), 1);
    assert.equal(evaluate('last(steps).type == "invalid"', view), 1);
    assert.equal(evaluate('last(searches).query == "newarn river"', view), 1);
    assert.equal(evaluate('first(citations) in gold.support and last(citations) not in gold.support', view), 1);
    assert.equal(info(signal('count(first(steps).results)')), 'number/visible');
    assert.equal(info(signal('token_f1(answer, first(gold.answers))')), 'number/oracle');
  });

  it('give "" or the step that reads as nothing on an empty collection', () => {
    const empty = emptyView();
    assert.equal(evaluate('first(gold.answers) == ""', empty), 1);
    assert.equal(evaluate('first(citations) in citations', empty), 0);
    assert.equal(evaluate('last(steps).type == "" and last(steps).tool == "" and count(last(steps).results) == 0', empty), 1);
    assert.equal(evaluate('last(steps).step_reward + last(steps).has_step_reward + last(steps).retrieval', empty), 0);
  });

  it('take a collection, and their element is no number', () => {
    const text = problems(signal('count(first(⟦answer⟧).results)'));
    assert.deepEqual(text.found, [[issueCodes.typeMismatch, text.spans[0]]]);
    const arithmetic = problems(signal('⟦last(steps)⟧ + 1'));
    assert.deepEqual(arithmetic.found, [[issueCodes.typeMismatch, arithmetic.spans[0]]]);
  });
});
