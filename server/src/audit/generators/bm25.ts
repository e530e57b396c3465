// The paper's second visible generator: BM25 over passage title and text, queried with the
// question and answer. Scoring is MiniSearch's (BM25+); only the ranking order is ours.
import MiniSearch from 'minisearch';
import type { Corpus } from '../../pool/types.js';
import { contentWords } from '../../reward/text.js';
import { budgetCount, visibleQueryText, type CandidateGenerator, type CandidateRequest } from './generator.js';
import { createRanker, type Ranker, type RankerOptions } from './ranker.js';

interface IndexedPassage {
  readonly id: string;
  readonly title: string;
  readonly text: string;
}

export interface Bm25Index {
  readonly search: MiniSearch<IndexedPassage>;
  /** Passage id → position in corpus file order, the tie-breaker between equal scores. */
  readonly order: ReadonlyMap<string, number>;
  readonly ranker: Ranker;
}

// The tokenizer is the lexical generator's (`contentWords`: lower case, letters and digits, no stop
// words, no one-letter words), so both generators see one vocabulary; terms arrive normalised.
const tokenize = (text: string): string[] => contentWords(text);
const processTerm = (term: string): string => term;

/** Every passage sharing a term with `text`, by BM25 score, best first; equal scores keep file order. */
export function rankBm25(search: MiniSearch<IndexedPassage>, order: ReadonlyMap<string, number>, text: string): string[] {
  // MiniSearch returns results by descending score; only runs of equal scores need ordering, and
  // sorting just those keeps a query that matches most of the corpus from paying for a full sort.
  const results = search.search(text, { combineWith: 'OR' });
  const ids = results.map((r) => String(r.id));
  const position = (id: string): number => order.get(id) ?? Number.MAX_SAFE_INTEGER;
  let start = 0;
  for (let i = 1; i <= results.length; i += 1) {
    if (i < results.length && results[i]!.score === results[start]!.score) continue;
    if (i - start > 1) {
      const run = ids.slice(start, i).sort((a, b) => position(a) - position(b));
      for (let j = 0; j < run.length; j += 1) ids[start + j] = run[j]!;
    }
    start = i;
  }
  return ids;
}

/** Builds the MiniSearch index over title and text: the expensive part, shared by every budget. */
export function buildBm25Index(corpus: Corpus, options: RankerOptions = {}): Bm25Index {
  const search = new MiniSearch<IndexedPassage>({
    idField: 'id',
    fields: ['title', 'text'],
    storeFields: [],
    tokenize,
    processTerm,
    searchOptions: { combineWith: 'OR', prefix: false, fuzzy: false, tokenize, processTerm },
  });
  const order = new Map<string, number>();
  for (const passage of corpus.passages.values()) {
    order.set(passage.id, order.size);
    search.add({ id: passage.id, title: passage.title, text: passage.text });
  }
  return { search, order, ranker: createRanker((text) => rankBm25(search, order, text), options) };
}

/**
 * Up to `budget` passages by BM25 against the question and answer, excluding `exclude`.
 * Pass a built index to share it between budgets; a corpus builds a private one. The candidates
 * at budget K are the first K of those at any larger budget.
 */
export function createBm25Generator(source: Bm25Index | Corpus, budget: number): CandidateGenerator {
  const index = 'passages' in source ? buildBm25Index(source) : source;
  const limit = budgetCount(budget);
  return {
    label: `bm25(${budget})`,
    candidates(request: CandidateRequest): readonly string[] {
      return index.ranker.top(visibleQueryText(request.trajectory), request.exclude, limit);
    },
  };
}
