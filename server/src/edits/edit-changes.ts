// What an attack's edits change, feature by feature, kept as the few distinct change vectors and,
// per edit, which vector is its own. An edit's change of a feature is a difference of bounded,
// mostly discrete quantities (a 0/1 detector, a count, a share of a few citations), and an
// isolated-eligible edit changes each detector by exactly what eligibility and isolation fix (its
// targets by 1, the others by 0), so the 1.2 million laundering edits of the 58,368-row benchmark
// have a few dozen distinct vectors. A margin is a function of the vector alone, so a margin pass
// sums each vector once and hands every edit its vector's double: the same double, summed the same
// way, as a pass over the edits.

/** Per edit e and feature k, the change d_k(e) = f_k(A(τ)) − f_k(τ), coded. */
export interface EditChanges {
  /** The features an edit of the run can change, ascending; every other feature's change is 0. */
  readonly columns: Int32Array;
  /** The distinct change vectors: vector v's change of feature `columns[i]` at `v * columns.length + i`. */
  readonly vectors: Float64Array;
  /** Each edit's vector. */
  readonly vectorOf: Int32Array;
}

/** Where feature k sits in a vector of `changes`, or −1 when no edit of the run can change it. */
export function slotOf(changes: EditChanges, k: number): number {
  return changes.columns.indexOf(k);
}

/** The change of feature k made by edit e. */
export function changeOf(changes: EditChanges, k: number, edit: number): number {
  const slot = slotOf(changes, k);
  return slot < 0 ? 0 : changes.vectors[changes.vectorOf[edit]! * changes.columns.length + slot]!;
}

/**
 * Feature k's change in each vector, by vector index (zeros when no edit can change it): a loop over
 * the edits reads `byVector[vectorOf[e]]`.
 */
export function featureByVector(changes: EditChanges, k: number): Float64Array {
  const slot = slotOf(changes, k);
  const width = changes.columns.length;
  return Float64Array.from({ length: vectorCount(changes) }, (_, v) => (slot < 0 ? 0 : changes.vectors[v * width + slot]!));
}

/** The number of distinct change vectors. */
export function vectorCount(changes: EditChanges): number {
  return changes.columns.length === 0 ? (changes.vectorOf.length === 0 ? 0 : 1) : changes.vectors.length / changes.columns.length;
}

/** Whether some edit changes feature k (every vector kept is some edit's). */
export function changesFeature(changes: EditChanges, k: number): boolean {
  const slot = slotOf(changes, k);
  if (slot < 0) return false;
  const width = changes.columns.length;
  for (let at = slot; at < changes.vectors.length; at += width) if (changes.vectors[at] !== 0) return true;
  return false;
}

/**
 * The distinct vectors of a run as they are met, each kept once: two vectors are the same when
 * their doubles are the same bit for bit (so 0 and −0 stay apart, as they are different doubles).
 */
export class ChangeVectorSet {
  /** The vector to look up: filled by the caller, then `index()`. */
  readonly vector: Float64Array;
  private readonly words: Uint32Array;
  private vectors: Float64Array;
  private bits: Uint32Array;
  private count = 0;
  /** Open addressing over vector indices, −1 where empty; at most half full. */
  private slots: Int32Array;

  constructor(private readonly width: number) {
    this.vector = new Float64Array(width);
    this.words = new Uint32Array(this.vector.buffer);
    this.vectors = new Float64Array(Math.max(1, width) * 16);
    this.bits = new Uint32Array(this.vectors.buffer);
    this.slots = new Int32Array(64).fill(-1);
  }

  /** The index of `vector` as it is now, added when it is new. */
  index(): number {
    const hash = hashOf(this.words, 0, this.words.length);
    const mask = this.slots.length - 1;
    for (let at = hash & mask; ; at = (at + 1) & mask) {
      const v = this.slots[at]!;
      if (v < 0) break;
      if (this.sameAs(v)) return v;
    }
    return this.add(hash);
  }

  /** The vectors met so far, end to end. */
  finish(): Float64Array {
    return this.vectors.slice(0, this.count * this.width);
  }

  private sameAs(v: number): boolean {
    const words = this.words;
    const at = v * this.width * 2;
    for (let i = 0; i < words.length; i++) if (this.bits[at + i] !== words[i]) return false;
    return true;
  }

  private add(hash: number): number {
    const v = this.count++;
    if (this.count * this.width > this.vectors.length) {
      const grown = new Float64Array(this.vectors.length * 2);
      grown.set(this.vectors);
      this.vectors = grown;
      this.bits = new Uint32Array(grown.buffer);
    }
    this.vectors.set(this.vector, v * this.width);
    if (this.count * 2 > this.slots.length) this.rehash();
    else this.place(v, hash);
    return v;
  }

  private place(v: number, hash: number): void {
    const mask = this.slots.length - 1;
    let at = hash & mask;
    while (this.slots[at]! >= 0) at = (at + 1) & mask;
    this.slots[at] = v;
  }

  private rehash(): void {
    this.slots = new Int32Array(this.slots.length * 2).fill(-1);
    const words = this.width * 2;
    for (let v = 0; v < this.count; v++) this.place(v, hashOf(this.bits, v * words, words));
  }
}

/** `array` with room for at least `count` values: itself, or a copy twice as long (per-edit arrays grow edit by edit). */
export function withRoom(array: Int32Array<ArrayBuffer>, count: number): Int32Array<ArrayBuffer> {
  if (count <= array.length) return array;
  const grown = new Int32Array(Math.max(count, array.length * 2));
  grown.set(array);
  return grown;
}

/** FNV-1a over `length` 32-bit words from `at`: a vector's doubles, bit for bit. */
function hashOf(words: Uint32Array, at: number, length: number): number {
  let hash = 0x811c9dc5;
  for (let i = at; i < at + length; i++) hash = Math.imul(hash ^ words[i]!, 0x01000193);
  return hash;
}

/**
 * The changes of the edits `edits` of `changes`, in that order, with only the vectors they use,
 * numbered in order of first use.
 */
export function selectChanges(changes: EditChanges, edits: ArrayLike<number>): EditChanges {
  return recode(changes.columns, [{ changes, edits }]);
}

/** Changes of consecutive parts (the same columns) laid end to end, each vector kept once. */
export function joinChanges(columns: Int32Array, parts: readonly EditChanges[]): EditChanges {
  if (parts.length === 1) return parts[0]!;
  return recode(columns, parts.map((changes) => ({ changes, edits: undefined })));
}

function recode(columns: Int32Array, parts: readonly { changes: EditChanges; edits: ArrayLike<number> | undefined }[]): EditChanges {
  const width = columns.length;
  const set = new ChangeVectorSet(width);
  let total = 0;
  for (const { changes, edits } of parts) total += (edits ?? changes.vectorOf).length;
  const vectorOf = new Int32Array(total);
  let at = 0;
  for (const { changes, edits } of parts) {
    // A part's own vectors are few: each is looked up once, then every edit is renumbered.
    const renumbered = new Int32Array(vectorCount(changes)).fill(-1);
    const count = (edits ?? changes.vectorOf).length;
    for (let i = 0; i < count; i++) {
      const own = changes.vectorOf[edits === undefined ? i : edits[i]!]!;
      if (renumbered[own]! < 0) {
        set.vector.set(changes.vectors.subarray(own * width, (own + 1) * width));
        renumbered[own] = set.index();
      }
      vectorOf[at++] = renumbered[own]!;
    }
  }
  return { columns, vectors: set.finish(), vectorOf };
}
