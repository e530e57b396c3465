// Text normalisation shared by the answer metrics and the candidate generators.

const articles = new Set(['a', 'an', 'the']);

/** SQuAD answer normalisation: lower case, no punctuation, no articles, single spaces. */
export function normalizeAnswer(text: string): string {
  return text
    .toLowerCase()
    .replace(/[^\p{L}\p{N}\s]/gu, ' ')
    .split(/\s+/)
    .filter((w) => w.length > 0 && !articles.has(w))
    .join(' ');
}

/** The normalised tokens of a text (SQuAD normalisation, split on spaces). */
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
