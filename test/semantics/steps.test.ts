// The checker on the step forms: every new built-in is visible (it reads only the logged
// trajectory), taint still flows from gold and oracle fields through them, and a wrong type or an
// unknown member is reported where it is written.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { analyze } from '../../server/src/semantics/analyze.js';
import { marked } from '../helpers/marked.js';

function info(spec: string, name: string): string {
  const { model, problems } = analyze(spec);
  assert.deepEqual(problems, [], spec);
  const i = model.declInfo.get(model.globals.get(name)!.decl);
  return `${i?.type}/${i?.visibility}`;
}

/** The problems of `spec` as [code, span], and the spans its ⟦…⟧ markers name. */
function problems(spec: string): { found: unknown[]; spans: unknown[] } {
  const { text, spans } = marked(spec);
  return { found: analyze(text).problems.map((p) => [p.code, p.span]), spans };
}

const detector = (body: string): string => `detector D "d" = ${body}\nreward R { d -1 * D }\n`;

describe('step forms: visibility', () => {
  const visibleForms: [string, string][] = [
    ['steps', 'count(steps) > 3'],
    ['s.type', 'any s in steps: s.type == "tool"'],
    ['s.tool', 'any s in steps: s.tool == "visit"'],
    ['s.args.NAME', 'any s in steps: starts_with(s.args.url, "http://")'],
    ['s.query', 'any s in steps: s.query == question'],
    ['s.results', 'any s in steps: count(s.results) == 0'],
    ['s.titles', 'any s in steps: any t in s.titles: contains(t, answer)'],
    ['s.urls', 'any s in steps: count(s.urls) > 1'],
    ['s.text', 'any s in steps: contains(s.text, "error")'],
    ['s.step_reward', 'any s in steps: s.step_reward < 0'],
    ['s.has_step_reward', 'all s in steps: s.has_step_reward'],
    ['calls', 'calls("visit") > 5'],
    ['reasoning', 'any r in reasoning: matches(r, "(?i)i cannot")'],
    ['final_status', 'final_status == "length"'],
    ['retrieved', 'any c in citations: c not in retrieved'],
  ];
  for (const [form, body] of visibleForms) {
    it(`${form} is visible: a detector may read it`, () => assert.equal(info(detector(body), 'D'), 'boolean/visible'));
  }

  it('is oracle when gold or an oracle field flows in, and a detector may not read it then', () => {
    assert.equal(info('signal S = any a in gold.answers: calls(a) > 0\nreward R { x 1 * S }\n', 'S'), 'boolean/oracle');
    assert.equal(info('signal S = any s in steps: any a in gold.answers: contains(s.text, a)\nreward R { x 1 * S }\n', 'S'), 'boolean/oracle');
    assert.equal(info('oracle field t "the true tool" : text = meta.tool\nsignal S = calls(t)\nreward R { x 1 * S }\n', 'S'), 'number/oracle');
    const gold = problems(detector('any s in steps: any a in ⟦gold⟧.answers: contains(s.text, a)'));
    assert.deepEqual(gold.found, [['oracle-detector', gold.spans[0]]]);
    const field = problems(`oracle field t "the true tool" : text = meta.tool\n${detector('calls(⟦t⟧) > 0')}`);
    assert.deepEqual(field.found, [['oracle-detector', field.spans[0]]]);
  });

  it('types each form as the reference says', () => {
    assert.equal(info('signal S = calls("search") + count(reasoning)\nreward R { x 1 * S }\n', 'S'), 'number/visible');
    assert.equal(info('signal S = count s in steps: s.step_reward > 0 and s.args.k != ""\nreward R { x 1 * S }\n', 'S'), 'number/visible');
  });
});

describe('step forms: diagnostics', () => {
  it('an unknown member of a step, with the step\'s fields and a suggestion', () => {
    const { text, spans } = marked(detector('any s in steps: s.⟦tol⟧ == "visit"'));
    const found = analyze(text).problems;
    assert.deepEqual(found.map((p) => [p.code, p.span]), [['unknown-member', spans[0]]]);
    assert.match(found[0]!.message, /fields: type, tool, args, query, results, titles, urls, text, retrieval, step_reward, has_step_reward/);
    assert.deepEqual(found[0]!.data, { suggestion: 'tool' });
  });

  it('an argument is text: not a number, and any name is one', () => {
    const numeric = problems(detector('any s in steps: ⟦s.args.top_k⟧ > 5'));
    assert.deepEqual(numeric.found, [['type-mismatch', numeric.spans[0]]]);
    assert.deepEqual(problems(detector('any s in steps: s.args.anything_at_all == ""')).found, []);
  });

  it('tool arguments are no collection, and have no value of their own to count', () => {
    const counted = problems(detector('any s in steps: count(⟦s.args⟧) > 0'));
    assert.deepEqual(counted.found, [['type-mismatch', counted.spans[0]]]);
  });

  it('calls takes one text', () => {
    const number = problems(detector('calls(⟦1⟧) > 0'));
    assert.deepEqual(number.found, [['type-mismatch', number.spans[0]]]);
    const none = problems(detector('⟦calls()⟧ > 0'));
    assert.deepEqual(none.found, [['wrong-arity', none.spans[0]]]);
  });

  it('reasoning is a text set and final_status a text', () => {
    const set = problems(detector('⟦reasoning == ""⟧'));
    assert.deepEqual(set.found, [['type-mismatch', set.spans[0]]]);
    const sum = problems(detector('⟦final_status⟧ + 1 > 0'));
    assert.deepEqual(sum.found, [['type-mismatch', sum.spans[0]]]);
  });

  it('a step member on a text is unknown, as before', () => {
    const { found, spans } = problems(detector('any r in reasoning: r.⟦tool⟧ == ""'));
    assert.deepEqual(found, [['unknown-member', spans[0]]]);
  });
});
