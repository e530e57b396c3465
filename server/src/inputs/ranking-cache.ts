// Laundering-candidate rankings kept on disk, so reopening a workspace or re-running CI does not
// rank every question again. A ranking depends only on the corpus, the generator and the query
// text (question and answer), never on the reward or the pool it came from, so entries are keyed
// by the corpus file's content hash and the generator, and hold one line per query text.
// The cache lives in the user's cache folder, never in the workspace, and is only an accelerator:
// a file that cannot be used or a damaged line is ignored and the ranking recomputed. The folder,
// and how its files are read and written (never through a link, never from a folder others can
// write), are inputs/cache-folder.ts's. It is used only in trusted workspaces (and the CLI): an
// untrusted spec must not read or write anything outside its workspace.
import { createHash } from 'node:crypto';
import * as fs from 'node:fs';
import { maxInputBytes } from './input-limits.js';
import { openInput, type InputAccess } from './open-input.js';
import { idsAt, writePlaces, type CorpusOrder } from '../pool/corpus-order.js';
import { readCacheFile, sha256Hex, writeCacheFile } from './cache-folder.js';

/** The generators whose rankings are kept. */
export const rankedGenerators = ['lexical', 'bm25'] as const;
export type RankedGenerator = (typeof rankedGenerators)[number];

/** A query text's ranking, best first: its first ids, or all of them. */
export interface Ranking {
  readonly ids: readonly string[];
  /** True when `ids` is the whole ranking, not a prefix of it. */
  readonly complete: boolean;
}

/** Where a ranker keeps and finds rankings beyond its own memory. */
export interface RankingStore {
  get(text: string): Ranking | undefined;
  set(text: string, ranked: Ranking): void;
}

/** A kept ranking as places in the corpus's order (`pool/corpus-order.ts`). */
export interface PlacedRanking {
  /** A view of the store's own array: read it, never change it. */
  readonly places: Int32Array;
  readonly complete: boolean;
}

/**
 * A store that keeps its rankings as corpus places, and gives them as such to whoever sends them
 * on. A store is opened per corpus content (its hash), and a corpus's order is its file's, so the
 * places hold for every corpus loaded from that content.
 */
export interface PlacedRankingStore extends RankingStore {
  placesOf(text: string): PlacedRanking | undefined;
}

/** Bumped whenever a generator's ranking for the same corpus and text, or the file's format, could change. */
const cacheVersion = 'rankings-v2';

/** SHA-256 of a file's bytes, read in chunks through `openInput`; undefined when it cannot be read. */
export async function fileHash(file: string, access: InputAccess): Promise<string | undefined> {
  const opened = openInput(file, access);
  if (!opened.ok) return undefined;
  try {
    const hash = createHash('sha256');
    for await (const chunk of fs.createReadStream('', { fd: opened.fd, autoClose: false })) hash.update(chunk as Buffer);
    return hash.digest('hex');
  } catch {
    return undefined;
  } finally {
    fs.closeSync(opened.fd);
  }
}

/** Any size a corpus's rankings reach. */
const maxStoreBytes = 4 * maxInputBytes;

export interface PersistentStore extends PlacedRankingStore {
  /** Writes the store anew when it gained rankings since the last flush; failures are ignored. */
  flush(): void;
}

function isEntry(value: unknown): value is [string, boolean, string[]] {
  return Array.isArray(value) && value.length === 3 && typeof value[0] === 'string' && typeof value[1] === 'boolean' &&
    Array.isArray(value[2]) && (value[2] as unknown[]).every((id) => typeof id === 'string');
}

// Places are kept in chunks of this many, each ranking whole in one chunk: a ranking is at most the
// ranker's prefix (64 ids) or, complete, the few ids a text matched.
const chunkPlaces = 1 << 18;

/**
 * Rankings as corpus places, laid end to end: 4 bytes an id, where an array of the corpus's strings
 * took 8 and an object per text more (some 420,000 texts of about 60 ids at a million rows). A text
 * maps to its entry's number, and the entry's chunk, start and length are numbers in arrays, so a
 * view of its places is made only when asked for.
 */
class PlacedRankings {
  private readonly entryOf = new Map<string, number>();
  private readonly chunks: Int32Array[] = [new Int32Array(chunkPlaces)];
  // Per entry: its chunk, where its places start there, how many, and whether they are the whole ranking.
  private readonly chunkOf: number[] = [];
  private readonly starts: number[] = [];
  private readonly lengths: number[] = [];
  private readonly complete: boolean[] = [];
  private used = 0;

  constructor(private readonly order: CorpusOrder) {}

  has(text: string): boolean {
    return this.entryOf.has(text);
  }

  /** Every kept text, in the order it was added. */
  texts(): IterableIterator<string> {
    return this.entryOf.keys();
  }

  get(text: string): PlacedRanking | undefined {
    const entry = this.entryOf.get(text);
    if (entry === undefined) return undefined;
    const start = this.starts[entry]!;
    return { places: this.chunks[this.chunkOf[entry]!]!.subarray(start, start + this.lengths[entry]!), complete: this.complete[entry]! };
  }

  /** Keeps `ids`; false, keeping nothing, when one is not a corpus id. */
  add(text: string, ids: readonly string[], complete: boolean): boolean {
    let chunk = this.chunks[this.chunks.length - 1]!;
    if (ids.length > chunk.length - this.used) {
      this.chunks.push((chunk = new Int32Array(Math.max(chunkPlaces, ids.length))));
      this.used = 0;
    }
    if (!writePlaces(this.order, ids, chunk, this.used)) return false;
    this.entryOf.set(text, this.starts.length);
    this.chunkOf.push(this.chunks.length - 1);
    this.starts.push(this.used);
    this.lengths.push(ids.length);
    this.complete.push(complete);
    this.used += ids.length;
    return true;
  }
}

// A line is `DIGEST JSON`: the SHA-256 of the store's key and the JSON, then `[text, complete, ids]`.
// The digest makes a damaged line, or one planted or copied from another store without it, a miss;
// it cannot stop someone who can write the folder, whom cache-folder.ts's checks keep out.
const digestLength = 64;
const lineDigest = (storeKey: string, json: string): string => sha256Hex([storeKey, json]);

/** The entry a line holds, when its digest is right for this store and its JSON has the shape. */
function entryOf(storeKey: string, line: string): [string, boolean, string[]] | undefined {
  if (line.length <= digestLength + 1 || line[digestLength] !== ' ') return undefined;
  const json = line.slice(digestLength + 1);
  if (lineDigest(storeKey, json) !== line.slice(0, digestLength)) return undefined;
  try {
    const value: unknown = JSON.parse(json);
    return isEntry(value) ? value : undefined;
  } catch {
    return undefined;
  }
}

// Lines are written in pieces of about this many characters: a store of a million rows' texts is
// written without ever holding it as one string.
const pieceChars = 1 << 20;

/** A store's line for `[text, complete, ids]` as JSON, with its digest. */
export function rankingLine(storeKey: string, json: string): string {
  return `${lineDigest(storeKey, json)} ${json}\n`;
}

/** The store's lines, in pieces. */
function* storeLines(storeKey: string, kept: PlacedRankings, order: CorpusOrder): Generator<string> {
  let piece = '';
  for (const text of kept.texts()) {
    const ranking = kept.get(text)!;
    piece += rankingLine(storeKey, JSON.stringify([text, ranking.complete, idsAt(order.ids, ranking.places)]));
    if (piece.length >= pieceChars) {
      yield piece;
      piece = '';
    }
  }
  if (piece.length > 0) yield piece;
}

/** What a store's file name and every line's digest are made from. */
export function storeKeyOf(corpusHash: string, generator: string): string {
  return `${cacheVersion}\u0000${corpusHash}\u0000${generator}`;
}

/** The name of the file, in the cache folder, of one (corpus, generator)'s rankings. */
export function rankingFileName(corpusHash: string, generator: string): string {
  return `${sha256Hex([storeKeyOf(corpusHash, generator)])}.jsonl`;
}

/**
 * The stored rankings of one (corpus, generator), kept as places in `order`, the corpus's: a line
 * whose digest is wrong, or that names an id the corpus lacks, is damaged, and skipped. A store
 * file that is there but cannot be used (a link, not this user's…) is a miss that `onRefused` is
 * told of, by its path, never its content; the next flush replaces it.
 */
export function openRankingStore(dir: string, corpusHash: string, generator: string, order: CorpusOrder, onRefused?: (reason: string) => void): PersistentStore {
  const storeKey = storeKeyOf(corpusHash, generator);
  const name = rankingFileName(corpusHash, generator);
  const kept = new PlacedRankings(order);
  const read = readCacheFile(dir, name, maxStoreBytes);
  if (read.kind === 'refused') onRefused?.(read.reason);
  if (read.kind === 'found') {
    for (const line of read.bytes.toString('utf8').split('\n')) {
      const entry = entryOf(storeKey, line);
      if (entry === undefined || kept.has(entry[0])) continue;
      kept.add(entry[0], entry[2], entry[1]);
    }
  }
  let changed = false;
  return {
    get(query) {
      const ranking = kept.get(query);
      return ranking === undefined ? undefined : { ids: idsAt(order.ids, ranking.places), complete: ranking.complete };
    },
    placesOf: (query) => kept.get(query),
    set(query, ranked) {
      // A ranker ranks the corpus's passages only; a ranking with any other id is not kept.
      if (kept.add(query, ranked.ids, ranked.complete)) changed = true;
    },
    flush() {
      if (!changed) return;
      changed = false;
      // The whole store, as a new file renamed into place: never appended to, so never written
      // through a link. What another process wrote since this store was opened is lost to the last
      // rename, and only costs ranking time. A write that fails costs the next run the ranking time.
      writeCacheFile(dir, name, storeLines(storeKey, kept, order));
    },
  };
}
