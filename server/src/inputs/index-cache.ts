// A corpus's BM25 index kept on disk beside its rankings (inputs/ranking-cache.ts), so a run that
// ranks a query no earlier run ranked loads the index instead of building it: the calling thread
// and every worker it sends the file's bytes to (threads/parallel-prepare.ts). Keyed by the
// corpus file's content hash; only an accelerator: a file that cannot be used is ignored and the
// index built again. Stored as Node's structured-clone serialisation of the index's plain form.
import { deserialize, serialize } from 'node:v8';
import { z } from 'zod';
import { readCacheFile, sha256Hex, writeCacheFile } from './cache-folder.js';

/** Bumped whenever what an index ranks, or the file's form, could change. */
const indexVersion = 'index-v1';

/** A file larger than this is not read (a 100,000-passage corpus's index is 9 MiB). */
const maxIndexBytes = 1024 * 1024 * 1024;

/** An index as it is stored: the words its build left out, and its search structure's plain form (MiniSearch's `toJSON`). */
export interface StoredIndex {
  readonly common: readonly string[];
  readonly search: object;
}

/** One corpus's stored index: what `load` finds (undefined: none, or not usable), and `save` to keep one. */
export interface IndexStore {
  /** The corpus content hash the store is keyed by, which its bytes name (`indexOfBytes`). */
  readonly corpusHash: string;
  load(): StoredIndex | undefined;
  /** The file's bytes as they are, unchecked: what a thread is sent to load itself. */
  bytes(): Uint8Array | undefined;
  save(index: StoredIndex): void;
}

const storedSchema = z.object({ version: z.literal(indexVersion), corpus: z.string(), common: z.array(z.string()), search: z.object({}).passthrough() });

/** The name of the file, in the cache folder, of one corpus's BM25 index. */
export function indexFileName(corpusHash: string): string {
  return `${sha256Hex([indexVersion, corpusHash, 'bm25'])}.index`;
}

/** The bytes of a stored index of the corpus whose content hash is `corpus`: what `openIndexStore` writes. */
export function indexBytes(corpus: string, index: StoredIndex): Buffer {
  return serialize({ version: indexVersion, corpus, common: index.common, search: index.search });
}

/** The index in `bytes`, when they are one of this version for the corpus whose content hash is `corpus`. */
export function indexOfBytes(bytes: Uint8Array, corpus: string): StoredIndex | undefined {
  let value: unknown;
  try {
    value = deserialize(bytes);
  } catch {
    return undefined;
  }
  const parsed = storedSchema.safeParse(value);
  return parsed.success && parsed.data.corpus === corpus ? { common: parsed.data.common, search: parsed.data.search } : undefined;
}

/**
 * The stored BM25 index of one corpus under `dir`. A file that is there but cannot be used (a
 * link, not this user's…) is a miss that `onRefused` is told of; the next save replaces it.
 */
export function openIndexStore(dir: string, corpusHash: string, onRefused?: (reason: string) => void): IndexStore {
  const name = indexFileName(corpusHash);
  const bytes = (): Uint8Array | undefined => {
    const read = readCacheFile(dir, name, maxIndexBytes);
    if (read.kind === 'refused') onRefused?.(read.reason);
    return read.kind === 'found' ? read.bytes : undefined;
  };
  return {
    corpusHash,
    bytes,
    load() {
      const read = bytes();
      return read === undefined ? undefined : indexOfBytes(read, corpusHash);
    },
    save(index) {
      // A write that fails costs the next run the build.
      writeCacheFile(dir, name, [indexBytes(corpusHash, index)]);
    },
  };
}
