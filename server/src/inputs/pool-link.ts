// What a pool's link names, loaded: one JSONL file (as always), every file a glob matches (each
// loaded and cached on its own, rows joined in file order), or a foreign log read by an importer
// (`from FORMAT(...)`, cached as one import). The one place the three are told apart.
import { importerFor, importers } from '../importers/registry.js';
import type { RowIssue, Trajectory } from '../pool/types.js';
import { globFiles, type GlobFiles } from './glob-files.js';
import type { LoadedImport } from './import-pool.js';
import type { InputCache } from './input-cache.js';
import type { NamedFile } from './load-inputs.js';
import { specRelative } from './paths.js';
import type { WorkspaceTrust } from './trust.js';

/** The files a pool reads: its file, or the files its glob matches (sorted); a glob that matches none is a reason. */
export function poolLinkFiles(pool: NamedFile, trust: WorkspaceTrust): GlobFiles {
  if (pool.glob === undefined) return { ok: true, files: [pool.file] };
  const matched = globFiles(pool.file, trust);
  if (matched.ok && matched.files.length === 0) return { ok: false, reason: 'no file matches this glob' };
  return matched;
}

/** The formats there are, for a reason that names a format nobody registered. */
export function formatList(): string {
  return importers.length === 0 ? 'none is registered' : `the formats are ${importers.map((i) => i.format).join(', ')}`;
}

/** Loads a pool from its files (`poolLinkFiles`), through the cache. */
export function loadPoolLink(pool: NamedFile, files: readonly string[], specDir: string, cache: InputCache, trust: WorkspaceTrust): Promise<LoadedImport> {
  if (pool.importer !== undefined) {
    const importer = importerFor(pool.importer.format);
    if (importer === undefined) return Promise.resolve({ items: [], issues: [], fileError: `${pool.file}: cannot import: no importer '${pool.importer.format}' (${formatList()})` });
    return cache.importedPool(pool.file, { files, name: pool.name, specDir }, importer, pool.importer, trust);
  }
  if (pool.glob === undefined) return cache.pool(pool.file, pool.name, trust);
  return cache.joinedPool(pool.file, { files, name: pool.name, specDir }, trust);
}

/** The rows of several files as one pool: file by file, a later row whose id an earlier file took skipped as a duplicate. */
export function joinFiles(files: readonly string[], loads: readonly LoadedImport[], specDir: string): LoadedImport {
  const items: Trajectory[] = [];
  const issues: RowIssue[] = [];
  const firstAt = new Map<string, Trajectory>();
  loads.forEach((loaded, k) => {
    for (const issue of loaded.issues) issues.push(issue);
    for (const row of loaded.items) {
      const first = firstAt.get(row.id);
      if (first === undefined) {
        firstAt.set(row.id, row);
        items.push(row);
      } else {
        issues.push({ file: files[k]!, line: row.source.line, reason: `duplicate id '${row.id}' (first on ${specRelative(specDir, first.source.file)} line ${first.source.line})` });
      }
    }
  });
  const fileError = loads.find((l) => l.fileError !== undefined)?.fileError;
  return { items, issues: inFileOrder([issues], files), ...(fileError === undefined ? {} : { fileError }) };
}

/**
 * Issues of several lists as one, in the order of `files` (absolute, as the issues name them), then
 * by line: a new array, filled by appending (a pool may have a million skipped rows).
 */
export function inFileOrder(lists: readonly (readonly RowIssue[])[], files: readonly string[]): RowIssue[] {
  const all: RowIssue[] = [];
  for (const list of lists) for (const issue of list) all.push(issue);
  const order = new Map(files.map((f, k) => [f, k]));
  return all.sort((a, b) => (order.get(a.file) ?? 0) - (order.get(b.file) ?? 0) || a.line - b.line);
}
