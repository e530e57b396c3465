import * as path from 'node:path';
import { corpusIndex, resolvePool, type CorpusIndex, type ResolvedPool } from '../pool/resolve-ids.js';
import type { CandidateList, Loaded, RowIssue } from '../pool/types.js';
import type { AnalysisInputs } from './analysis-inputs.js';
import type { PoolImport } from './import-pool.js';
import type { InputCache } from './input-cache.js';
import { formatBytes, raiseLimitsHint } from './input-limits.js';
import { inputSize } from './open-input.js';
import { specRelative } from './paths.js';
import { inFileOrder, loadPoolLink, poolLinkFiles } from './pool-link.js';
import type { WorkspaceTrust } from './trust.js';

/** A corpus or pool to read: the name the spec gives it and its file (absolute). */
export interface NamedFile {
  readonly name: string;
  /** Absolute; for a glob link, the absolute glob. */
  readonly file: string;
  /** A pool linked by a glob: every file it matches, sorted, each file's rows in order. */
  readonly glob?: true;
  /** A pool linked `from FORMAT(...)`: its files are read by that importer. */
  readonly importer?: PoolImport;
  /** A log named on the command line (`--log`, `--base`, `--treatment`): no declaration of the spec reads it. */
  readonly unlinked?: true;
}

/** What one analysis reads: a corpus, its pools or logs, and candidate files by the link the spec writes. */
export interface InputRequest {
  readonly corpus: NamedFile;
  readonly pools: readonly NamedFile[];
  readonly candidates?: readonly { readonly link: string; readonly file: string }[];
}

/** How to load: through which cache, under which trust rule, where issues go, and where progress lines go. */
export interface LoadContext {
  readonly cache: InputCache;
  readonly trust: WorkspaceTrust;
  readonly issues: IssueLog;
  readonly onProgress?: ((message: string) => void) | undefined;
}

export type InputLoad =
  | { readonly ok: true; readonly inputs: AnalysisInputs; readonly candidateFiles: ReadonlyMap<string, Loaded<CandidateList>>; readonly files: readonly string[] }
  | { readonly ok: false };

/** A log named on the command line, outside the spec: named after its file (`train-R_L.jsonl` → `train-R_L`). */
export function logFromFile(file: string): NamedFile {
  return { name: path.basename(file).replace(/\.jsonl$/, ''), file: path.resolve(file), unlinked: true };
}

/**
 * The declaration a linked file is read for: a corpus or pool by its name (each file a glob or an
 * import of the pool reads), or a candidate file by its link as the attack writes it.
 */
export type FileOwner =
  | { readonly kind: 'corpus' | 'pool'; readonly name: string }
  | { readonly kind: 'candidates'; readonly link: string };

/**
 * Row issues of every file loaded (absolute paths, as opened), each file's listed once however many
 * analyses read it, and the declaration each file was read for (the first, when several read one
 * file): the files are known where a link is expanded, so a skipped row's finding never has to
 * match paths again. A file that could not be read at all is an issue on line 0 whose reason is
 * the whole message, `FILE: cannot read: why`.
 */
export class IssueLog {
  private readonly seen = new Set<Loaded<unknown> | string>();
  readonly issues: RowIssue[] = [];
  /** Absolute path → the declaration it was read for. */
  readonly owners = new Map<string, FileOwner>();

  /** `file` is read for `owner` (a later owner of the same file is not recorded). */
  own(file: string, owner: FileOwner): void {
    if (!this.owners.has(file)) this.owners.set(file, owner);
  }

  add(loaded: Loaded<unknown>, file: string): void {
    if (this.seen.has(loaded)) return;
    this.seen.add(loaded);
    // One at a time: a file of a million bad rows would overflow the stack as spread arguments.
    for (const issue of loaded.issues) this.issues.push(issue);
    if (loaded.fileError !== undefined) this.issues.push({ file, line: 0, reason: loaded.fileError });
  }

  /** Rows skipped while resolving a pool against a corpus, once per (pool file, corpus file). */
  addResolved(poolFile: string, corpusFile: string, resolved: ResolvedPool): void {
    const key = `${poolFile}\u0000${corpusFile}`;
    if (this.seen.has(key)) return;
    this.seen.add(key);
    for (const issue of resolved.issues) this.issues.push(issue);
  }

  /** A problem of several files together (their total size): on line 0 like a file that cannot be read. */
  addFiles(files: readonly string[], why: string): void {
    this.issues.push({ file: files[0] ?? '', line: 0, reason: `${files.join(', ')}: cannot read: ${why}` });
  }
}

/**
 * Files too large to load, and why: each file above its limit alone, else all of them when together
 * they pass the limit of one analysis; undefined when they fit. Sizes by stat: nothing is opened.
 */
export function sizeProblem(files: readonly string[], trust: WorkspaceTrust): { files: string[]; why: string } | undefined {
  const { limits } = trust;
  const sizes = [...new Set(files)].map((file) => ({ file, size: inputSize(file, trust) ?? 0 }));
  const tooLarge = sizes.filter((s) => s.size > limits.file);
  if (tooLarge.length > 0) {
    return { files: tooLarge.map((s) => s.file), why: `${tooLarge.map((s) => formatBytes(s.size)).join(', ')}, above the ${formatBytes(limits.file)} limit for one linked file (${raiseLimitsHint})` };
  }
  const total = sizes.reduce((sum, s) => sum + s.size, 0);
  if (total <= limits.analysis) return undefined;
  return { files: sizes.map((s) => s.file), why: `together ${formatBytes(total)}, above the ${formatBytes(limits.analysis)} limit for the files of one analysis (${raiseLimitsHint})` };
}

/**
 * Loads what an analysis reads, through the cache. Skipped rows are issues and the analysis goes
 * on without them; a file that cannot be read fails the load, and so does a file above its size
 * limit or files that together pass the limit of one analysis (refused before any is read). The loaded data names files relative
 * to the spec's folder, as reports do.
 */
export async function loadInputs(specDir: string, request: InputRequest, ctx: LoadContext): Promise<InputLoad> {
  const { cache, trust, issues } = ctx;
  const onProgress = ctx.onProgress ?? (() => undefined);
  // A glob is expanded once, here: the size limits, the loads and the stamps all see the same files.
  const poolFiles: (readonly string[])[] = [];
  for (const pool of request.pools) {
    const matched = poolLinkFiles(pool, trust);
    if (!matched.ok) {
      issues.addFiles([pool.file], matched.reason);
      return { ok: false };
    }
    poolFiles.push(matched.files);
  }
  const files = [request.corpus.file, ...poolFiles.flat(), ...(request.candidates ?? []).map((c) => c.file)];
  issues.own(request.corpus.file, { kind: 'corpus', name: request.corpus.name });
  request.pools.forEach((pool, k) => {
    if (pool.unlinked === true) return;
    for (const file of poolFiles[k]!) issues.own(file, { kind: 'pool', name: pool.name });
  });
  for (const c of request.candidates ?? []) issues.own(c.file, { kind: 'candidates', link: c.link });
  const tooLarge = sizeProblem(files, trust);
  if (tooLarge !== undefined) {
    issues.addFiles(tooLarge.files, tooLarge.why);
    return { ok: false };
  }
  onProgress(`loading corpus ${specRelative(specDir, request.corpus.file)}`);
  const corpus = await cache.corpus(request.corpus.file, trust);
  const pools = await Promise.all(request.pools.map(async (pool, k) => {
    onProgress(`${pool.importer === undefined ? 'loading' : `importing (${pool.importer.format})`} pool ${pool.name}`);
    return { pool, files: poolFiles[k]!, loaded: await loadPoolLink(pool, poolFiles[k]!, specDir, cache, trust) };
  }));
  const candidateFiles = new Map<string, Loaded<CandidateList>>();
  const candidateLoads: { file: string; loaded: Loaded<CandidateList> }[] = [];
  for (const c of request.candidates ?? []) {
    const loaded = await cache.candidateFile(c.file, trust);
    candidateFiles.set(c.link, loaded);
    candidateLoads.push({ file: c.file, loaded });
  }
  const loads = [{ file: request.corpus.file, loaded: corpus }, ...pools.map((p) => ({ file: p.pool.file, loaded: p.loaded })), ...candidateLoads];
  for (const l of loads) issues.add(l.loaded, l.file);
  if (loads.some((l) => l.loaded.fileError !== undefined)) return { ok: false };
  const relativeIssues = (list: readonly RowIssue[]): RowIssue[] => list.map((i) => ({ ...i, file: specRelative(specDir, i.file) }));
  // The one place pools meet their corpus: ids a log does not give are resolved here (pool/resolve-ids.ts).
  let index: CorpusIndex | undefined;
  const indexOf = (): CorpusIndex => (index ??= corpusIndex(corpus.corpus));
  const resolved = pools.map(({ pool, files: matched, loaded }) => {
    const r = resolvePool(loaded.items, corpus.corpus, indexOf);
    issues.addResolved(pool.file, request.corpus.file, r);
    return { pool, matched, loaded, r };
  });
  return {
    ok: true,
    inputs: {
      corpusName: request.corpus.name,
      corpus: { ...corpus.corpus, file: specRelative(specDir, corpus.corpus.file) },
      corpusIssues: relativeIssues(corpus.issues),
      pools: resolved.map(({ pool, matched, loaded, r }) => ({
        name: pool.name,
        file: specRelative(specDir, pool.file),
        rows: r.rows,
        issues: relativeIssues(r.issues.length === 0 ? loaded.issues : inFileOrder([loaded.issues, r.issues], matched)),
        ...(r.resolution === undefined ? {} : { resolution: { counts: r.resolution.counts, unresolved: relativeIssues(r.resolution.unresolved) } }),
        ...(loaded.imported === undefined ? {} : { imported: loaded.imported }),
        ...(pool.glob === true ? { rowFiles: new Map(matched.map((f) => [f, specRelative(specDir, f)])) } : {}),
      })),
    },
    candidateFiles,
    files,
  };
}
