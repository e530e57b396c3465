import * as fs from 'node:fs';
import type { RegisteredImporter } from '../importers/registry.js';
import { openIndexStore, type IndexStore } from './index-cache.js';
import { importPool, type ImportRequest, type LoadedImport, type PoolImport } from './import-pool.js';
import { loadCandidates, loadCorpus, loadPool, type LoadedCorpus } from './loaders.js';
import { joinFiles } from './pool-link.js';
import type { CandidateList, Corpus, Loaded, Trajectory } from '../pool/types.js';
import { linkedFileAccess } from './open-input.js';
import { corpusOrder } from '../pool/corpus-order.js';
import { fileHash, openRankingStore, type PersistentStore, type RankedGenerator } from './ranking-cache.js';
import type { WorkspaceTrust } from './trust.js';

/** A file's identity for caching: its path, device and inode, size and modification time (watchers also invalidate). */
function stamp(file: string): string {
  try {
    const stat = fs.statSync(file);
    return `${file}\u0000${stat.dev}:${stat.ino}\u0000${stat.size}\u0000${stat.mtimeMs}`;
  } catch {
    return `${file}\u0000missing`;
  }
}

/** What a load gives for a file the trust rule refuses: nothing, and why (no system call on it). */
function refused<T>(file: string): Loaded<T> {
  return { items: [], issues: [], fileError: `${file}: cannot read: outside this untrusted workspace: not read` };
}

/**
 * Loaded files kept between runs (the language server's worker keeps one for its lifetime; a CLI
 * run makes a fresh one). A file is reloaded when its size or modification time changes or it is
 * invalidated by a file watcher. Every load names the trust rule it reads under: a file the rule
 * refuses is not even looked at, and a file loaded under one rule is not handed out under another.
 */
export class InputCache {
  private readonly files = new Map<string, { files: readonly string[]; stamp: string; loaded: Promise<unknown> }>();
  private readonly rankingStores = new Map<string, { hash: string; store: PersistentStore }>();

  corpus(file: string, trust: WorkspaceTrust): Promise<LoadedCorpus> {
    if (!trust.allows(file)) return Promise.resolve({ ...refused(file), corpus: { file, passages: new Map() } });
    return this.load(`corpus:${trust.key}:${file}`, file, () => loadCorpus(file, trust));
  }

  pool(file: string, name: string, trust: WorkspaceTrust): Promise<Loaded<Trajectory>> {
    if (!trust.allows(file)) return Promise.resolve(refused(file));
    return this.load(`pool:${trust.key}:${name}:${file}`, file, () => loadPool(file, name, trust));
  }

  /**
   * A pool imported from a foreign log, kept until any of its files changes (stamps), the list of
   * files changes (a glob matched one more), or the format or options do: an unchanged dump is
   * imported once. `pattern` is the link (absolute) the files came from.
   */
  importedPool(pattern: string, request: ImportRequest, importer: RegisteredImporter, source: PoolImport, trust: WorkspaceTrust): Promise<LoadedImport> {
    const refusedFile = request.files.find((file) => !trust.allows(file));
    if (refusedFile !== undefined) return Promise.resolve(refused(refusedFile));
    const key = `import:${trust.key}:${request.name}:${pattern}:${request.specDir}:${JSON.stringify([source.format, Object.entries(source.options).sort()])}`;
    return this.load(key, request.files, () => importPool(request, importer, source.options, trust));
  }

  /** The files a glob matched, each loaded (and kept) as a pool of its own, joined in their order. */
  joinedPool(pattern: string, request: ImportRequest, trust: WorkspaceTrust): Promise<Loaded<Trajectory>> {
    const key = `joined:${trust.key}:${request.name}:${pattern}:${request.specDir}`;
    return this.load(key, request.files, async () => {
      const loads = await Promise.all(request.files.map((file) => this.pool(file, request.name, trust)));
      return joinFiles(request.files, loads, request.specDir);
    });
  }

  candidateFile(file: string, trust: WorkspaceTrust): Promise<Loaded<CandidateList>> {
    if (!trust.allows(file)) return Promise.resolve(refused(file));
    return this.load(`candidates:${trust.key}:${file}`, file, () => loadCandidates(file, trust));
  }

  /**
   * The on-disk rankings of a corpus's generators under `dir`, opened once per corpus content and
   * kept, so a re-prepared audit finds what earlier runs ranked. Undefined when the corpus file
   * cannot be hashed. `onRefused` hears of a store file that is there but not used (see openRankingStore).
   */
  async rankings(dir: string, corpusFile: string, corpus: Corpus, trust: WorkspaceTrust, onRefused?: (reason: string) => void): Promise<((generator: RankedGenerator) => PersistentStore) | undefined> {
    const hash = await this.contentHash(corpusFile, trust);
    if (hash === undefined) return undefined;
    return (generator) => {
      // One store per corpus file and generator: a store for the file's old content is not asked for again.
      const key = `${dir}\u0000${corpusFile}\u0000${generator}`;
      let entry = this.rankingStores.get(key);
      if (entry?.hash !== hash) {
        entry?.store.flush();
        this.rankingStores.set(key, (entry = { hash, store: openRankingStore(dir, hash, generator, corpusOrder(corpus), onRefused) }));
      }
      return entry.store;
    };
  }

  /** The on-disk BM25 index of a corpus under `dir` (inputs/index-cache.ts); undefined when the corpus file cannot be hashed. */
  async corpusIndex(dir: string, corpusFile: string, trust: WorkspaceTrust, onRefused?: (reason: string) => void): Promise<IndexStore | undefined> {
    const hash = await this.contentHash(corpusFile, trust);
    return hash === undefined ? undefined : openIndexStore(dir, hash, onRefused);
  }

  /** A linked file's SHA-256 (kept until it changes), or undefined when the rule refuses it or it cannot be read. */
  contentHash(file: string, trust: WorkspaceTrust): Promise<string | undefined> {
    if (!trust.allows(file)) return Promise.resolve(undefined);
    return this.load(`hash:${trust.key}:${file}`, file, () => fileHash(file, linkedFileAccess(trust)));
  }

  /** Writes every ranking computed since the last flush to its store's file. */
  flushRankings(): void {
    for (const { store } of this.rankingStores.values()) store.flush();
  }

  /** Forgets files after they changed on disk. */
  invalidate(paths: readonly string[]): void {
    const touched = (file: string): boolean => paths.some((p) => file === p || file.startsWith(`${p}/`));
    for (const [key, entry] of this.files) if (entry.files.some(touched)) this.files.delete(key);
  }

  /** The stamps of the given files (loaded ones: the trust rule allowed them), for keys that must change when data changes. */
  stamps(files: readonly string[]): string {
    return files.map(stamp).join('\u0001');
  }

  private load<T>(key: string, file: string | readonly string[], load: () => Promise<T>): Promise<T> {
    const files = typeof file === 'string' ? [file] : file;
    // The list is part of the stamp: a glob that matches one more file is another load.
    const current = files.map(stamp).join('\u0001');
    const cached = this.files.get(key);
    if (cached !== undefined && cached.stamp === current) return cached.loaded as Promise<T>;
    const loaded = load();
    this.files.set(key, { files, stamp: current, loaded });
    return loaded;
  }
}
