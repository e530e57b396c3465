import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { buildLexicalIndex, createLexicalGenerator } from '../../../server/src/candidates/lexical.js';
import { corpusOf, none, passage, trajectory } from './fixtures.js';

// Content words (lower case, stop words and one-letter words out) of each passage's title + text:
//   p1 river thames flows through london       p2 paris capital france
//   p3 london capital england                  p4 seine flows through paris france
//   p5 baking bread home                       p6 france capital
//   p7 france (three times: counted once)
const corpus = corpusOf([
  passage('p1', 'River Thames', 'The Thames flows through London.'),
  passage('p2', 'Paris', 'Paris is the capital of France.'),
  passage('p3', 'London', 'London is the capital of England.'),
  passage('p4', 'Seine', 'The Seine flows through Paris in France.'),
  passage('p5', 'Bread', 'Baking bread at home.'),
  passage('p6', 'France', 'capital'),
  passage('p7', 'France', 'France, FRANCE!'),
]);
const index = buildLexicalIndex(corpus);

// Question words: river flows through capital france ("which", "the", "of" are stop words);
// answer: seine. Distinct shared words: p4 = seine flows through france = 4; p1 = river flows
// through = 3; p2 = capital france = 2; p6 = france capital = 2; p3 = capital = 1; p7 = france = 1;
// p5 shares nothing and is never proposed. Ties (p2/p6, p3/p7) go by corpus file order.
const question = 'Which river flows through the capital of France?';

describe('lexical generator', () => {
  it('ranks by distinct shared words, ties by corpus order, never a passage sharing none', () => {
    const generate = createLexicalGenerator(index, 8);
    assert.deepEqual(generate.candidates({ trajectory: trajectory('t', question, 'Seine'), citationIndex: 0, exclude: none }), ['p4', 'p1', 'p2', 'p6', 'p3', 'p7']);
  });

  it('reads the question alone when there is no final', () => {
    // Without "seine": p1 and p4 both share river/flows/through vs flows/through/france = 3.
    const generate = createLexicalGenerator(index, 8);
    assert.deepEqual(generate.candidates({ trajectory: trajectory('t', question, null), citationIndex: 0, exclude: none }), ['p1', 'p4', 'p2', 'p6', 'p3', 'p7']);
  });

  it('respects the budget after exclusions', () => {
    const request = { trajectory: trajectory('t', question, 'Seine'), citationIndex: 0, exclude: new Set(['p4', 'p2']) };
    assert.deepEqual(createLexicalGenerator(index, 2).candidates(request), ['p1', 'p6']);
    assert.deepEqual(createLexicalGenerator(index, 1).candidates(request), ['p1']);
    assert.deepEqual(createLexicalGenerator(index, 0).candidates(request), []);
  });

  it('shares one index between budgets and builds its own from a corpus', () => {
    const request = { trajectory: trajectory('t', question, 'Seine'), citationIndex: 0, exclude: none };
    assert.deepEqual(createLexicalGenerator(corpus, 3).candidates(request), createLexicalGenerator(index, 3).candidates(request));
    assert.equal(createLexicalGenerator(index, 3).label, 'lexical(3)');
  });

  it('gives nothing for a question without content words', () => {
    assert.deepEqual(createLexicalGenerator(index, 8).candidates({ trajectory: trajectory('t', 'Who is it?', ''), citationIndex: 0, exclude: none }), []);
  });

  it('gives the same answer on repeated queries (the shared counts are reset)', () => {
    // No memo, so every query re-counts overlaps in the shared scratch array.
    const generate = createLexicalGenerator(buildLexicalIndex(corpus, { capacity: 0 }), 8);
    const request = { trajectory: trajectory('t', question, 'Seine'), citationIndex: 0, exclude: none };
    const first = generate.candidates(request);
    generate.candidates({ trajectory: trajectory('u', 'London bread', null), citationIndex: 0, exclude: none });
    assert.deepEqual(generate.candidates(request), first);
  });
});
