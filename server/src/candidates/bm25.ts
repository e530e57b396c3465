// The paper's second visible generator: BM25 over passage title and text, queried with the
// question and answer. Scoring is MiniSearch's (BM25+); only the ranking order is ours.
//
// Words found in very many passages are left out of the index and of queries (MiniSearch's
// `processTerm` drops them), as BM25 indexes usually drop stop words. They add little to a
// score, their inverse document frequency being near its floor, but a query that holds one
// matches most of a large corpus, and MiniSearch scores and sorts every match: on 100,000
// passages that was 180 ms a query, against under 1 ms without them (docs/performance.md).
import MiniSearch, { type Options } from 'minisearch';
import type { Corpus } from '../pool/types.js';
import { contentWords } from '../language/text.js';
import { budgetCount, visibleQueryText, type CandidateGenerator, type CandidateRequest } from './generator.js';
import { corpusOrder } from '../pool/corpus-order.js';
import { createRanker, type Ranker, type RankerOptions, type Ranking } from './ranker.js';
import type { StoredIndex } from '../inputs/index-cache.js';

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

/** MiniSearch's options for an index that leaves `common` out, as it was built and as it is loaded. */
function searchOptions(common: ReadonlySet<string>): Options<IndexedPassage> {
  // MiniSearch drops a term for which processTerm returns null, in documents and queries alike.
  const processTerm = (term: string): string | null => (common.has(term) ? null : term);
  return {
    idField: 'id',
    fields: ['title', 'text'],
    storeFields: [],
    tokenize: splitWords,
    processTerm,
    searchOptions: { combineWith: 'OR', prefix: false, fuzzy: false, tokenize, processTerm },
  };
}

function indexOf(corpus: Corpus, search: MiniSearch<IndexedPassage>, common: ReadonlySet<string>, options: RankerOptions): Bm25Index {
  const order = corpusOrder(corpus).places;
  const rank = (text: string, limit: number): Ranking => rankBm25(search, order, text, limit);
  return { search, order, common, ranker: createRanker(rank, options), rank };
}

/** Builds the MiniSearch index over title and text: the expensive part, shared by every budget. */
export function buildBm25Index(corpus: Corpus, options: RankerOptions = {}): Bm25Index {
  const passages: IndexedPassage[] = [];
  for (const passage of corpus.passages.values()) passages.push({ id: passage.id, title: joinedWords(passage.title), text: joinedWords(passage.text) });
  const common = commonWords(passages);
  const search = new MiniSearch<IndexedPassage>(searchOptions(common));
  for (const passage of passages) search.add(passage);
  return indexOf(corpus, search, common, options);
}

/** An index as it is kept on disk and sent to threads (inputs/index-cache.ts). */
export function storedBm25Index(index: Bm25Index): StoredIndex {
  return { common: [...index.common], search: index.search.toJSON() };
}

/**
 * The index `stored` holds, over `corpus`, whose content it was built from (the store is keyed by
 * it): the same rankings as building it, score for score. Throws when MiniSearch cannot read it.
 */
export function loadedBm25Index(corpus: Corpus, stored: StoredIndex, options: RankerOptions = {}): Bm25Index {
  const common = new Set(stored.common);
  const search = MiniSearch.loadJS<IndexedPassage>(stored.search as Parameters<typeof MiniSearch.loadJS>[0], searchOptions(common));
  return indexOf(corpus, search, common, options);
}

/**
 * The corpus's index from `stored` when it can be read, else built, and then given to `keep` (the
 * disk cache) so the next run loads it. One per corpus and run: the threads of a run are sent the
 * one the calling thread has (threads/parallel-prepare.ts).
 */
export function bm25IndexOf(corpus: Corpus, stored: StoredIndex | undefined, keep?: (index: StoredIndex) => void): Bm25Index {
  if (stored !== undefined) {
    try {
      return loadedBm25Index(corpus, stored);
    } catch {
      // Written by another MiniSearch, or damaged past what the store's check sees: built again.
    }
  }
  const index = buildBm25Index(corpus);
  keep?.(storedBm25Index(index));
  return index;
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
