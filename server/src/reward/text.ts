// Text normalisation shared by the answer metrics and the candidate generators.

const articles = new Set(['a', 'an', 'the']);

// An audit normalises the same short texts (an answer, a gold answer, a query) once per edit of
// a trajectory, and a training pool has a million edits: short texts are remembered, and the
// memo is emptied when full rather than tracking use, which is enough for texts that repeat nearby.
const memoLimit = 1 << 16;
const memoTextLength = 256;
const normalizedMemo = new Map<string, string>();
const tokensMemo = new Map<string, readonly string[]>();

function remember<T>(memo: Map<string, T>, text: string, compute: (text: string) => T): T {
  if (text.length > memoTextLength) return compute(text);
  let value = memo.get(text);
  if (value === undefined) {
    if (memo.size >= memoLimit) memo.clear();
    memo.set(text, (value = compute(text)));
  }
  return value;
}

function normalize(text: string): string {
  return text
    .toLowerCase()
    .replace(/[^\p{L}\p{N}\s]/gu, ' ')
    .split(/\s+/)
    .filter((w) => w.length > 0 && !articles.has(w))
    .join(' ');
}

/** SQuAD answer normalisation: lower case, no punctuation, no articles, single spaces. */
export function normalizeAnswer(text: string): string {
  return remember(normalizedMemo, text, normalize);
}

/** The normalised tokens of a text (SQuAD normalisation, split on spaces); shared, never to be changed. */
export function answerTokens(text: string): readonly string[] {
  return remember(tokensMemo, text, (t) => {
    const normalized = normalizeAnswer(t);
    return normalized.length === 0 ? [] : normalized.split(' ');
  });
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
