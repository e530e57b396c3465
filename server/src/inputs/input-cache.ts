import * as fs from 'node:fs';
import { loadCandidates, loadCorpus, loadPool, type LoadedCorpus } from './loaders.js';
import type { CandidateList, Corpus, Loaded, Trajectory } from '../pool/types.js';
import { fileHash, openRankingStore, type PersistentStore } from './ranking-cache.js';
import type { RankedGenerator } from '../edits/candidate-source.js';
import type { AuditDecl } from '../syntax/ast.js';
import type { Span } from '../problems/span.js';
import type { PreparedEdits } from '../edits/prepare.js';

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
 * Loaded files and prepared audits kept between runs. A file is reloaded when its size or
 * modification time changes or it is invalidated; a prepared audit is reused while the spec's
 * structure and the data it read are the same, so a weight edit re-runs arithmetic only.
 */
export class AuditCache {
  private readonly files = new Map<string, { file: string; stamp: string; loaded: Promise<unknown> }>();
  private readonly prepared = new Map<string, PreparedEdits>();
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

  preparedAudit(key: string): PreparedEdits | undefined {
    return this.prepared.get(key);
  }

  keepPrepared(key: string, prepared: PreparedEdits): void {
    // One prepared audit per audit name: an old structure is never asked for again.
    const name = key.slice(0, key.indexOf('\u0000'));
    for (const old of this.prepared.keys()) if (old.startsWith(`${name}\u0000`)) this.prepared.delete(old);
    this.prepared.set(key, prepared);
  }

  /** Forgets files (and what was prepared from any file) after they changed on disk. */
  invalidate(paths: readonly string[]): void {
    const touched = (file: string): boolean => paths.some((p) => file === p || file.startsWith(`${p}/`));
    for (const [key, entry] of this.files) if (touched(entry.file)) this.files.delete(key);
    if (paths.length > 0) this.prepared.clear();
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

/** Spans of the numbers that only scoring reads: weights, penalties, expected values, settings. */
function scoringNumberSpans(audit: AuditDecl, rewardWeightSpans: readonly Span[]): Span[] {
  const spans: Span[] = [...rewardWeightSpans];
  for (const item of audit.items) {
    if (item.kind === 'lattice') for (const entry of item.entries) if (entry.lambda !== undefined) spans.push(entry.lambda.span);
    if (item.kind === 'expect-metric' && item.value !== undefined) spans.push(item.value.span);
    if (item.kind === 'setting') for (const value of item.values) spans.push(value.span);
  }
  return spans.sort((a, b) => a.start - b.start);
}

/**
 * The spec as an audit's preparation sees it: the text with every scoring-only number masked and
 * whitespace folded. Two texts with the same fingerprint prepare the same edits and feature values
 * (a comment edit re-prepares needlessly, which is only slower).
 */
export function structuralFingerprint(text: string, audit: AuditDecl, rewardWeightSpans: readonly Span[]): string {
  let masked = '';
  let at = 0;
  for (const span of scoringNumberSpans(audit, rewardWeightSpans)) {
    masked += `${text.slice(at, span.start)}\u0000`;
    at = span.end;
  }
  masked += text.slice(at);
  return masked.replace(/\s+/g, ' ');
}
