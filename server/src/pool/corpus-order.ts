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

/**
 * Writes the places of `ids` into `into` from `at`; false when one of them is not a corpus id, and
 * then what was written is to be ignored.
 */
export function writePlaces(order: CorpusOrder, ids: readonly string[], into: Int32Array, at: number): boolean {
  for (let i = 0; i < ids.length; i++) {
    const place = order.places.get(ids[i]!);
    if (place === undefined) return false;
    into[at + i] = place;
  }
  return true;
}

/** The corpus ids at `places` (of `ids`, a corpus order's ids), in order. */
export function idsAt(ids: readonly string[], places: ArrayLike<number>, from = 0, to = places.length): string[] {
  const out = new Array<string>(to - from);
  for (let i = from; i < to; i++) out[i - from] = ids[places[i]!]!;
  return out;
}
