// What the lexical and BM25 generators share once a corpus is indexed: a full ranking per query
// text, remembered for recent texts, from which each budget takes its top ids after exclusions.
// A pool asks the same text many times (every citation position of a trajectory, every budget
// K ∈ {1, 2, 4, 8, 16}, samples with the same question and answer), and a BM25 query costs
// milliseconds, so the memo is what keeps an audit of a large pool in seconds.

import type { RankingStore, Remembered } from '../../inputs/ranking-cache.js';

export interface Ranker {
  /** The first `limit` ids of the ranking for `text` that are not in `exclude`. */
  top(text: string, exclude: ReadonlySet<string>, limit: number): string[];
}

export interface RankerOptions {
  /** Distinct query texts remembered (least recently used forgotten first). */
  readonly capacity?: number;
  /** Ids remembered per text; a request that needs more re-ranks the text. */
  readonly prefix?: number;
  /** Prefixes kept beyond this ranker (on disk), asked before ranking and told every new one. */
  readonly store?: RankingStore;
}


/**
 * Wraps a pure ranking function (text → every matching id, best first) with a bounded memo. The
 * memo changes no result, only how often `rankAll` runs, so one ranker may serve every budget.
 */
export function createRanker(rankAll: (text: string) => readonly string[], options: RankerOptions = {}): Ranker {
  const capacity = options.capacity ?? 4096;
  const prefix = options.prefix ?? 64;
  const memo = new Map<string, Remembered>();

  function remembered(text: string): { entry: Remembered; full: readonly string[] | undefined } {
    const known = memo.get(text);
    if (known !== undefined) {
      // Map order is insertion order: re-inserting marks the text as recently used.
      memo.delete(text);
      memo.set(text, known);
      return { entry: known, full: undefined };
    }
    let entry = options.store?.get(text);
    let full: readonly string[] | undefined;
    if (entry === undefined) {
      full = rankAll(text);
      entry = { ids: full.length <= prefix ? full : full.slice(0, prefix), complete: full.length <= prefix };
      options.store?.set(text, entry);
    }
    memo.set(text, entry);
    if (memo.size > capacity) {
      const oldest = memo.keys().next();
      if (oldest.done !== true) memo.delete(oldest.value);
    }
    return { entry, full };
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
      const { entry, full } = remembered(text);
      take(entry.ids, 0, exclude, limit, out);
      if (out.length < limit && !entry.complete) take(full ?? rankAll(text), entry.ids.length, exclude, limit, out);
      return out;
    },
  };
}
