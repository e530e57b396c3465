// Python's text semantics that the frameworks' reward code relies on (str.split, str.strip,
// string.punctuation, SQuAD's normalize_answer, str.count, re.findall of a tag), for the sample
// generators' independent scorers: written once from Python's definitions, not from the product.

/** Python's `string.punctuation`. */
export const punctuation = new Set('!"#$%&\'()*+,-./:;<=>?@[\\]^_`{|}~');
// Python's str.split() / str.strip() whitespace (str.isspace), \x1c-\x1f included.
const pySpace = '\\t\\n\\v\\f\\r \\x1c-\\x1f\\x85\\xa0\\u1680\\u2000-\\u200a\\u2028\\u2029\\u202f\\u205f\\u3000';
const pyWhitespace = new RegExp(`[${pySpace}]+`, 'gu');
const pyEnds = new RegExp(`^[${pySpace}]+|[${pySpace}]+$`, 'gu');

/** Python's `text.split()`. */
export function pySplit(text: string): string[] {
  return text.split(pyWhitespace).filter((w) => w !== '');
}

/** Python's `text.strip()`. */
export function pyStrip(text: string): string {
  return text.replace(pyEnds, '');
}

/** `re.sub(r"\b(a|an|the)\b", " ", text)` with Python's Unicode word characters. */
export function dropArticles(text: string): string {
  return text.replace(/(?<![\p{L}\p{N}_])(a|an|the)(?![\p{L}\p{N}_])/gu, ' ');
}

/** SQuAD's normalize_answer. */
export function squad(text: string): string {
  return pySplit(dropArticles([...text.toLowerCase()].filter((ch) => !punctuation.has(ch)).join(''))).join(' ');
}

/** Python's `text.count(part)`: non-overlapping occurrences of a literal. */
export function countOf(text: string, part: string): number {
  return text.split(part).length - 1;
}

/** Every non-greedy `<tag>…</tag>` inside, in order (`re.findall` with DOTALL). */
export function blocks(text: string, tag: string): string[] {
  return [...text.matchAll(new RegExp(`<${tag}>([\\s\\S]*?)</${tag}>`, 'gu'))].map((m) => m[1] ?? '');
}

/** `sum((Counter(prediction) & Counter(gold)).values())`: the tokens the two lists share, repeats counted. */
export function sharedTokens(prediction: readonly string[], gold: readonly string[]): number {
  const counts = new Map<string, number>();
  for (const w of gold) counts.set(w, (counts.get(w) ?? 0) + 1);
  let same = 0;
  for (const w of prediction) {
    const left = counts.get(w) ?? 0;
    if (left > 0) {
      same++;
      counts.set(w, left - 1);
    }
  }
  return same;
}
