// The passage each kept edit puts in, for a million edits: almost every one is a corpus id, kept as
// its place in the corpus's order (4 bytes an edit, where a string reference took 8 and a worker
// thread had to turn every one into a place to send it and the calling thread back). An id outside
// the corpus (a user's edit may put in a retrieved id, say) is kept as a string by edit.
import type { CorpusOrder } from '../pool/corpus-order.js';
import { withRoom } from './edit-changes.js';

/** Per edit: its place in the corpus, `none`, or `outside` (then in `others`). */
const none = -1;
const outside = -2;

export interface ReplacementIds {
  readonly places: Int32Array;
  /** The ids outside the corpus, by edit. */
  readonly others: ReadonlyMap<number, string>;
  /** The corpus's ids in order, which `places` index. */
  readonly corpusIds: readonly string[];
}

/** Edit `e`'s replacement id; undefined for an edit that puts no passage in. */
export function replacementAt(ids: ReplacementIds, e: number): string | undefined {
  const place = ids.places[e]!;
  if (place >= 0) return ids.corpusIds[place];
  return place === outside ? ids.others.get(e) : undefined;
}

/** Collects the replacement ids of edits in order. */
export class ReplacementIdsBuilder {
  private places = new Int32Array(1024);
  private readonly others = new Map<number, string>();
  private count = 0;

  constructor(private readonly order: CorpusOrder) {}

  push(id: string | undefined): void {
    this.places = withRoom(this.places, this.count + 1);
    const place = id === undefined ? none : this.order.places.get(id);
    if (place === undefined) this.others.set(this.count, id!);
    this.places[this.count++] = place ?? outside;
  }

  finish(): ReplacementIds {
    return { places: this.places.slice(0, this.count), others: this.others, corpusIds: this.order.ids };
  }
}

/** The replacement ids of `edits` (edit indices into `from`), in that order. */
export function selectReplacements(from: ReplacementIds, edits: readonly number[]): ReplacementIds {
  const places = Int32Array.from(edits, (e) => from.places[e]!);
  const others = new Map<number, string>();
  edits.forEach((e, at) => {
    if (places[at] === outside) others.set(at, from.others.get(e)!);
  });
  return { places, others, corpusIds: from.corpusIds };
}

/** Parts' replacement ids laid end to end, edit by edit. */
export class JoinedReplacementIds {
  private readonly places: Int32Array;
  private readonly others = new Map<number, string>();

  constructor(total: number, private readonly corpusIds: readonly string[]) {
    this.places = new Int32Array(total);
  }

  /** Edit `e` of `part` becomes edit `at`. */
  set(at: number, part: ReplacementIds, e: number): void {
    const place = part.places[e]!;
    this.places[at] = place;
    if (place === outside) this.others.set(at, part.others.get(e)!);
  }

  finish(): ReplacementIds {
    return { places: this.places, others: this.others, corpusIds: this.corpusIds };
  }
}
