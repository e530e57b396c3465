// The paper's second visible generator: BM25 over passage title and text, queried with the
// question and answer. Scoring is MiniSearch's (BM25+); only the ranking order is ours.
//
// Words found in very many passages are left out of the index and of queries (MiniSearch's
// `processTerm` drops them), as BM25 indexes usually drop stop words. They add little to a
// score, their inverse document frequency being near its floor, but a query that holds one
// matches most of a large corpus, and MiniSearch scores and sorts every match: on 100,000
// passages that was 180 ms a query, against under 1 ms without them (docs/performance.md).
import MiniSearch from 'minisearch';
import type { Corpus } from '../pool/types.js';
import { contentWords } from '../language/text.js';
import { budgetCount, visibleQueryText, type CandidateGenerator, type CandidateRequest } from './generator.js';
import { corpusOrder } from '../pool/corpus-order.js';
import { createRanker, type Ranker, type RankerOptions, type Ranking } from './ranker.js';

/** A passage as the index is given it: its title's and text's content words, each joined by spaces (`joinedWords`). */
interface IndexedPassage {
  readonly id: string;
  readonly title: string;
  readonly text: string;
}

export interface Bm25Index {
  readonly search: MiniSearch<IndexedPassage>;
  /** Passage id → place in corpus file order (`pool/corpus-order.ts`), the tie-breaker between equal scores. */
  readonly order: ReadonlyMap<string, number>;
  /** The words left out of the index and of queries (see `commonWords`). */
  readonly common: ReadonlySet<string>;
  readonly ranker: Ranker;
  /** The first `limit` passages sharing an indexed word with a text, best first, unremembered (the ranker's memo wraps this). */
  readonly rank: (text: string, limit: number) => Ranking;
}

/** A word is common when it is in more than this share of the passages… */
export const commonWordShare = 0.01;
/** …and in more than this many, so a corpus of a few thousand passages keeps nearly every word. */
export const commonWordMinimum = 1000;

// The tokenizer is the lexical generator's (`contentWords`: lower case, letters and digits, no stop
// words, no one-letter words), so both generators see one vocabulary; terms arrive normalised.
const tokenize = (text: string): string[] => contentWords(text);

// A passage's fields are tokenised once, for the common words and for the index: the index is given
// them as content words joined by single spaces, which splitting on a space gives back exactly
// (a content word holds no space and is never empty). Tokenising twice was a quarter of a build.
const joinedWords = (text: string): string => tokenize(text).join(' ');
const splitWords = (joined: string): string[] => (joined.length === 0 ? [] : joined.split(' '));

/**
 * The words in more than `commonWordShare` of the passages and more than `commonWordMinimum` of
 * them, of passages whose fields are their words joined (`joinedWords`).
 */
function commonWords(passages: readonly IndexedPassage[]): Set<string> {
  const documentFrequency = new Map<string, number>();
  let count = 0;
  for (const passage of passages) {
    count += 1;
    for (const word of new Set([...splitWords(passage.title), ...splitWords(passage.text)])) {
      documentFrequency.set(word, (documentFrequency.get(word) ?? 0) + 1);
    }
  }
  const threshold = Math.max(commonWordMinimum, commonWordShare * count);
  const common = new Set<string>();
  for (const [word, frequency] of documentFrequency) if (frequency > threshold) common.add(word);
  return common;
}

/**
 * The first `limit` passages sharing a term with `text`, by BM25 score, best first; equal scores
 * keep file order. `complete` when they are every such passage.
 */
export function rankBm25(search: MiniSearch<IndexedPassage>, order: ReadonlyMap<string, number>, text: string, limit = Infinity): Ranking {
  // MiniSearch returns every match by descending score. Only runs of equal scores need ordering, and
  // only up to the limit: the run that holds the last wanted place is ordered whole, so the first
  // `limit` ids are those of the full ranking. Ordering every run of a query's few hundred matches
  // cost a fifth of its time, and the ranker keeps only a prefix.
  const results = search.search(text, { combineWith: 'OR' });
  let end = Math.min(limit, results.length);
  while (end > 0 && end < results.length && results[end]!.score === results[end - 1]!.score) end += 1;
  const ids = new Array<string>(end);
  for (let i = 0; i < end; i += 1) ids[i] = String(results[i]!.id);
  const position = (id: string): number => order.get(id) ?? Number.MAX_SAFE_INTEGER;
  let start = 0;
  for (let i = 1; i <= end; i += 1) {
    if (i < end && results[i]!.score === results[start]!.score) continue;
    if (i - start > 1) {
      const run = ids.slice(start, i).sort((a, b) => position(a) - position(b));
      for (let j = 0; j < run.length; j += 1) ids[start + j] = run[j]!;
    }
    start = i;
  }
  if (ids.length > limit) ids.length = limit;
  return { ids, complete: results.length <= limit };
}

/** Builds the MiniSearch index over title and text: the expensive part, shared by every budget. */
export function buildBm25Index(corpus: Corpus, options: RankerOptions = {}): Bm25Index {
  const passages: IndexedPassage[] = [];
  for (const passage of corpus.passages.values()) passages.push({ id: passage.id, title: joinedWords(passage.title), text: joinedWords(passage.text) });
  const common = commonWords(passages);
  // MiniSearch drops a term for which processTerm returns null, in documents and queries alike.
  const processTerm = (term: string): string | null => (common.has(term) ? null : term);
  const search = new MiniSearch<IndexedPassage>({
    idField: 'id',
    fields: ['title', 'text'],
    storeFields: [],
    tokenize: splitWords,
    processTerm,
    searchOptions: { combineWith: 'OR', prefix: false, fuzzy: false, tokenize, processTerm },
  });
  for (const passage of passages) search.add(passage);
  const order = corpusOrder(corpus).places;
  const rank = (text: string, limit: number): Ranking => rankBm25(search, order, text, limit);
  return { search, order, common, ranker: createRanker(rank, options), rank };
}

/**
 * Up to `budget` passages by BM25 against the question and answer, excluding `exclude`.
 * Pass a built index to share it between budgets; a corpus builds a private one. The candidates
 * at budget K are the first K of those at any larger budget.
 */
export function createBm25Generator(source: { readonly ranker: Ranker } | Corpus, budget: number): CandidateGenerator {
  const index = 'passages' in source ? buildBm25Index(source) : source;
  const limit = budgetCount(budget);
  return {
    label: `bm25(${budget})`,
    candidates(request: CandidateRequest): readonly string[] {
      return index.ranker.top(visibleQueryText(request.trajectory), request.exclude, limit);
    },
  };
}
