// Laundering-candidate rankings kept on disk, so reopening a workspace or re-running CI does not
// rank every question again. A ranking depends only on the corpus, the generator and the query
// text (question and answer), never on the reward or the pool it came from, so entries are keyed
// by the corpus file's content hash and the generator, and hold one line per query text.
// The cache lives in the user's cache folder, never in the workspace, and is only an accelerator:
// an unreadable file or a damaged line is ignored and the ranking recomputed.
import { createHash } from 'node:crypto';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';

/** The generators whose rankings are kept. */
export type RankedGenerator = 'lexical' | 'bm25';

/** A ranking kept for one query text: its first ids, or all of them. */
export interface Remembered {
  readonly ids: readonly string[];
  /** True when `ids` is the whole ranking, not a prefix of it. */
  readonly complete: boolean;
}

/** Where a ranker keeps and finds rankings beyond its own memory. */
export interface RankingStore {
  get(text: string): Remembered | undefined;
  set(text: string, ranked: Remembered): void;
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

/** SHA-256 of a file's bytes, read in chunks; undefined when it cannot be read. */
export async function fileHash(file: string): Promise<string | undefined> {
  try {
    const hash = createHash('sha256');
    for await (const chunk of fs.createReadStream(file)) hash.update(chunk as Buffer);
    return hash.digest('hex');
  } catch {
    return undefined;
  }
}

export interface PersistentStore extends RankingStore {
  /** Appends the rankings computed since the last flush; failures are ignored. */
  flush(): void;
}

function isEntry(value: unknown): value is [string, boolean, string[]] {
  return Array.isArray(value) && value.length === 3 && typeof value[0] === 'string' && typeof value[1] === 'boolean' &&
    Array.isArray(value[2]) && (value[2] as unknown[]).every((id) => typeof id === 'string');
}

/**
 * The stored rankings of one (corpus, generator). `canonical` maps an id read from disk to the
 * corpus's own string (undefined for an id the corpus lacks, which marks the line as damaged), so
 * a large cache shares the corpus's strings instead of holding copies.
 */
export function openRankingStore(dir: string, corpusHash: string, generator: string, canonical: (id: string) => string | undefined): PersistentStore {
  const name = createHash('sha256').update(`${cacheVersion}\u0000${corpusHash}\u0000${generator}`).digest('hex');
  const file = path.join(dir, cacheVersion, `${name}.jsonl`);
  const entries = new Map<string, Remembered>();
  let text = '';
  try {
    text = fs.readFileSync(file, 'utf8');
  } catch {
    // No cache yet, or unreadable: start empty.
  }
  for (const line of text.split('\n')) {
    if (line.length === 0) continue;
    let value: unknown;
    try {
      value = JSON.parse(line);
    } catch {
      continue;
    }
    if (!isEntry(value) || entries.has(value[0])) continue;
    const ids = value[2].map(canonical);
    if (ids.some((id) => id === undefined)) continue;
    entries.set(value[0], { ids: ids as string[], complete: value[1] });
  }
  let pending: string[] = [];
  return {
    get: (query) => entries.get(query),
    set(query, ranked) {
      entries.set(query, ranked);
      pending.push(JSON.stringify([query, ranked.complete, ranked.ids]));
    },
    flush() {
      if (pending.length === 0) return;
      const lines = `${pending.join('\n')}\n`;
      pending = [];
      try {
        fs.mkdirSync(path.dirname(file), { recursive: true });
        // One append per flush: a crash leaves at most one partial last line, which loading skips.
        fs.appendFileSync(file, lines);
      } catch {
        // A read-only or full disk only costs the next run the ranking time.
      }
    },
  };
}
