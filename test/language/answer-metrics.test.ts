// The answer metrics and their named normalisations (docs/language.md, "Normalisations"), and
// round: the expected values are what the projects' Python gives (CPython 3), as the doc says.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { corpusEnv } from '../../server/src/language/eval-env.js';
import * as fns from '../../server/src/language/functions.js';
import { plainNormalizerFor } from '../../server/src/language/normalizer.js';
import { normalizeAnswer, normalizeSpaced, normalizeSquadSpaced } from '../../server/src/language/text.js';
import { viewOf, type TrajectoryView } from '../../server/src/language/view.js';
import type { Trajectory } from '../../server/src/pool/types.js';
import { RewardCompiler } from '../../server/src/reward/compile.js';
import { analyze } from '../../server/src/semantics/analyze.js';
import { marked } from '../helpers/marked.js';

const env = corpusEnv({ file: 'corpus.jsonl', passages: new Map() });
const view: TrajectoryView = viewOf({
  id: 't', question_id: 'q', question: 'Which city?', steps: [],
  final: { answer: 'The city of Paris', text: '<answer>The city of Paris</answer>', citations: [] },
  gold: { answers: ['Paris city', 'Lutetia'], support_ids: [] },
} as unknown as Trajectory);

/** The value of `expr` on `on` through the checker and the compiler (booleans as 0/1). */
function evaluate(expr: string, on: TrajectoryView = view): number {
  const { model, problems } = analyze(`signal s = ${expr}\nreward R { x 1 * s }\n`);
  assert.deepEqual(problems, [], expr);
  return new RewardCompiler(model).reward('R').terms[0]!.feature(on, env);
}

function problems(spec: string) {
  const { text, spans } = marked(spec);
  return { found: analyze(text).problems.map((p) => [p.code, p.span]), spans };
}

describe('normalisations', () => {
  it('squad deletes punctuation, spaced and squad_spaced turn it into spaces; only squad_spaced and squad drop articles', () => {
    const text = "The Self-taught man's  A-Team!";
    assert.equal(normalizeAnswer(text), 'selftaught mans ateam');
    assert.equal(normalizeSpaced(text), 'the self taught man s a team');
    assert.equal(normalizeSquadSpaced(text), 'self taught man s team', '"A-Team" splits, then "a" is an article');
  });

  it('squad_spaced also counts R1-Searcher\'s quotes ‘ ’ ´ as punctuation; the others keep them', () => {
    assert.equal(normalizeSquadSpaced('Ireland’s ´best´'), 'ireland s best');
    assert.equal(normalizeSpaced('Ireland’s ´best´'), 'ireland’s ´best´');
    assert.equal(normalizeAnswer('Ireland’s ´best´'), 'ireland’s ´best´');
  });

  it('fold Python\'s whitespace and keep non-ASCII letters', () => {
    for (const normalize of [normalizeAnswer, normalizeSpaced, normalizeSquadSpaced]) assert.equal(normalize('  Über\u00a0Straße.  '), 'über straße');
    assert.equal(normalizeSpaced('the_end of-the line'), 'the end of the line');
    assert.equal(normalizeSquadSpaced('the_end of-the line'), 'end of line');
  });

  it('are chosen by name in every answer metric, SQuAD\'s when left out', () => {
    assert.equal(evaluate('exact_match("self-taught", "self taught")'), 0);
    assert.equal(evaluate('exact_match("self-taught", "self taught", "spaced")'), 1);
    assert.equal(evaluate('exact_match("the answer", "answer", "spaced")'), 0, 'spaced keeps articles');
    assert.equal(evaluate('exact_match("the answer", "answer", "squad_spaced")'), 1);
    assert.equal(evaluate('contains("self taught", "self-taught")'), 0, 'squad: "selftaught" is not in "self taught"');
    assert.equal(evaluate('contains("self taught", "self-taught", "spaced")'), 1);
    assert.equal(evaluate('token_f1("self-taught", "self taught", "squad_spaced")'), 1);
    assert.equal(evaluate('cover_match("self-taught", "taught", "spaced")'), 1);
  });

  it('an unknown name, or one not written as a string literal, is bad-argument at the argument', () => {
    const unknown = problems('signal S = token_f1(answer, gold.answers, ⟦"sqaud"⟧)\nreward R { x 1 * S }\n');
    assert.deepEqual(unknown.found, [['bad-argument', unknown.spans[0]]]);
    const computed = problems('signal S = exact_match(answer, gold.answers, ⟦question⟧)\nreward R { x 1 * S }\n');
    assert.deepEqual(computed.found, [['bad-argument', computed.spans[0]]]);
    const number = problems('signal S = token_set_f1(answer, gold.answers, ⟦1⟧)\nreward R { x 1 * S }\n');
    assert.deepEqual(number.found.map(([code]) => code), ['type-mismatch', 'bad-argument']);
  });
});

describe('answer metrics take a text set or one text', () => {
  it('exact_match, token_f1, token_set_f1, cover_match: one text is the only answer', () => {
    assert.equal(evaluate('exact_match(answer, "the city of paris.")'), 1);
    assert.equal(evaluate('token_f1(answer, "Paris")'), 0.5);
    assert.equal(evaluate('token_set_f1(answer, "Paris", "spaced")'), 0.4);
    assert.equal(evaluate('cover_match(answer, "Paris")'), 1);
  });

  it('are oracle exactly when an argument is', () => {
    const { model } = analyze('signal A "a" = token_set_f1(answer, gold.answers)\nsignal B "b" = cover_match(answer, question)\nreward R { a 1 * A  b 1 * B }\n');
    const visibility = (name: string) => model.declInfo.get(model.globals.get(name)!.decl)?.visibility;
    assert.equal(visibility('A'), 'oracle');
    assert.equal(visibility('B'), 'visible');
  });
});

describe('token_set_f1(text, answers, normalization?)', () => {
  it('counts each word once (DeepResearcher\'s and ASearcher\'s F1), unlike token_f1', () => {
    assert.equal(fns.tokenSetF1('Paris Paris, France', 'paris', plainNormalizerFor('spaced')), 2 / 3);
    assert.equal(fns.tokenF1('Paris Paris, France', 'paris'), 0.5);
    assert.equal(evaluate('token_set_f1(answer, gold.answers, "spaced")'), 2 * (2 / 4) * 1 / (2 / 4 + 1), 'best over the answers: "paris city"');
    assert.equal(evaluate('token_f1(answer, gold.answers)'), 0.8);
  });

  it('is 0 when the text or the answer has no word, never 1', () => {
    assert.equal(evaluate('token_set_f1("", "")'), 0);
    assert.equal(evaluate('token_set_f1("the", "a")'), 0);
    assert.equal(evaluate('token_f1("the", "a")'), 1, 'SQuAD 2.0: both empty');
    assert.equal(evaluate('token_set_f1(answer, "!?", "spaced")'), 0);
  });
});

describe('cover_match(text, answers, normalization?)', () => {
  it('holds when every word of one answer is among the text\'s words, in any order', () => {
    assert.equal(evaluate('cover_match("It is Paris, France", "France Paris")'), 1);
    assert.equal(evaluate('cover_match("Paris", "Paris France")'), 0);
    assert.equal(evaluate('cover_match("Parisian", "Paris")'), 0, 'whole words, unlike contains');
    assert.equal(evaluate('cover_match(answer, gold.answers)'), 1);
  });

  it('an answer with no words covers exactly the texts with none (Python splits "" into [""])', () => {
    assert.equal(evaluate('cover_match("", "the")'), 1);
    assert.equal(evaluate('cover_match("the", "a")'), 1);
    assert.equal(evaluate('cover_match("Paris", "the")'), 0);
  });
});

describe('round(value, digits?)', () => {
  // CPython 3: round(x, n) for each pair.
  const python: [number, number, number][] = [
    [2.675, 2, 2.67], [0.125, 2, 0.12], [0.375, 2, 0.38], [2.5, 0, 2], [3.5, 0, 4], [-2.5, 0, -2], [0.5, 0, 0],
    [1234.5, -1, 1230], [1250, -2, 1200], [1350, -2, 1400], [0.1 + 0.2, 2, 0.3], [1 / 3, 4, 0.3333], [2 / 3, 4, 0.6667],
    [-0.45, 1, -0.5], [1e-320, 323, 1e-320], [5e-324, 400, 5e-324], [123.456, -400, 0], [0.28500000000000003, 2, 0.29],
    [0.285, 2, 0.28], [1.0005, 3, 1], [8.345, 2, 8.35],
  ];

  it('is Python\'s round on a double: the exact binary value, a tie to the even digit', () => {
    for (const [x, digits, expected] of python) assert.equal(fns.pythonRound(x, digits), expected, `round(${x}, ${digits})`);
    assert.ok(Object.is(fns.pythonRound(-0.4, 0), -0));
    assert.equal(fns.pythonRound(Infinity, 2), Infinity);
  });

  it('takes a literal whole number of digits (0 when left out), and booleans as 0/1', () => {
    assert.equal(evaluate('round(2.675, 2)'), 2.67);
    assert.equal(evaluate('round(2.5)'), 2);
    assert.equal(evaluate('round(1250, -2)'), 1200);
    assert.equal(evaluate('round(has_final)'), 1);
    assert.equal(evaluate('round(token_f1(answer, gold.answers), 1)'), 0.8);
    for (const bad of ['round(answer_f, ⟦1.5⟧)', 'round(answer_f, ⟦search_calls⟧)']) {
      const { found, spans } = problems(`signal answer_f = token_f1(answer, gold.answers)\nsignal S = ${bad}\nreward R { x 1 * S }\n`);
      assert.deepEqual(found, [['bad-argument', spans[0]]], bad);
    }
  });
});
