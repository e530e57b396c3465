// Text normalisation shared by the answer metrics and the candidate generators: pure functions;
// the caching normaliser an evaluation owns is in normalizer.ts.

// SQuAD's normalize_answer, step for step: lower case; delete every character of Python's
// string.punctuation (ASCII only: "self-taught" → "selftaught"); replace the articles a, an, the
// standing as whole words (Python's Unicode \b: letters, digits and _ are word characters) by a
// space; split on what Python's str.split() calls whitespace and join with single spaces.
const asciiPunctuation = /[!"#$%&'()*+,\-./:;<=>?@[\\\]^_`{|}~]/g;
const article = /(?<![\p{L}\p{N}_])(?:a|an|the)(?![\p{L}\p{N}_])/gu;
// eslint-disable-next-line no-control-regex -- Python counts the separators U+001C–U+001F as whitespace
const pythonWhitespace = /[\t\n\v\f\r\x1c-\x1f \x85\xa0\u1680\u2000-\u200a\u2028\u2029\u202f\u205f\u3000]+/g;
// eslint-disable-next-line no-control-regex -- as above, without the plain space
const otherWhitespace = /[\t\n\v\f\r\x1c-\x1f\x85\xa0\u1680\u2000-\u200a\u2028\u2029\u202f\u205f\u3000]/;
const spaces = / {2,}/g;

/** SQuAD's answer normalisation (its `normalize_answer`): lower case, ASCII punctuation deleted, articles dropped, whitespace folded. */
export function normalizeAnswer(text: string): string {
  return foldWhitespace(text.toLowerCase().replace(asciiPunctuation, '').replace(article, ' '));
}

// The two variants some projects use instead (docs/language.md, "Normalisations"): punctuation
// becomes a space rather than vanishing, so "self-taught" is two words. R1-Searcher's also counts
// the quotes ‘ ’ ´ as punctuation and keeps SQuAD's article rule; DeepResearcher's and ASearcher's
// keep the articles. Python applies the article rule after the punctuation, on the lower-case text.
const r1SearcherPunctuation = /[!"#$%&'()*+,\-./:;<=>?@[\\\]^_`{|}~\u2018\u2019\u00b4]/g;

/** Python's `" ".join(text.split())`: whitespace runs folded into single spaces, the ends trimmed. */
function foldWhitespace(text: string): string {
  // Most texts have no whitespace but plain spaces, whose runs fold several times faster than the
  // whole class's: a worker normalises every corpus passage an edit cites (docs/performance.md).
  const folded = otherWhitespace.test(text) ? text.replace(pythonWhitespace, ' ') : text.replace(spaces, ' ');
  const from = folded.startsWith(' ') ? 1 : 0;
  const to = folded.length > from && folded.endsWith(' ') ? folded.length - 1 : folded.length;
  return folded.slice(from, to);
}

/** `"spaced"`: lower case, each ASCII punctuation character a space, whitespace folded; articles kept (DeepResearcher, ASearcher's F1). */
export function normalizeSpaced(text: string): string {
  return foldWhitespace(text.toLowerCase().replace(asciiPunctuation, ' '));
}

/** `"squad_spaced"`: SQuAD's steps with punctuation (ASCII and ‘ ’ ´) turned into spaces, not deleted (R1-Searcher). */
export function normalizeSquadSpaced(text: string): string {
  return foldWhitespace(text.toLowerCase().replace(r1SearcherPunctuation, ' ').replace(article, ' '));
}

/** The normalised words of a text (SQuAD normalisation, split on spaces). */
export function answerTokens(text: string): string[] {
  const normalized = normalizeAnswer(text);
  return normalized.length === 0 ? [] : normalized.split(' ');
}

/** Words that carry no topic, left out when ranking passages by overlap. */
export const stopWords: ReadonlySet<string> = new Set(
  ('a an and are as at be been by did do does for from had has have he her his how in into is it its of on or ' +
    'she than that the their there they this to was were what when where which who whom whose why will with').split(' '),
);

/** Lower-case word tokens without stop words: the vocabulary of the overlap generators. */
export function contentWords(text: string): string[] {
  return text
    .toLowerCase()
    .split(/[^\p{L}\p{N}]+/u)
    .filter((w) => w.length > 1 && !stopWords.has(w));
}
