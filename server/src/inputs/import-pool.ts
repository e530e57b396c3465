// A pool that links a foreign log (`pool runs = "dumps/*.jsonl" from verl(dialect: search_r1)`):
// its files are read here, through `openInput` like every linked file, handed to the importer the
// registry names (the same code `herald import` runs), which checks each row with the pool parser as
// it is made, so the audit sees exactly what `herald import` would have written and then loaded.
import type { ImportCounts, ImportFile, RawOptions } from '../importers/importer.js';
import type { RegisteredImporter } from '../importers/registry.js';
import type { Loaded, RowIssue, Trajectory } from '../pool/types.js';
import type { ImportOption, PoolDecl } from '../syntax/ast.js';
import { linkedFileAccess, readOpened, openInput, UnreadableInput } from './open-input.js';
import { resolveLink, specRelative } from './paths.js';
import { inFileOrder } from './pool-link.js';
import type { WorkspaceTrust } from './trust.js';

/** The importer a pool names and its options as written (values as text, like `--option key=value`). */
export interface PoolImport {
  readonly format: string;
  readonly options: RawOptions;
}

/** What the importer stated about an imported pool: its counts and its notes (never silent). */
export interface ImportSummary {
  readonly format: string;
  readonly counts: ImportCounts;
  readonly notes: readonly string[];
}

export interface LoadedImport extends Loaded<Trajectory> {
  readonly imported?: ImportSummary;
}

/** An option's value as the importer receives it: a name or number as written, a string's value. */
export function importOptionText(option: ImportOption): string | undefined {
  const value = option.value;
  if (value === undefined) return undefined;
  if ('kind' in value) return value.kind === 'string' ? value.value : String(value.value);
  return value.text;
}

/** The importer a pool declaration names, or undefined (no `from`, or no format written yet). A repeated option keeps its first value. */
export function poolImportOf(decl: PoolDecl): PoolImport | undefined {
  const format = decl.source?.format?.text;
  if (format === undefined) return undefined;
  const options: Record<string, string> = {};
  for (const option of decl.source?.options ?? []) {
    const text = importOptionText(option);
    if (text !== undefined && !Object.hasOwn(options, option.name.text)) options[option.name.text] = text;
  }
  return { format, options };
}

/** The files of one imported pool: absolute paths in the order they are read, and the spec's folder (reasons name files relative to it). */
export interface ImportRequest {
  readonly files: readonly string[];
  readonly name: string;
  readonly specDir: string;
}

/**
 * Reads every file (absolute) whole through `openInput` (trust, kind, per-file limit), each named
 * for the importer by `pathOf`; or the first that could not be read, and why. A spec's imported pool
 * and `herald import` read their logs here.
 */
export function readImportFiles(files: readonly string[], trust: WorkspaceTrust, pathOf: (file: string, index: number) => string): { ok: true; files: ImportFile[] } | { ok: false; file: string; why: string } {
  const read: ImportFile[] = [];
  for (const [index, file] of files.entries()) {
    const opened = openInput(file, linkedFileAccess(trust));
    if (!opened.ok) return { ok: false, file, why: opened.reason };
    try {
      read.push({ path: pathOf(file, index), bytes: readOpened(opened, trust.limits.file) });
    } catch (error) {
      return { ok: false, file, why: error instanceof UnreadableInput || error instanceof Error ? error.message : String(error) };
    }
  }
  return { ok: true, files: read };
}

/**
 * Imports one pool: its files' bytes through the importer, and every row, as the registry hands it
 * over checked against the pool format, given its `RowSource` (the record's file and line); a later
 * row with an id already taken is skipped as a duplicate. The importer's skipped records and the rows
 * the pool format refuses are the pool's skipped rows, in file and line order; its counts and notes
 * travel with the rows.
 */
export async function importPool(request: ImportRequest, importer: RegisteredImporter, options: RawOptions, trust: WorkspaceTrust): Promise<LoadedImport> {
  const read = readImportFiles(request.files, trust, (file) => specRelative(request.specDir, file));
  if (!read.ok) return { items: [], issues: [], fileError: `${read.file}: cannot read: ${read.why}` };
  // Reasons and sources name files as the spec's folder sees them, absolute; each file is resolved once.
  const absolute = new Map(read.files.map((f, k) => [f.path, request.files[k]!]));
  const items: Trajectory[] = [];
  const duplicates: RowIssue[] = [];
  const firstAt = new Map<string, { file: string; line: number }>();
  const outcome = await importer.stream(read.files, options, ({ trajectory, at }) => {
    const file = absolute.get(at.file) ?? resolveLink(request.specDir, at.file);
    const first = firstAt.get(trajectory.id);
    if (first !== undefined) {
      const place = first.file === file ? `line ${first.line}` : `${specRelative(request.specDir, first.file)} line ${first.line}`;
      duplicates.push({ file, line: at.line, reason: `duplicate id '${trajectory.id}' (first on ${place})` });
      return;
    }
    firstAt.set(trajectory.id, { file, line: at.line });
    items.push({ ...trajectory, source: { pool: request.name, file, line: at.line }, ...(importer.renderer === undefined ? {} : { format: importer.format }) });
  });
  const where = request.files.length === 1 ? request.files[0]! : request.files.join(', ');
  if (!outcome.ok) return { items: [], issues: [], fileError: `${where}: cannot import as ${importer.format}: ${outcome.reason}` };
  const { summary } = outcome;
  const skipped: RowIssue[] = [];
  for (const s of summary.skipped) skipped.push({ file: absolute.get(s.at.file) ?? resolveLink(request.specDir, s.at.file), line: s.at.line, reason: s.reason });
  const issues = inFileOrder([skipped, duplicates], request.files);
  return { items, issues, imported: { format: importer.format, counts: { ...summary.counts, imported: items.length, skipped: issues.length }, notes: summary.notes } };
}
