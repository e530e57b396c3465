import { corpusOrder, type CorpusOrder } from '../pool/corpus-order.js';
import type { Corpus, SearchStep } from '../pool/types.js';
import type { CommandTerms } from './command-terms.js';
import { repeatedQueries } from './functions.js';
import { cachingNormalizer, type Normalization, type Normalizer } from './normalizer.js';

/**
 * What expressions read besides the trajectory (the audited corpus), and the caches of one
 * evaluation: they live exactly as long as the environment (one preparation on one thread) and no
 * longer; prepared edits do not keep it.
 */
export interface EvalEnv {
  readonly corpusIds: ReadonlySet<string>;
  /** The corpus's order (`pool/corpus-order.ts`): edits keep their replacement ids as places in it. */
  corpusOrder(): CorpusOrder;
  /** SQuAD normalisation that remembers recent short texts. */
  readonly normalizer: Normalizer;
  /** A named normalisation that remembers recent short texts (`normalizer` for `squad`). */
  normalizerFor(name: Normalization): Normalizer;
  /** The passage's title and text, normalised for answer matching; undefined for ids outside the corpus. */
  normalizedPassage(id: string): string | undefined;
  /** `repeated_queries` of a trajectory's searches, counted once per searches array and threshold. */
  repeatedQueries(searches: readonly SearchStep[], threshold: number): number;
  /** The answers of the analysis's command terms (language/command-terms.ts); none when it reads none. */
  readonly commandTerms?: CommandTerms | undefined;
}

/** The environment of analyses over `corpus`, with the answers of their command terms. */
export function corpusEnv(corpus: Corpus, commandTerms?: CommandTerms): EvalEnv {
  const normalizer = cachingNormalizer();
  // The other normalisations' caches, made when a metric first asks for one.
  const others = new Map<Normalization, Normalizer>();
  // One entry per corpus passage at most: bounded by the corpus this environment holds anyway.
  const passages = new Map<string, string>();
  // Keyed weakly by the searches array: an edit that keeps the searches keeps the very same array,
  // and an entry goes when its trajectories do.
  const repeats = new WeakMap<readonly SearchStep[], Map<number, number>>();
  return {
    commandTerms,
    corpusIds: new Set(corpus.passages.keys()),
    corpusOrder: () => corpusOrder(corpus),
    normalizer,
    normalizerFor(name) {
      if (name === 'squad') return normalizer;
      let made = others.get(name);
      if (made === undefined) others.set(name, (made = cachingNormalizer(name)));
      return made;
    },
    normalizedPassage(id) {
      const known = passages.get(id);
      if (known !== undefined) return known;
      const passage = corpus.passages.get(id);
      if (passage === undefined) return undefined;
      const text = normalizer.normalize(`${passage.title} ${passage.text}`);
      passages.set(id, text);
      return text;
    },
    repeatedQueries(searches, threshold) {
      let byThreshold = repeats.get(searches);
      if (byThreshold === undefined) repeats.set(searches, (byThreshold = new Map()));
      let count = byThreshold.get(threshold);
      if (count === undefined) byThreshold.set(threshold, (count = repeatedQueries(searches, threshold, normalizer)));
      return count;
    },
  };
}
