// The stored rankings a range's query texts need, and those a worker ranks, as they cross between
// threads: one generator's rankings laid end to end as places in the corpus's order, which every
// thread has (`pool/corpus-order.ts`), and handed over without a copy. A ranking is some 60 ids, so
// a 5,000-row range's stored rankings (about 2,100 texts) were 130,000 strings for the calling
// thread to serialise and the worker to read back (docs/performance.md, Threads).
import type { PlacedRanking, RankedGenerator, Ranking } from '../inputs/ranking-cache.js';
import { idsAt, writePlaces, type CorpusOrder } from '../pool/corpus-order.js';
import { withRoom } from '../edits/edit-changes.js';

/** One generator's rankings: text `t`'s places are `places[starts[t]]` up to `places[starts[t + 1]]`. */
export interface RankingsOnWire {
  readonly generator: RankedGenerator;
  readonly texts: readonly string[];
  /** 1 where the text's places are its whole ranking, 0 where they are its first ids. */
  readonly complete: Uint8Array;
  readonly starts: Int32Array;
  readonly places: Int32Array;
}

/** Collects one generator's rankings for sending. */
export class RankingsPacker {
  private texts: string[] = [];
  private complete: number[] = [];
  private starts: number[] = [0];
  private places = new Int32Array(4096);
  private count = 0;

  constructor(
    readonly generator: RankedGenerator,
    private readonly order: CorpusOrder,
  ) {}

  get size(): number {
    return this.texts.length;
  }

  /** Adds a ranking kept as places in the same order as this packer's. */
  addPlaces(text: string, ranked: PlacedRanking): void {
    this.places = withRoom(this.places, this.count + ranked.places.length);
    this.places.set(ranked.places, this.count);
    this.record(text, ranked.places.length, ranked.complete);
  }

  /**
   * Adds a ranking; false, adding nothing, when it names an id outside the corpus (a ranker ranks
   * the corpus only, so such an entry is not sent and the receiver ranks the text again).
   */
  add(text: string, ranked: Ranking): boolean {
    this.places = withRoom(this.places, this.count + ranked.ids.length);
    if (!writePlaces(this.order, ranked.ids, this.places, this.count)) return false;
    this.record(text, ranked.ids.length, ranked.complete);
    return true;
  }

  private record(text: string, length: number, complete: boolean): void {
    this.count += length;
    this.texts.push(text);
    this.complete.push(complete ? 1 : 0);
    this.starts.push(this.count);
  }

  /** The rankings added since the last `take`, which starts collecting anew. */
  take(): RankingsOnWire {
    const wire = { generator: this.generator, texts: this.texts, complete: Uint8Array.from(this.complete), starts: Int32Array.from(this.starts), places: this.places.slice(0, this.count) };
    this.texts = [];
    this.complete = [];
    this.starts = [0];
    this.count = 0;
    return wire;
  }
}

/** The buffers of `wires`, to hand over without a copy. */
export function rankingBuffers(wires: readonly RankingsOnWire[]): ArrayBuffer[] {
  return wires.flatMap((w) => [w.complete.buffer, w.starts.buffer, w.places.buffer] as ArrayBuffer[]);
}

/** Calls `each` with every ranking of `wire`, its ids this thread's strings for the corpus's ids. */
export function unpackRankings(wire: RankingsOnWire, ids: readonly string[], each: (text: string, ranked: Ranking) => void): void {
  wire.texts.forEach((text, t) => each(text, { ids: idsAt(ids, wire.places, wire.starts[t]!, wire.starts[t + 1]!), complete: wire.complete[t] === 1 }));
}
