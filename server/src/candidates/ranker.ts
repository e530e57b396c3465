// What the lexical and BM25 generators share once a corpus is indexed: the first ids of a query
// text's ranking, remembered for recent texts, from which each budget takes its top ids after
// exclusions.
// A pool asks the same text many times (every citation position of a trajectory, every budget
// K ∈ {1, 2, 4, 8, 16}, samples with the same question and answer), and a BM25 query costs
// milliseconds, so the memo is what keeps an audit of a large pool in seconds.

import { LRUCache } from 'lru-cache';
import type { Ranking, RankingStore } from '../inputs/ranking-cache.js';

export type { Ranking } from '../inputs/ranking-cache.js';

/** A pure ranking function: the first `limit` ids of a text's ranking (`Infinity`: all of them). */
export type RankFunction = (text: string, limit: number) => Ranking;

export interface Ranker {
  /** The first `limit` ids of the ranking for `text` that are not in `exclude`. */
  top(text: string, exclude: ReadonlySet<string>, limit: number): string[];
}

export interface RankerOptions {
  /** Distinct query texts remembered (least recently used forgotten first). */
  readonly capacity?: number;
  /** Ids remembered per text; a request that needs more ranks the text again, in full. */
  readonly prefix?: number;
  /** Prefixes kept beyond this ranker (on disk), asked before ranking and told every new one. */
  readonly store?: RankingStore;
}


/**
 * Wraps a pure ranking function with a bounded memo of each text's first `prefix` ids. The memo
 * changes no result, only how often `rank` runs, so one ranker may serve every budget.
 */
export function createRanker(rank: RankFunction, options: RankerOptions = {}): Ranker {
  const prefix = options.prefix ?? 64;
  const capacity = options.capacity ?? 4096;
  // A capacity of 0 remembers nothing (LRUCache needs a positive size).
  const memo = capacity > 0 ? new LRUCache<string, Ranking>({ max: capacity }) : undefined;

  function remembered(text: string): Ranking {
    let entry = memo?.get(text);
    if (entry !== undefined) return entry;
    entry = options.store?.get(text);
    if (entry === undefined) {
      entry = rank(text, prefix);
      options.store?.set(text, entry);
    }
    memo?.set(text, entry);
    return entry;
  }

  function take(ids: readonly string[], from: number, exclude: ReadonlySet<string>, limit: number, out: string[]): void {
    for (let i = from; i < ids.length && out.length < limit; i += 1) {
      const id = ids[i]!;
      if (!exclude.has(id)) out.push(id);
    }
  }

  return {
    top(text, exclude, limit) {
      const out: string[] = [];
      if (limit <= 0) return out;
      const entry = remembered(text);
      take(entry.ids, 0, exclude, limit, out);
      if (out.length < limit && !entry.complete) take(rank(text, Infinity).ids, entry.ids.length, exclude, limit, out);
      return out;
    },
  };
}
