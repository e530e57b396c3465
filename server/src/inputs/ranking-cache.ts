// Laundering-candidate rankings kept on disk, so reopening a workspace or re-running CI does not
// rank every question again. A ranking depends only on the corpus, the generator and the query
// text (question and answer), never on the reward or the pool it came from, so entries are keyed
// by the corpus file's content hash and the generator, and hold one line per query text.
// The cache lives in the user's cache folder, never in the workspace, and is only an accelerator:
// an unreadable file or a damaged line is ignored and the ranking recomputed, and a folder that
// cannot be made is skipped with a warning. It is used only in trusted workspaces (and the CLI):
// an untrusted spec must not read or write anything outside its workspace.
import { createHash } from 'node:crypto';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { maxInputBytes } from './input-limits.js';
import { openInput, readOpened, UnreadableInput, type InputAccess } from './open-input.js';
import { idsAt, writePlaces, type CorpusOrder } from '../pool/corpus-order.js';
import { WorkspaceTrust } from './trust.js';

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

/** Bumped whenever a generator's ranking for the same corpus and text could change. */
const cacheVersion = 'rankings-v1';

/** `HERALD_CACHE_DIR`, else `$XDG_CACHE_HOME/herald`, else `~/.cache/herald`. */
export function defaultCacheDir(env: NodeJS.ProcessEnv = process.env): string {
  const explicit = env['HERALD_CACHE_DIR'];
  if (explicit !== undefined && explicit.length > 0) return path.resolve(explicit);
  const xdg = env['XDG_CACHE_HOME'];
  if (xdg !== undefined && path.isAbsolute(xdg)) return path.join(xdg, 'herald');
  return path.join(os.homedir(), '.cache', 'herald');
}

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

/** Opens the cache's own files: any size a corpus's rankings reach, never a FIFO or device. */
const cacheFileAccess: InputAccess = { trust: WorkspaceTrust.everything, maxBytes: 4 * maxInputBytes, limitName: 'for a ranking cache file' };

function errorCode(error: unknown): string {
  return error instanceof Error && 'code' in error && typeof error.code === 'string' ? error.code : String(error);
}

/**
 * Makes the cache's folder under `dir` one level at a time (Node's recursive mkdir loops forever
 * where the kernel answers ENOENT for a parent that exists, as under /proc). Undefined when the
 * folder is ready to write in; otherwise why not, for the one warning that skips the cache.
 */
export function prepareCacheFolder(dir: string): string | undefined {
  const folder = path.join(dir, cacheVersion);
  const missing: string[] = [];
  for (let at = folder; ; at = path.dirname(at)) {
    try {
      if (!fs.statSync(at).isDirectory()) return `${at} is not a folder`;
      break;
    } catch (error) {
      // ENOTDIR: a part of the path is a file, which the walk up then names.
      const absent = errorCode(error) === 'ENOENT' || errorCode(error) === 'ENOTDIR';
      if (!absent || path.dirname(at) === at) return `${at} cannot be read (${errorCode(error)})`;
      missing.unshift(at);
    }
  }
  for (const at of missing) {
    try {
      fs.mkdirSync(at);
    } catch (error) {
      if (errorCode(error) !== 'EEXIST') return `the folder ${at} cannot be made (${errorCode(error)})`;
    }
  }
  try {
    fs.accessSync(folder, fs.constants.W_OK);
    return undefined;
  } catch (error) {
    return `${folder} is not writable (${errorCode(error)})`;
  }
}

// O_NONBLOCK: a FIFO left where a cache file belongs fails at once (ENXIO) instead of waiting for a reader.
const appendFlags = fs.constants.O_WRONLY | fs.constants.O_APPEND | fs.constants.O_CREAT | (fs.constants.O_NONBLOCK ?? 0);

/** Appends to a regular file only; failures are the caller's to ignore. */
function appendRegular(file: string, text: string): void {
  const fd = fs.openSync(file, appendFlags, 0o644);
  try {
    if (!fs.fstatSync(fd).isFile()) throw new UnreadableInput('not a regular file');
    fs.writeSync(fd, text);
  } finally {
    fs.closeSync(fd);
  }
}

function readStore(file: string): string {
  const opened = openInput(file, cacheFileAccess);
  if (!opened.ok) return '';
  try {
    return readOpened(opened, cacheFileAccess.maxBytes).toString('utf8');
  } catch {
    return '';
  }
}

export interface PersistentStore extends PlacedRankingStore {
  /** Appends the rankings computed since the last flush; failures are ignored. */
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

/**
 * The stored rankings of one (corpus, generator), kept as places in `order`, the corpus's: a line
 * that names an id the corpus lacks is damaged, and skipped.
 */
export function openRankingStore(dir: string, corpusHash: string, generator: string, order: CorpusOrder): PersistentStore {
  const name = createHash('sha256').update(`${cacheVersion}\u0000${corpusHash}\u0000${generator}`).digest('hex');
  const file = path.join(dir, cacheVersion, `${name}.jsonl`);
  const kept = new PlacedRankings(order);
  // No cache yet, or unreadable: start empty.
  for (const line of readStore(file).split('\n')) {
    if (line.length === 0) continue;
    let value: unknown;
    try {
      value = JSON.parse(line);
    } catch {
      continue;
    }
    if (!isEntry(value) || kept.has(value[0])) continue;
    kept.add(value[0], value[2], value[1]);
  }
  let pending: string[] = [];
  return {
    get(query) {
      const ranking = kept.get(query);
      return ranking === undefined ? undefined : { ids: idsAt(order.ids, ranking.places), complete: ranking.complete };
    },
    placesOf: (query) => kept.get(query),
    set(query, ranked) {
      // A ranker ranks the corpus's passages only; a ranking with any other id is not kept.
      if (!kept.add(query, ranked.ids, ranked.complete)) return;
      pending.push(JSON.stringify([query, ranked.complete, ranked.ids]));
    },
    flush() {
      if (pending.length === 0) return;
      const lines = `${pending.join('\n')}\n`;
      pending = [];
      try {
        // A folder that cannot be made is not a cache; prepareCacheFolder never loops.
        if (prepareCacheFolder(dir) !== undefined) return;
        // One append per flush: a crash leaves at most one partial last line, which loading skips.
        appendRegular(file, lines);
      } catch {
        // A read-only or full disk only costs the next run the ranking time.
      }
    },
  };
}
