// The registry of built-ins: what the checker accepts, the compiler can run, and a call computes.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { builtinFields, builtinFunctions, builtinMembers, type BuiltinFunction, type Literal } from '../../server/src/language/builtins.js';
import { corpusEnv } from '../../server/src/language/eval-env.js';
import type { Type } from '../../server/src/language/types.js';
import { kinds, type TypedEval, type ValueType } from '../../server/src/language/values.js';
import { EvaluationError } from '../../server/src/language/eval-error.js';
import { loggedFieldReason } from '../../server/src/language/logged-fields.js';
import * as fns from '../../server/src/language/functions.js';
import { maxPatternWork } from '../../server/src/problems/limits.js';
import type { TrajectoryView } from '../../server/src/language/view.js';
import { RewardCompiler } from '../../server/src/reward/compile.js';
import { analyze } from '../../server/src/semantics/analyze.js';
import { marked } from '../helpers/marked.js';

const step = { type: 'search', query: 'eiffel tower height', results: ['w:1', 'w:2'] } as const;

/** One constant evaluator of each type. */
const sample: Record<ValueType, TypedEval> = {
  number: kinds.number.wrap(() => 2),
  boolean: kinds.boolean.wrap(() => true),
  id: kinds.id.wrap(() => 'w:1'),
  ids: kinds.ids.wrap(() => ['w:1']),
  text: kinds.text.wrap(() => 'the Eiffel Tower'),
  texts: kinds.texts.wrap(() => ['Eiffel Tower']),
  step: kinds.step.wrap(() => step),
  steps: kinds.steps.wrap(() => [step]),
  turn: kinds.turn.wrap(() => ({ index: 0, text: '<search>x</search>', steps: [step] })),
  turns: kinds.turns.wrap(() => [{ index: 0, text: '<search>x</search>', steps: [step] }]),
  args: kinds.args.wrap(() => ({ url: 'https://example.org' })),
  gold: kinds.gold.wrap(() => ({ answers: ['Eiffel Tower'], support_ids: ['w:1'] })),
};
const valueTypes: readonly ValueType[] = ['number', 'boolean', 'id', 'ids', 'text', 'texts', 'step', 'steps', 'turn', 'turns', 'args', 'gold'];
const accepting = (types: readonly Type[]): TypedEval => sample[valueTypes.find((t) => types.includes(t))!];

const view: TrajectoryView = {
  question: 'Where is the Eiffel Tower?',
  answer: 'Paris',
  finalText: '<answer>Paris</answer> [w:1]',
  hasFinal: true,
  citations: ['w:1', 'w:9'],
  retrieved: new Set(['w:1', 'w:2']),
  steps: [step, { ...step, query: 'Eiffel  tower height?' }, { type: 'invalid', text: '<serach>' }],
  searches: [step, { ...step, query: 'Eiffel  tower height?' }],
  invalidActions: 1,
  finalStatus: '',
  gold: { answers: ['Paris', 'City of Paris'], support_ids: ['w:1', 'w:3'] },
  meta: { judge: { score: 0.75, verdict: 'correct' }, format_ok: true, docids: ['w:1', 'w:2'] },
};
const corpus = { file: 'corpus.jsonl', passages: new Map([['w:1', { id: 'w:1', title: 'Paris', text: 'The capital of France.' }]]) };

/** The literals a call of `fn` writes where its parameters take one: a valid pattern of one group, group 1, 2 digits, a normalisation. */
const literalsOf = (fn: BuiltinFunction): Literal[] => fn.parameters.map((p) => (p.literal === undefined ? undefined : { pattern: '(Paris)', group: 1, digits: 2, normalization: 'spaced' }[p.literal]));

/** The value of `expr` on `view`, through the checker and the compiler, as a term computes it (booleans as 0/1). */
function evaluate(expr: string, on: TrajectoryView = view): number {
  const { model, problems } = analyze(`signal s = ${expr}\nreward R { x 1 * s }\n`);
  assert.deepEqual(problems, [], expr);
  return new RewardCompiler(model).reward('R').terms[0]!.feature(on, corpusEnv(corpus));
}

describe('built-in registry', () => {
  it('each function compiles exactly the argument types its signature declares, to its result type', () => {
    for (const fn of builtinFunctions) {
      const full = fn.parameters.map((p) => accepting(p.types));
      const literals = literalsOf(fn);
      // A function whose result varies with its arguments (`first`) types it as the checker does.
      const resultOf = (args: readonly TypedEval[]): Type => fn.resultOf?.(args.map((a) => a.type)) ?? fn.result;
      assert.equal(fn.compile(full, literals)?.type, resultOf(full), fn.name);
      fn.parameters.forEach((parameter, i) => {
        for (const type of valueTypes) {
          const args = full.map((arg, j) => (j === i ? sample[type] : arg));
          assert.equal(fn.compile(args, literals) !== undefined, parameter.types.includes(type), `${fn.name} argument ${i + 1} of type ${type}`);
          if (parameter.types.includes(type)) assert.equal(fn.compile(args, literals)?.type, resultOf(args), `${fn.name} of ${type}`);
        }
      });
    }
  });

  it('each function refuses the argument counts the checker reports', () => {
    for (const fn of builtinFunctions) {
      const full = fn.parameters.map((p) => accepting(p.types));
      const extra = [...full, full[full.length - 1]!];
      const literals = literalsOf(fn);
      assert.equal(fn.compile(extra, literals) !== undefined, fn.variadic, `${fn.name} with one argument more`);
      assert.equal(fn.compile(full.slice(0, fn.required), literals) !== undefined, true, `${fn.name} with its required arguments`);
      if (fn.required > 0) assert.equal(fn.compile(full.slice(0, fn.required - 1), literals), undefined, `${fn.name} with one argument less`);
    }
  });

  it('fields and record fields evaluate to their declared types', () => {
    for (const field of builtinFields) assert.equal(field.evaluator.type, field.type, field.name);
    for (const member of builtinMembers) {
      for (const type of valueTypes) assert.equal(member.compile(sample[type])?.type, type === member.owner ? member.type : undefined, `${member.owner}.${member.name} on ${type}`);
    }
  });

  it('calls compute what the language reference says', () => {
    assert.equal(evaluate('count(citations)'), 2);
    assert.equal(evaluate('recall(citations, gold.support)'), 0.5);
    assert.equal(evaluate('precision(citations, retrieved)'), 0.5);
    assert.equal(evaluate('misses(citations, gold.support)'), 0);
    assert.equal(evaluate('exact_match(answer, gold.answers)'), 1);
    assert.equal(evaluate('grounding(citations, gold.answers)'), 0.5);
    assert.equal(evaluate('repeated_queries()'), 1);
    assert.equal(evaluate('repeated_queries(0.5) + tokens(final_text)'), 3);
    assert.equal(evaluate('mean(has_final, search_calls > 2, 4)'), 5 / 3);
    assert.equal(evaluate('max(invalid_actions, -1) - min(2, 3)'), -1);
    assert.equal(evaluate('count s in searches: count(s.results) == 2'), 2);
    assert.equal(evaluate('count q in searches: q.query == "eiffel tower height"'), 1);
    assert.equal(evaluate('any c in citations: c in corpus and c not in retrieved'), 0);
    assert.equal(evaluate('all a in gold.answers: token_f1(a, answer) > 0'), 1);
  });
});

describe('tokens(text)', () => {
  // The count the language reference defines: the trimmed text split on JavaScript's \s.
  const split = (text: string): number => (text.trim().length === 0 ? 0 : text.trim().split(/\s+/).length);

  it('counts runs of whitespace-free text, taking every UTF-16 code unit that \\s takes as whitespace', () => {
    for (let code = 0; code <= 0xffff; code++) {
      const c = String.fromCharCode(code);
      for (const text of [`a${c}b`, `${c}a`, `a${c}${c}`, c]) assert.equal(fns.tokens(text), split(text), `U+${code.toString(16)} in ${JSON.stringify(text)}`);
    }
  });

  it('agrees with splitting on generated texts', () => {
    const parts = ['word', ' ', '  ', '\t', '\n', '\u00a0', '\u2003', '\u3000', '\ufeff', '\u0085', '\u200b', '[w:12]', 'é', ''];
    let seed = 7;
    for (let n = 0; n < 2000; n++) {
      let text = '';
      for (let i = 0; i < n % 12; i++) {
        seed = (seed * 1103515245 + 12345) % 2147483648;
        text += parts[seed % parts.length];
      }
      assert.equal(fns.tokens(text), split(text), JSON.stringify(text));
    }
  });
});

describe('contains(text, part)', () => {
  const problems = (spec: string) => {
    const { text, spans } = marked(spec);
    return { found: analyze(text).problems.map((p) => [p.code, p.span]), spans };
  };
  const typeOf = (spec: string, name: string) => {
    const { model } = analyze(spec);
    const info = model.declInfo.get(model.globals.get(name)!.decl);
    return `${info?.type}/${info?.visibility}`;
  };

  it('is a boolean, visible when both texts are, so a detector may use it', () => {
    const spec = 'detector D "hedges" = contains(final_text, "I do not know")\nreward R { x -1 * D }\n';
    assert.deepEqual(analyze(spec).problems, []);
    assert.equal(typeOf(spec, 'D'), 'boolean/visible');
  });

  it('is oracle when a text is, and a detector may not use it then', () => {
    assert.equal(typeOf('signal S = any a in gold.answers: contains(answer, a)\nreward R { x 1 * S }\n', 'S'), 'boolean/oracle');
    const { found, spans } = problems('detector D "d" = any a in ⟦gold⟧.answers: contains(answer, a)\nreward R { x -1 * D }\n');
    assert.deepEqual(found, [['oracle-detector', spans[0]]]);
  });

  it('takes two texts: not a text set, not one argument', () => {
    const set = problems('signal S = contains(answer, ⟦gold.answers⟧)\nreward R { x 1 * S }\n');
    assert.deepEqual(set.found, [['type-mismatch', set.spans[0]]]);
    const one = problems('signal S = ⟦contains(answer)⟧\nreward R { x 1 * S }\n');
    assert.deepEqual(one.found, [['wrong-arity', one.spans[0]]]);
  });

  it('tests the normalised texts as a substring, never with an empty part', () => {
    assert.equal(evaluate('contains("Paris, the capital of France", "CAPITAL of france.")'), 1);
    assert.equal(evaluate('contains(final_text, answer)'), 1, '<answer>Paris</answer> normalises to answerparisanswer');
    assert.equal(evaluate('contains("snow", "no")'), 1, 'not whole words');
    assert.equal(evaluate('contains("Paris", "Paris, France")'), 0);
    assert.equal(evaluate('contains("self taught", "self-taught")'), 0, 'the hyphen is deleted, not a space');
    assert.equal(evaluate('contains(question, "The")'), 0, 'nothing left after normalisation');
    assert.equal(evaluate('contains(question, answer)', { ...view, answer: '' }), 0);
    assert.equal(evaluate('any a in gold.answers: contains(answer, a)', { ...view, answer: 'It is the city of Paris.' }), 1);
  });
});

describe('if … then … else', () => {
  it('takes the branch its condition chooses, numbers and indicators alike', () => {
    assert.equal(evaluate('if has_final then 2 else 3'), 2);
    assert.equal(evaluate('if has_final then 2 else 3', { ...view, hasFinal: false }), 3);
    assert.equal(evaluate('if search_calls > 5 then 1 else false'), 0);
    assert.equal(evaluate('if has_final then true else false'), 1);
    assert.equal(evaluate('(if has_final then answer else question) == "Paris"'), 1);
    assert.equal(evaluate('count(if has_final then citations else retrieved)'), 2);
    assert.equal(evaluate('2 * if invalid_actions > 0 then 0.5 else 1'), 1);
  });

  it('computes Search-R1\'s format gate: EM when the format holds, else a format score', () => {
    const gate = 'if has_final and search_calls > 0 then exact_match(answer, gold.answers) else 0.1 * invalid_actions';
    assert.equal(evaluate(gate), 1);
    assert.equal(evaluate(gate, { ...view, searches: [] }), 0.1);
  });

  it('is exact where the branch not taken is not finite (unlike `c * a + (1 - c) * b`)', () => {
    assert.equal(evaluate('if has_final then 1 else 1e308 * 1e308'), 1);
  });
});

describe('starts_with(text, prefix)', () => {
  it('tests the prefix as written, not normalised', () => {
    assert.equal(evaluate('starts_with(final_text, "<answer>")'), 1);
    assert.equal(evaluate('starts_with(final_text, "<Answer>")'), 0, 'case counts');
    assert.equal(evaluate('starts_with(answer, "")'), 1);
    assert.equal(evaluate('starts_with(answer, "Paris!")'), 0);
  });

  it('is as visible as its texts', () => {
    const { model, problems } = analyze('signal S = any a in gold.answers: starts_with(answer, a)\ndetector D "d" = starts_with(final_text, "<")\nreward R { x 1 * S  d -1 * D }\n');
    assert.deepEqual(problems, []);
    const info = (name: string) => model.declInfo.get(model.globals.get(name)!.decl)?.visibility;
    assert.equal(info('S'), 'oracle');
    assert.equal(info('D'), 'visible');
  });
});

describe('concat(text, …)', () => {
  it('joins the texts as written', () => {
    assert.equal(fns.concat(['Paris', ' ', 'France']), 'Paris France');
  });

  it('is a value past the engine\'s bounds, not a crash, when the text would be longer than a string holds', () => {
    const long = 'a'.repeat(2 ** 28);
    assert.throws(() => fns.concat([long, long, long]), (error: unknown) => error instanceof EvaluationError && /concat\(…\) of 805,306,368 characters/.test(error.message));
  });
});

describe('matches(text, "pattern")', () => {
  const problems = (spec: string) => {
    const { text, spans } = marked(spec);
    return { found: analyze(text).problems.map((p) => [p.code, p.span]), spans };
  };

  it('finds an RE2 pattern anywhere in the raw text', () => {
    assert.equal(evaluate('matches(final_text, "<answer>[A-Z][a-z]+</answer>")'), 1);
    assert.equal(evaluate('matches(final_text, "^<answer>.*</answer> \\\\[w:\\\\d+\\\\]$")'), 1);
    assert.equal(evaluate('matches(answer, "paris")'), 0, 'case counts');
    assert.equal(evaluate('matches(answer, "(?i)paris")'), 1);
    assert.equal(evaluate('matches(question, "^Eiffel")'), 0, 'anchored at the start of the text');
    assert.equal(evaluate('matches(final_text, "\\"")'), 0, 'an escaped quote is a quote');
  });

  it('stays linear on a pattern that makes a backtracking engine hang', () => {
    const long = { ...view, answer: `${'a'.repeat(100_000)}!` };
    const started = Date.now();
    assert.equal(evaluate('matches(answer, "^(a+)+$")', long), 0);
    assert.ok(Date.now() - started < 5_000);
  });

  it('refuses a text past the work bound instead of running for minutes', () => {
    const huge = { ...view, answer: 'a'.repeat(maxPatternWork / 4) };
    assert.throws(() => evaluate('matches(answer, "a[ab]{20}$")', huge), EvaluationError);
  });

  it('reports a bad pattern at its place, with the code bad-pattern', () => {
    const bracket = problems('signal S = matches(answer, "ab⟦[⟧")\nreward R { x 1 * S }\n');
    assert.deepEqual(bracket.found, [['bad-pattern', bracket.spans[0]]]);
    const lookahead = problems('signal S = matches(answer, "x⟦(?=⟧y)")\nreward R { x 1 * S }\n');
    assert.deepEqual(lookahead.found, [['bad-pattern', lookahead.spans[0]]]);
    const escaped = problems('signal S = matches(answer, "\\\\\\"⟦[⟧")\nreward R { x 1 * S }\n');
    assert.deepEqual(escaped.found, [['bad-pattern', escaped.spans[0]]], 'offsets through escapes');
    // A backslash the string loses is the string's error, wherever the string stands (syntax/parse.ts).
    const lost = problems('signal S = matches(answer, "a⟦\\d⟧+")\nreward R { x 1 * S }\n');
    assert.deepEqual(lost.found, [['bad-escape', lost.spans[0]]]);
    const counted = problems('signal S = count_of(answer, "⟦\\n⟧")\nreward R { x 1 * S }\n');
    assert.deepEqual(counted.found, [['bad-escape', counted.spans[0]]], 'a plain string argument too: "\\n" would count the letter n');
    const notLiteral = problems('signal S = matches(answer, ⟦question⟧)\nreward R { x 1 * S }\n');
    assert.deepEqual(notLiteral.found, [['bad-pattern', notLiteral.spans[0]]]);
    const large = problems('signal S = matches(answer, ⟦"[ab]{999}c"⟧)\nreward R { x 1 * S }\n');
    assert.deepEqual(large.found, [['bad-pattern', large.spans[0]]]);
  });
});

describe('declared logged fields', () => {
  const spec = (decl: string, expr: string) => `${decl}\nsignal s = ${expr}\nreward R { x 1 * s }\n`;
  const value = (decl: string, expr: string, on: TrajectoryView = view): number => {
    const { model, problems } = analyze(spec(decl, expr));
    assert.deepEqual(problems, [], expr);
    return new RewardCompiler(model).reward('R').terms[0]!.feature(on, corpusEnv(corpus));
  };

  it('reads the value at the path under meta, as its declared type', () => {
    assert.equal(value('field judge "j" : number = meta.judge.score', 'judge'), 0.75);
    assert.equal(value('field ok "f" : boolean = meta.format_ok', 'if ok then 2 else 3'), 2);
    assert.equal(value('field verdict "v" : text = meta.judge.verdict', 'verdict == "correct"'), 1);
    assert.equal(value('field docs "d" : ids = meta.docids', 'recall(docs, citations)'), 0.5);
  });

  it('raises rather than read a missing or mistyped value (the rows are skipped before)', () => {
    assert.throws(() => value('field judge "j" : number = meta.judge.missing', 'judge'), EvaluationError);
    assert.throws(() => value('field judge "j" : number = meta.judge.verdict', 'judge'), EvaluationError);
  });

  it('words why a row cannot give a field, never quoting the value', () => {
    const meta = { judge: { score: '0.8', nested: null }, list: [1] };
    assert.equal(loggedFieldReason(meta, ['judge', 'score'], 'number', 'judge'), "logged field 'judge': meta.judge.score is string, not a number");
    assert.equal(loggedFieldReason(meta, ['judge', 'nested', 'x'], 'number', 'n'), "logged field 'n': the row has no meta.judge.nested.x");
    assert.equal(loggedFieldReason(meta, ['list'], 'texts', 'l'), "logged field 'l': meta.list is a list with an element that is not a string, not a list of texts (texts)");
    assert.equal(loggedFieldReason(meta, ['judge'], 'text', 't'), "logged field 't': meta.judge is object, not a text");
    assert.equal(loggedFieldReason({ x: 1 }, ['x'], 'number', 'x'), undefined);
  });

  it('says a logged 1e999 is not finite, instead of "number, not a number"', () => {
    const meta = JSON.parse('{"score": 1e999, "low": -1e999}') as Record<string, unknown>;
    assert.equal(loggedFieldReason(meta, ['score'], 'number', 's'), "logged field 's': meta.score is not finite (a number too large for a double): every term must be a finite number");
    assert.equal(loggedFieldReason(meta, ['low'], 'number', 'l'), "logged field 'l': meta.low is not finite (a number too large for a double): every term must be a finite number");
    assert.equal(loggedFieldReason(meta, ['score'], 'text', 't'), "logged field 't': meta.score is not finite (a number too large for a double), not a text");
  });
});
