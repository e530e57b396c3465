// A corpus's passages numbered in file order: the order of `corpus.passages`, which a structured
// clone keeps, so every thread that holds the corpus numbers it alike. Edits keep their replacement
// ids as these places, the ranking cache keeps its rankings as them, and threads exchange both as
// typed arrays of them.
import type { Corpus } from './types.js';

/** The corpus's ids in order, and each id's place in it. */
export interface CorpusOrder {
  readonly ids: readonly string[];
  readonly places: ReadonlyMap<string, number>;
}

// Weak, so an order lives exactly as long as its corpus: the editor keeps a corpus across audits
// (the input cache) and its ranking stores and evaluation environments share one order.
const orders = new WeakMap<Corpus, CorpusOrder>();

/** The order of `corpus`, made on first use and kept while the corpus is. */
export function corpusOrder(corpus: Corpus): CorpusOrder {
  let order = orders.get(corpus);
  if (order === undefined) {
    const ids = [...corpus.passages.keys()];
    orders.set(corpus, (order = { ids, places: new Map(ids.map((id, place) => [id, place])) }));
  }
  return order;
}
