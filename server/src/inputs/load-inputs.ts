import * as path from 'node:path';
import type { CandidateList, Loaded, RowIssue } from '../pool/types.js';
import type { AnalysisInputs } from './analysis-inputs.js';
import type { InputCache } from './input-cache.js';
import { specRelative } from './paths.js';

/** A corpus or pool to read: the name the spec gives it and its file (absolute). */
export interface NamedFile {
  readonly name: string;
  readonly file: string;
}

/** What one analysis reads: a corpus, its pools or logs, and candidate files by the link the spec writes. */
export interface InputRequest {
  readonly corpus: NamedFile;
  readonly pools: readonly NamedFile[];
  readonly candidates?: readonly { readonly link: string; readonly file: string }[];
}

export type InputLoad =
  | { readonly ok: true; readonly inputs: AnalysisInputs; readonly candidateFiles: ReadonlyMap<string, Loaded<CandidateList>>; readonly files: readonly string[] }
  | { readonly ok: false };

/** A log named on the command line, outside the spec: named after its file (`train-R_L.jsonl` → `train-R_L`). */
export function logFromFile(file: string): NamedFile {
  return { name: path.basename(file).replace(/\.jsonl$/, ''), file: path.resolve(file) };
}

/**
 * Row issues of every file loaded (absolute paths, as opened), each file's listed once however many
 * analyses read it; a file that could not be read at all is an issue on line 0.
 */
export class IssueLog {
  private readonly seen = new Set<Loaded<unknown>>();
  readonly issues: RowIssue[] = [];

  add(loaded: Loaded<unknown>): void {
    if (this.seen.has(loaded)) return;
    this.seen.add(loaded);
    this.issues.push(...loaded.issues);
    if (loaded.fileError !== undefined) this.issues.push({ file: '', line: 0, reason: loaded.fileError });
  }
}

/**
 * Loads what an analysis reads, through the cache. Skipped rows are issues and the analysis goes
 * on without them; a file that cannot be read fails the load. The loaded data names files relative
 * to the spec's folder, as reports do.
 */
export async function loadInputs(specDir: string, request: InputRequest, cache: InputCache, issues: IssueLog, onProgress: (message: string) => void = () => undefined): Promise<InputLoad> {
  onProgress(`loading corpus ${specRelative(specDir, request.corpus.file)}`);
  const corpus = await cache.corpus(request.corpus.file);
  const pools = await Promise.all(request.pools.map(async (pool) => {
    onProgress(`loading pool ${pool.name}`);
    return { pool, loaded: await cache.pool(pool.file, pool.name) };
  }));
  const candidateFiles = new Map<string, Loaded<CandidateList>>();
  for (const c of request.candidates ?? []) candidateFiles.set(c.link, await cache.candidateFile(c.file));
  const loads: Loaded<unknown>[] = [corpus, ...pools.map((p) => p.loaded), ...candidateFiles.values()];
  for (const l of loads) issues.add(l);
  if (loads.some((l) => l.fileError !== undefined)) return { ok: false };
  const relativeIssues = (list: readonly RowIssue[]): RowIssue[] => list.map((i) => ({ ...i, file: specRelative(specDir, i.file) }));
  return {
    ok: true,
    inputs: {
      corpusName: request.corpus.name,
      corpus: { ...corpus.corpus, file: specRelative(specDir, corpus.corpus.file) },
      corpusIssues: relativeIssues(corpus.issues),
      pools: pools.map(({ pool, loaded }) => ({ name: pool.name, file: specRelative(specDir, pool.file), rows: loaded.items, issues: relativeIssues(loaded.issues) })),
    },
    candidateFiles,
    files: [request.corpus.file, ...request.pools.map((p) => p.file), ...(request.candidates ?? []).map((c) => c.file)],
  };
}
