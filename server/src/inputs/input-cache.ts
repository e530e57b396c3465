import * as fs from 'node:fs';
import { loadCandidates, loadCorpus, loadPool, type LoadedCorpus } from './loaders.js';
import type { CandidateList, Corpus, Loaded, Trajectory } from '../pool/types.js';
import { fileHash, openRankingStore, type PersistentStore, type RankedGenerator } from './ranking-cache.js';

/** A file's identity for caching: its path, size and modification time (watchers also invalidate). */
function stamp(file: string): string {
  try {
    const stat = fs.statSync(file);
    return `${file}\u0000${stat.size}\u0000${stat.mtimeMs}`;
  } catch {
    return `${file}\u0000missing`;
  }
}

/**
 * Loaded files kept between runs (the language server's worker keeps one for its lifetime; a CLI
 * run makes a fresh one). A file is reloaded when its size or modification time changes or it is
 * invalidated by a file watcher.
 */
export class InputCache {
  private readonly files = new Map<string, { file: string; stamp: string; loaded: Promise<unknown> }>();
  private readonly rankingStores = new Map<string, { hash: string; store: PersistentStore }>();

  corpus(file: string): Promise<LoadedCorpus> {
    return this.load(`corpus:${file}`, file, () => loadCorpus(file));
  }

  pool(file: string, name: string): Promise<Loaded<Trajectory>> {
    return this.load(`pool:${name}:${file}`, file, () => loadPool(file, name));
  }

  candidateFile(file: string): Promise<Loaded<CandidateList>> {
    return this.load(`candidates:${file}`, file, () => loadCandidates(file));
  }

  /**
   * The on-disk rankings of a corpus's generators under `dir`, opened once per corpus content and
   * kept, so a re-prepared audit finds what earlier runs ranked. Undefined when the corpus file
   * cannot be hashed.
   */
  async rankings(dir: string, corpusFile: string, corpus: Corpus): Promise<((generator: RankedGenerator) => PersistentStore) | undefined> {
    const hash = await this.load(`hash:${corpusFile}`, corpusFile, () => fileHash(corpusFile));
    if (hash === undefined) return undefined;
    const canonical = (id: string): string | undefined => corpus.passages.get(id)?.id;
    return (generator) => {
      // One store per corpus file and generator: a store for the file's old content is not asked for again.
      const key = `${dir}\u0000${corpusFile}\u0000${generator}`;
      let entry = this.rankingStores.get(key);
      if (entry?.hash !== hash) {
        entry?.store.flush();
        this.rankingStores.set(key, (entry = { hash, store: openRankingStore(dir, hash, generator, canonical) }));
      }
      return entry.store;
    };
  }

  /** Writes every ranking computed since the last flush to its store's file. */
  flushRankings(): void {
    for (const { store } of this.rankingStores.values()) store.flush();
  }

  /** Forgets files after they changed on disk. */
  invalidate(paths: readonly string[]): void {
    const touched = (file: string): boolean => paths.some((p) => file === p || file.startsWith(`${p}/`));
    for (const [key, entry] of this.files) if (touched(entry.file)) this.files.delete(key);
  }

  /** The stamps of the given files, for keys that must change when data changes. */
  stamps(files: readonly string[]): string {
    return files.map(stamp).join('\u0001');
  }

  private load<T>(key: string, file: string, load: () => Promise<T>): Promise<T> {
    const current = stamp(file);
    const cached = this.files.get(key);
    if (cached !== undefined && cached.stamp === current) return cached.loaded as Promise<T>;
    const loaded = load();
    this.files.set(key, { file, stamp: current, loaded });
    return loaded;
  }
}

