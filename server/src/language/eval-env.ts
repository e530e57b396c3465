import { corpusOrder, type CorpusOrder } from '../pool/corpus-order.js';
import type { Corpus, SearchStep } from '../pool/types.js';
import type { CommandTerms } from './command-terms.js';
import { repeatedQueries } from './functions.js';
import { cachingNormalizer, type Normalization, type Normalizer } from './normalizer.js';
import { normalizeAnswer } from './text.js';

/**
 * What expressions read besides the trajectory (the audited corpus), and the caches of one
 * evaluation: they live exactly as long as the environment (one preparation on one thread) and no
 * longer; prepared edits do not keep it. The corpus's ids and normalised passages are the exception:
 * they are kept with the corpus (`corpusFacts`).
 */
export interface EvalEnv {
  readonly corpusIds: ReadonlySet<string>;
  /** The corpus's order (`pool/corpus-order.ts`): edits keep their replacement ids as places in it. */
  corpusOrder(): CorpusOrder;
  /** SQuAD normalisation that remembers recent short texts. */
  readonly normalizer: Normalizer;
  /** A named normalisation that remembers recent short texts (`normalizer` for `squad`). */
  normalizerFor(name: Normalization): Normalizer;
  /** The passage's title and text, normalised for answer matching (`normalizeAnswer`); undefined for ids outside the corpus. */
  normalizedPassage(id: string): string | undefined;
  /** `repeated_queries` of a trajectory's searches, counted once per searches array and threshold. */
  repeatedQueries(searches: readonly SearchStep[], threshold: number): number;
  /** The answers of the analysis's command terms (language/command-terms.ts); none when it reads none. */
  readonly commandTerms?: CommandTerms | undefined;
}

/** What every environment over one corpus shares: its ids and the passages normalised so far. */
interface CorpusFacts {
  readonly ids: ReadonlySet<string>;
  readonly normalized: Map<string, string>;
}

/**
 * Kept with the corpus and no longer. A passage's normalisation depends on its text alone, and an
 * editor's every re-audit that builds edits again (a changed detector or term:
 * edits/patch-features.ts) asks for the same passages as the last one did (0.3–0.5 s of a
 * 58,368-row re-audit when each run started empty). One entry per passage at most, so at most the
 * corpus's text again; a worker thread's corpus is its own copy, and so are its facts.
 */
const corpusFacts = new WeakMap<Corpus, CorpusFacts>();

function factsOf(corpus: Corpus): CorpusFacts {
  let facts = corpusFacts.get(corpus);
  if (facts === undefined) corpusFacts.set(corpus, (facts = { ids: new Set(corpus.passages.keys()), normalized: new Map() }));
  return facts;
}

/** The environment of analyses over `corpus`, with the answers of their command terms. */
export function corpusEnv(corpus: Corpus, commandTerms?: CommandTerms): EvalEnv {
  const normalizer = cachingNormalizer();
  // The other normalisations' caches, made when a metric first asks for one.
  const others = new Map<Normalization, Normalizer>();
  const { ids, normalized: passages } = factsOf(corpus);
  // Keyed weakly by the searches array: an edit that keeps the searches keeps the very same array,
  // and an entry goes when its trajectories do.
  const repeats = new WeakMap<readonly SearchStep[], Map<number, number>>();
  return {
    commandTerms,
    corpusIds: ids,
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
      // Normalised once per passage here, so the short-text cache would only hold it twice.
      const text = normalizeAnswer(`${passage.title} ${passage.text}`);
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
