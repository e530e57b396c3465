/**
 * Text helpers shared by the retrieval, the agent, the question filter and the statistics. The answer
 * normalisation is SQuAD's (the one docs/language.md names for exact_match and grounding), so what the
 * generator calls "contains the answer" is what the audit's grounding term will see.
 */

const ASCII_PUNCTUATION = /[!"#$%&'()*+,\-./:;<=>?@[\\\]^_`{|}~]/g;
const ARTICLES = /\b(a|an|the)\b/g;

/** SQuAD normalisation: lower case, ASCII punctuation removed, articles removed, spaces folded. */
export function normalizeAnswer(text: string): string {
  return text.toLowerCase().replace(ASCII_PUNCTUATION, '').replace(ARTICLES, ' ').replace(/\s+/g, ' ').trim();
}

/** A text prepared for `holdsPhrase`: normalised, with a space on each side so phrases match whole words. */
export function matchText(text: string): string {
  return ` ${normalizeAnswer(text)} `;
}

/**
 * Whether a `matchText` holds a normalised phrase as whole words. Whole words are stricter than a
 * plain substring test, so anything this accepts a substring-based grounding accepts too.
 */
export function holdsPhrase(preparedText: string, normalizedPhrase: string): boolean {
  return normalizedPhrase !== '' && preparedText.includes(` ${normalizedPhrase} `);
}

export function exactMatch(answer: string, golds: readonly string[]): boolean {
  const normalized = normalizeAnswer(answer);
  return golds.some((gold) => normalizeAnswer(gold) === normalized);
}

const STOPWORDS = new Set(
  (
    'a an the of in on at to for from by with and or is was were are be been who whom whose what which ' +
    'where when how why that this these those it its as did does do into than then first later ' +
    'earlier more most recently same one he she his her they their also after before'
  ).split(' '),
);

/** Retrieval terms: lower-cased alphanumeric runs without stop words. */
export function terms(text: string): string[] {
  const out: string[] = [];
  for (const word of text.toLowerCase().split(/[^a-z0-9]+/)) {
    if (word !== '' && !STOPWORDS.has(word)) out.push(word);
  }
  return out;
}
