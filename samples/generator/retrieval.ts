/**
 * The simulated agent's search engine: BM25 (k1 = 1.2, b = 0.75) over passage titles and texts.
 * Ties go to the lower corpus position, so a query always returns the same ids.
 */
import { type Corpus } from './corpus.js';
import { at } from './prng.js';
import { terms } from './text.js';

export interface SearchIndex {
  /** Ids of the best `k` passages for the query, best first; empty when no term matches. */
  search(query: string, k: number): string[];
}

const K1 = 1.2;
const B = 0.75;

/**
 * Terms in more passages than this are skipped at query time. Their BM25 weight is small, and on a
 * 100,000-passage corpus the common template words would otherwise dominate the cost of a query.
 * The floor keeps every term active on corpora of the shipped size.
 */
function maxPostings(passages: number): number {
  return Math.max(2000, Math.floor(passages * 0.05));
}

export function buildSearchIndex(corpus: Corpus): SearchIndex {
  const n = corpus.passages.length;
  const lengths = new Float64Array(n);
  const docsByTerm = new Map<string, number[]>();
  const freqsByTerm = new Map<string, number[]>();
  corpus.passages.forEach((passage, index) => {
    const words = terms(`${passage.title} ${passage.text}`);
    lengths[index] = words.length;
    const counts = new Map<string, number>();
    for (const word of words) counts.set(word, (counts.get(word) ?? 0) + 1);
    for (const [word, count] of counts) {
      const docs = docsByTerm.get(word);
      if (docs === undefined) {
        docsByTerm.set(word, [index]);
        freqsByTerm.set(word, [count]);
      } else {
        docs.push(index);
        freqsByTerm.get(word)?.push(count);
      }
    }
  });
  const postings = new Map<string, { docs: Int32Array; freqs: Uint16Array }>();
  for (const [word, docs] of docsByTerm) postings.set(word, { docs: Int32Array.from(docs), freqs: Uint16Array.from(freqsByTerm.get(word) ?? []) });
  let total = 0;
  for (const length of lengths) total += length;
  const averageLength = total / Math.max(1, n);
  const limit = maxPostings(n);

  // Scratch space reused by every query: scores stay zero outside `touched`.
  const scores = new Float64Array(n);
  const touched: number[] = [];

  return {
    search: (query, k) => {
      for (const word of new Set(terms(query))) {
        const list = postings.get(word);
        if (list === undefined || list.docs.length > limit) continue;
        const df = list.docs.length;
        const idf = Math.log(1 + (n - df + 0.5) / (df + 0.5));
        for (let i = 0; i < df; i++) {
          const doc = list.docs[i] ?? 0;
          const tf = list.freqs[i] ?? 0;
          const norm = tf + K1 * (1 - B + (B * (lengths[doc] ?? 0)) / averageLength);
          if (scores[doc] === 0) touched.push(doc);
          scores[doc] = (scores[doc] ?? 0) + (idf * tf * (K1 + 1)) / norm;
        }
      }
      // Keeps the best k in order; k is small, so insertion beats sorting every touched passage.
      const best: number[] = [];
      const better = (a: number, b: number): boolean => {
        const sa = scores[a] ?? 0;
        const sb = scores[b] ?? 0;
        return sa > sb || (sa === sb && a < b);
      };
      for (const doc of touched) {
        if (best.length === k && !better(doc, at(best, k - 1))) continue;
        let position = best.length < k ? best.length : k - 1;
        if (best.length < k) best.push(doc);
        while (position > 0 && better(doc, at(best, position - 1))) {
          best[position] = at(best, position - 1);
          position--;
        }
        best[position] = doc;
      }
      for (const doc of touched) scores[doc] = 0;
      touched.length = 0;
      return best.map((doc) => at(corpus.passages, doc).id);
    },
  };
}

/**
 * Memoises a search within one question: its samples, cutoffs and models repeat the same queries.
 * Results are cached at the largest cutoff and cut, which equals searching at the smaller one.
 */
export function memoisedSearch(index: SearchIndex, largestK: number): (query: string, k: number) => string[] {
  const cache = new Map<string, string[]>();
  return (query, k) => {
    let results = cache.get(query);
    if (results === undefined) {
      results = index.search(query, largestK);
      cache.set(query, results);
    }
    return results.slice(0, k);
  };
}
