// exact_match and token_f1 follow SQuAD's official evaluation, so EM figures compare with published
// Search-R1/SQuAD numbers. The expected strings and scores below were produced by SQuAD 2.0's own
// Python (`normalize_answer`, `compute_f1`) and pasted here: the test needs no Python to run.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { exactMatch, tokenF1 } from '../../server/src/language/functions.js';
import { cachingNormalizer } from '../../server/src/language/normalizer.js';
import { answerTokens, normalizeAnswer } from '../../server/src/language/text.js';

const normalised: readonly [string, string][] = [
  ['self-taught', 'selftaught'], ['The Cat', 'cat'], ['  A  B.C.  ', 'bc'], ['U.S.A.', 'usa'], ['an apple', 'apple'],
  ['theater', 'theater'], ['the_the', 'thethe'], ['Café du Monde', 'café du monde'], ["l'amour", 'lamour'], ['1,000', '1000'],
  ['rock & roll', 'rock roll'], ['São Paulo—Brazil', 'são paulo—brazil'], ['A', ''], ['the\u00a0cat', 'cat'], ['a.b', 'ab'],
  ['Théâtre the end', 'théâtre end'], ['THE END', 'end'], ['the-end', 'theend'], ['é the', 'é'], ['x\u001cthe\u0085y', 'x y'],
  ['An\u2003answer', 'answer'], ['ANA', 'ana'], ['a1 the2 an_', 'a1 the2'], ['Ωthe', 'ωthe'], ['the\u0301', '\u0301'],
  ['ŒUVRE', 'œuvre'], ['İstanbul', 'i̇stanbul'], ['½ the', '½'], ['the\ufeffcat', '\ufeffcat'], ['\u200bthe', '\u200b'],
];

// [gold, prediction, SQuAD 2.0 F1, SQuAD EM]
const scored: readonly [string, string, number, number][] = [
  ['the Eiffel Tower', 'Eiffel tower.', 1, 1], ['self-taught painter', 'self taught painter', 0.4, 0], ['Barack Obama', 'Obama', 2 / 3, 0],
  ['New York City, NY', 'new york', 2 / 3, 0], ['the the', 'a', 1, 1], ['1,000 km', '1000 km', 1, 1], ['Lune', 'Lune river Lune', 0.5, 0],
  ['rock & roll', 'rock and roll', 0.8, 0],
];

describe('SQuAD answer normalisation', () => {
  it('is normalize_answer exactly: ASCII punctuation deleted, whole-word articles dropped, Python whitespace folded', () => {
    for (const [text, expected] of normalised) assert.equal(normalizeAnswer(text), expected, JSON.stringify(text));
  });

  it('folds whitespace as splitting on Python\'s whitespace and joining with single spaces does, on mixed texts', () => {
    // normalize_answer's last step written as Python writes it; the code folds runs in place instead.
    // eslint-disable-next-line no-control-regex -- Python counts the separators U+001C–U+001F as whitespace
    const pythonSplit = /[\t\n\v\f\r\x1c-\x1f \x85\xa0\u1680\u2000-\u200a\u2028\u2029\u202f\u205f\u3000]+/;
    const alphabet = ['a', 'the', 'an', 'x', 'É', '.', '-', ' ', ' ', '  ', '\t', '\n', '\u0085', '\u001c', '\u00a0', '\u3000', '\u200b', '\ufeff'];
    let seed = 7;
    const next = (): number => (seed = (seed * 1103515245 + 12345) % 2147483648);
    for (let n = 0; n < 3000; n++) {
      const text = Array.from({ length: next() % 12 }, () => alphabet[next() % alphabet.length]!).join('');
      const expected = text.toLowerCase().replace(/[!"#$%&'()*+,\-./:;<=>?@[\\\]^_`{|}~]/g, '')
        .replace(/(?<![\p{L}\p{N}_])(?:a|an|the)(?![\p{L}\p{N}_])/gu, ' ').split(pythonSplit).filter((w) => w.length > 0).join(' ');
      assert.equal(normalizeAnswer(text), expected, JSON.stringify(text));
    }
  });

  it('the caching normaliser an evaluation owns gives the same words, from its cache too', () => {
    const normalizer = cachingNormalizer();
    const long = `${'The word '.repeat(40)}end`;
    for (const text of [...normalised.map(([t]) => t), long]) {
      for (let round = 0; round < 2; round++) {
        assert.equal(normalizer.normalize(text), normalizeAnswer(text), JSON.stringify(text));
        assert.deepEqual(normalizer.tokens(text), answerTokens(text), JSON.stringify(text));
      }
    }
  });

  it('scores exact_match and token_f1 as SQuAD 2.0 does, empty answers included', () => {
    for (const [gold, prediction, f1, em] of scored) {
      assert.ok(Math.abs(tokenF1(prediction, [gold]) - f1) < 1e-12, `F1 ${gold} / ${prediction}`);
      assert.equal(exactMatch(prediction, [gold]), em, `EM ${gold} / ${prediction}`);
    }
    // Both empty after normalisation: 1; one empty: 0 (compute_f1's rule for no-answer questions).
    assert.equal(tokenF1('the', ['a']), 1);
    assert.equal(tokenF1('', ['Lune']), 0);
    assert.equal(exactMatch('', ['The']), 1);
  });
});
