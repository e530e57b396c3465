// The paper's primary laundering generator: passages ranked by how many distinct content words of
// the visible question and answer they contain. An inverted index, built once per corpus, lets a
// query touch only the passages that share a word with it.
import type { Corpus } from '../pool/types.js';
import { contentWords } from '../language/text.js';
import { budgetCount, visibleQueryText, type CandidateGenerator, type CandidateRequest } from './generator.js';
import { createRanker, type Ranker, type RankerOptions, type Ranking } from './ranker.js';

export interface LexicalIndex {
  /** Passage ids in corpus file order; a passage's position here breaks ties. */
  readonly ids: readonly string[];
  /** Content word → positions (ascending) of the passages whose title or text contains it. */
  readonly postings: ReadonlyMap<string, readonly number[]>;
  readonly ranker: Ranker;
  /** The first `limit` passages sharing a word with a text, best first, unremembered (the ranker's memo wraps this). */
  readonly rank: (text: string, limit: number) => Ranking;
}

/** Builds the word → passages index over title and text. One index serves every budget. */
export function buildLexicalIndex(corpus: Corpus, options: RankerOptions = {}): LexicalIndex {
  const ids: string[] = [];
  const postings = new Map<string, number[]>();
  for (const passage of corpus.passages.values()) {
    const position = ids.length;
    ids.push(passage.id);
    for (const word of new Set(contentWords(`${passage.title} ${passage.text}`))) {
      const list = postings.get(word);
      if (list === undefined) postings.set(word, [position]);
      else list.push(position);
    }
  }
  // Overlap counts per passage, reused by every query and left all-zero after each, so a query
  // costs the postings it reads rather than the corpus size. Safe because ranking is synchronous.
  const counts = new Int32Array(ids.length);

  /** The first `limit` passages sharing a word with `text`: most distinct shared words first, then file order. */
  function rank(text: string, limit: number): Ranking {
    const touched: number[] = [];
    for (const word of new Set(contentWords(text))) {
      for (const position of postings.get(word) ?? []) {
        if (counts[position] === 0) touched.push(position);
        counts[position] = (counts[position] ?? 0) + 1;
      }
    }
    touched.sort((a, b) => (counts[b] ?? 0) - (counts[a] ?? 0) || a - b);
    for (const position of touched) counts[position] = 0;
    const kept = touched.length > limit ? touched.slice(0, limit) : touched;
    return { ids: kept.map((position) => ids[position]!), complete: touched.length <= limit };
  }

  return { ids, postings, ranker: createRanker(rank, options), rank };
}

/**
 * Up to `budget` passages by word overlap with the question and answer, excluding `exclude`.
 * Pass a built index to share it between budgets; a corpus builds a private one. The candidates
 * at budget K are the first K of those at any larger budget.
 */
export function createLexicalGenerator(source: { readonly ranker: Ranker } | Corpus, budget: number): CandidateGenerator {
  const index = 'passages' in source ? buildLexicalIndex(source) : source;
  const limit = budgetCount(budget);
  return {
    label: `lexical(${budget})`,
    candidates(request: CandidateRequest): readonly string[] {
      return index.ranker.top(visibleQueryText(request.trajectory), request.exclude, limit);
    },
  };
}
