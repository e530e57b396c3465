import * as path from 'node:path';
import { DiagnosticSeverity, MarkupKind, type Diagnostic, type Hover, type Position } from 'vscode-languageserver/node';
import type { TextDocument } from 'vscode-languageserver-textdocument';
import type { InputCache } from '../inputs/input-cache.js';
import { formatBytes, maxEditorImportBytes } from '../inputs/input-limits.js';
import { sizeProblem, type NamedFile } from '../inputs/load-inputs.js';
import { inputSize } from '../inputs/open-input.js';
import { poolLinkFiles } from '../inputs/pool-link.js';
import { specFiles, specInputs, type SpecInput } from '../inputs/spec-inputs.js';
import { auditIssueCodes } from '../problems/issue-codes.js';
import { maxRowDiagnostics } from '../problems/limits.js';
import type { Problem, RowPair } from '../problems/problem.js';
import type { Outcome } from './analysis-run.js';
import type { ImportedRows, ImportRequest } from './import-run.js';
import { trustOnWire } from './analysis-runner.js';
import { codeDescriptionHref } from './diagnostics.js';
import { specFileOf, type DocumentAnalysis } from './document-analysis.js';
import { plainText } from './hover.js';
import { checkRows, corpusOfPool, type DataFileKind, type PoolReading } from '../ide/pool-rows.js';
import type { Session } from './session.js';
import { pairLabel, pairLink, pairParams } from './worked-pair-links.js';
import { code, markdownText, shownRows, unescapeMarkdown, type ShownRow } from '../ide/row-text.js';

// The data files open in the editor (`.jsonl` pools, corpora and candidate files): an open spec that
// links one makes the server check its rows as the audit would read them (one diagnostic per row the
// audit would skip) and explain a row on hover, with the findings of that spec's audits that name it.
// A spec links a file by its path, or as one of the files a pool's glob matches, or as one of the
// files of an imported pool (`from FORMAT(…)`): then the rows are those the pool's import made (the
// audit's own load, from the file as saved) and the skipped records are the importer's.

/** Specs and data files share the editor; a `.jsonl` document is data, never a spec. */
export function isDataDocument(uri: unknown): boolean {
  // Asked before any guard runs, with whatever a client sent: a malformed request is not a data document.
  return typeof uri === 'string' && /\.jsonl$/i.test(uri.split(/[?#]/)[0] ?? '');
}

/** How an open spec links a data file. */
export interface DataLink {
  readonly spec: DocumentAnalysis;
  readonly kind: DataFileKind;
  /** The corpus's or pool's name in the spec; empty for a candidate file. */
  readonly name: string;
  /** A pool linked by a glob or through an importer: the pool, and the files it reads in their order (this one among them). */
  readonly pool?: { readonly link: NamedFile; readonly files: readonly string[] };
}

/** The latest findings of a spec's analyses (the analysis service). */
export interface FindingsSource {
  problems(analysis: DocumentAnalysis): Problem[];
}

/** Where imported pools are imported: a worker thread (`AnalysisRunner.importRows`), never the server's. */
export interface PoolImports {
  importRows(request: ImportRequest): Promise<Outcome<ImportedRows>>;
}

/** One file's rows of an imported pool, checked in the worker, and what they were made from (`ImportedRows.load`, the spec's text). */
interface ImportedFile {
  readonly load: string;
  readonly specText: string;
  readonly rows: readonly ShownRow[];
}

/** Why an import gave no rows, worded for the file's note: a worker that died says why; a bug points at the log. */
export function importFailure(outcome: Extract<Outcome<unknown>, { state: 'failed' | 'cancelled' }>): string {
  if (outcome.state === 'cancelled') return 'the import was cancelled';
  return outcome.stopped ?? `the import failed (${outcome.error.split('\n')[0]!}): see the HERALD output`;
}

const kindWords: Record<DataFileKind, string> = { pool: 'pool', corpus: 'corpus', candidates: 'candidate file' };
/** Findings listed in a row's hover; the rest are counted. */
const maxFindingsShown = 8;
/** Rows shown in a hover of a line that holds several (a record of an imported log); the rest are counted. */
const maxRowsShown = 4;

function lineRange(document: TextDocument, line: number) {
  const start = document.offsetAt({ line, character: 0 });
  const next = line + 1 < document.lineCount ? document.offsetAt({ line: line + 1, character: 0 }) : document.getText().length;
  const text = document.getText().slice(start, next).replace(/\r?\n$/, '');
  return { start: { line, character: 0 }, end: { line, character: text.length } };
}

/** `pool `hotpot` of paper.reward`; `quote` writes the name (a code span in hovers, quotes in diagnostics). */
function linkText(link: DataLink, quote: (name: string) => string = code): string {
  const spec = path.basename(specFileOf(link.spec.uri) ?? link.spec.uri);
  if (link.kind === 'candidates') return `candidate file of ${spec}`;
  const format = link.pool?.link.importer?.format;
  return `${kindWords[link.kind]} ${quote(link.name)} of ${spec}${format === undefined ? '' : `, imported by ${quote(format)} from the file as saved`}`;
}

/** What a line of the file is to the audits: a row, or a framework's record an importer reads. */
const unitOf = (link: DataLink): string => (link.pool?.link.importer === undefined ? 'row' : 'record');

const sameLoads = (a: readonly unknown[] | undefined, b: readonly unknown[] | undefined): boolean =>
  (a ?? []).length === (b ?? []).length && (a ?? []).every((x, i) => x === b?.[i]);

/**
 * The open data files' side of the server: which open specs link a file, its rows' diagnostics and
 * its hovers, computed from the documents as they are now. Each open file's checked rows are kept
 * for its current version and reading (a pool of 1,600 rows takes ~0.1 s to check), until it closes.
 */
export class DataDocuments {
  private readonly checkedRows = new Map<string, {
    readonly version: number; readonly reading: string; readonly with?: PoolReading; readonly imported?: ImportedFile | string; readonly rows: ShownRow[];
  }>();
  /** Imports whose worker died (out of memory…), by pool and file stamps: not tried again until a file changes. */
  private readonly stoppedImports = new Map<string, string>();

  constructor(
    private readonly session: Session,
    private readonly findings: FindingsSource,
    private readonly docsUri: string,
    /** The linking specs' corpora (a pool's ids resolve against its corpus, as the analyses read it). */
    private readonly corpora: InputCache,
    private readonly imports: PoolImports,
  ) {}

  /** How the linking spec reads a pool: its corpus (when it loads), its model (declared logged fields) and, for a glob's file, the files before it. */
  private async poolReading(link: DataLink, file: string): Promise<PoolReading> {
    const model = link.spec.analyzed.model;
    const specFile = specFileOf(link.spec.uri);
    const corpusName = link.kind === 'pool' ? corpusOfPool(model, link.name) : undefined;
    if (link.kind !== 'pool' || specFile === undefined) return { model };
    const trust = await this.session.trustFor(link.spec.uri);
    const before = link.pool === undefined || link.pool.link.importer !== undefined ? [] : link.pool.files.slice(0, link.pool.files.indexOf(file));
    const earlier = before.length === 0 ? {} : { earlier: { files: before, loads: await Promise.all(before.map((f) => this.corpora.pool(f, link.name, trust))), specDir: path.dirname(specFile) } };
    if (corpusName === undefined) return { model, ...earlier };
    const loaded = await this.corpora.corpus(specFiles(model.spec, specFile).named(corpusName).file, trust);
    return { model, ...earlier, ...(loaded.fileError === undefined ? { corpus: loaded.corpus } : {}) };
  }

  /** How `input` of an open spec links `file`, if it does: by its path, or among the files of a glob or an import. */
  private linkOf(input: SpecInput, file: string, spec: DocumentAnalysis): DataLink | undefined {
    if (input.kind === 'baseline') return undefined;
    const name = input.name ?? '';
    if (input.kind !== 'pool' || (input.glob === undefined && input.importer === undefined)) return input.path === file ? { spec, kind: input.kind, name } : undefined;
    const link: NamedFile = { name, file: input.path, ...(input.glob === undefined ? {} : { glob: true }), ...(input.importer === undefined ? {} : { importer: input.importer }) };
    // The one list of the pool's files (trust rule included), as the analyses expand it.
    const files = poolLinkFiles(link, this.session.trust);
    return files.ok && files.files.includes(file) ? { spec, kind: 'pool', name, pool: { link, files: files.files } } : undefined;
  }

  /** The open specs that link the data file at `uri`, in the order they were opened. */
  async links(uri: string): Promise<DataLink[]> {
    const file = specFileOf(uri);
    if (file === undefined) return [];
    const links: DataLink[] = [];
    for (const document of this.session.documents.all()) {
      const specFile = specFileOf(document.uri);
      if (isDataDocument(document.uri) || specFile === undefined) continue;
      const spec = await this.session.analysisFor(document.uri);
      if (spec === undefined) continue;
      // The first input that links the file decides how this spec reads it (a glob is walked only if no earlier input matched).
      for (const input of specInputs(spec.analyzed.model.spec, specFile)) {
        const link = this.linkOf(input, file, spec);
        if (link === undefined) continue;
        links.push(link);
        break;
      }
    }
    return links;
  }

  /** The rows of the open data file, checked as the first spec that links it reads them; undefined when no open spec does. */
  private async checked(uri: string): Promise<{ document: TextDocument; links: DataLink[]; rows: ShownRow[] } | undefined> {
    const document = this.session.documents.get(uri);
    const file = specFileOf(uri);
    if (document === undefined || file === undefined) return undefined;
    const links = await this.links(uri);
    const first = links[0];
    if (first === undefined) return undefined;
    const reading = `${first.kind}\u0000${first.name}`;
    const known = this.checkedRows.get(uri);
    if (first.pool?.link.importer !== undefined) {
      // An imported log's rows come from the pool's import, checked in the worker: the document's text is not read.
      const imported = await this.importOf(first, file, known?.reading === reading && typeof known.imported === 'object' ? known.imported : undefined);
      if (known?.reading === reading && known.imported === imported) return { document, links, rows: known.rows };
      const rows = typeof imported === 'string' ? [{ ok: false as const, line: 1, reason: imported, wholeFile: true as const, notChecked: true as const }] : [...imported.rows];
      this.checkedRows.set(uri, { version: document.version, reading, imported, rows });
      return { document, links, rows };
    }
    const how = await this.poolReading(first, file);
    // The corpus, the model and the earlier files are the caches' and the analysis's objects: a new one is a new reading.
    const before = known?.version === document.version && known.reading === reading ? known.with : undefined;
    const same = before !== undefined && before.corpus === how.corpus && before.model === how.model && sameLoads(before.earlier?.loads, how.earlier?.loads);
    if (known !== undefined && same) return { document, links, rows: known.rows };
    const rows = shownRows(checkRows(document.getText(), first.kind, file, first.name, first.kind === 'pool' ? how : undefined));
    this.checkedRows.set(uri, { version: document.version, reading, with: how, rows });
    return { document, links, rows };
  }

  /**
   * The rows of `file` of an imported pool as the audit loads it, checked as the spec reads it: both
   * in a worker (imported through its cache, from the files as saved; `known` while that import, its
   * corpus and the spec's text have not changed); or why the editor does not import it (a pool too
   * large to show, an import that failed).
   */
  private async importOf(link: DataLink, file: string, known: ImportedFile | undefined): Promise<ImportedFile | string> {
    const specFile = specFileOf(link.spec.uri);
    const pool = link.pool;
    if (pool === undefined || specFile === undefined) return 'not an imported pool';
    // The analyses refuse files past their limits before reading any (inputs/load-inputs.ts): so does the editor, by the same rule.
    const trust = await this.session.trustFor(link.spec.uri);
    const tooLarge = sizeProblem(pool.files, trust);
    if (tooLarge !== undefined) return { load: 'refused', specText: '', rows: [{ ok: false, line: 1, reason: `the pool's files are ${tooLarge.why}`, wholeFile: true }] };
    const total = pool.files.reduce((sum, f) => sum + (inputSize(f, trust) ?? 0), 0);
    if (total > maxEditorImportBytes) {
      return `the pool's files are together ${formatBytes(total)}, more than the ${formatBytes(maxEditorImportBytes)} the editor imports itself; the audit reads them and its report lists the records it skips (\`herald import\` prints them by file:line)`;
    }
    const attempt = JSON.stringify([pool.link, this.corpora.stamps(pool.files), trust.key]);
    const stopped = this.stoppedImports.get(attempt);
    if (stopped !== undefined) return stopped;
    const specText = link.spec.text;
    const settings = await this.session.settings.for(link.spec.uri);
    const outcome = await this.imports.importRows({
      pool: pool.link, files: pool.files, specDir: path.dirname(specFile), select: { kind: 'file', file, spec: link.spec.spec.bound },
      ...trustOnWire(trust, settings.maxInputMiB), ...(known?.specText === specText ? { known: known.load } : {}),
    });
    if (outcome.state !== 'done') {
      // A worker that died on this pool would die again: the pool waits until one of its files changes.
      if (outcome.state === 'failed' && outcome.stopped !== undefined) this.stoppedImports.set(attempt, outcome.stopped);
      return importFailure(outcome);
    }
    const { load, checked } = outcome.results;
    if (checked === undefined) return known?.load === load ? known : 'the import sent no rows';
    return { load, specText, rows: checked };
  }

  /** The document closed: its rows are checked afresh if it opens again. */
  forget(uri: string): void {
    this.checkedRows.delete(uri);
  }

  /** One diagnostic per row the audits would skip, and per row whose results do not all resolve, on its line. */
  async diagnostics(uri: string): Promise<Diagnostic[]> {
    const checked = await this.checked(uri);
    if (checked === undefined) return [];
    const read = `read as the ${linkText(checked.links[0]!, (name) => `'${name}'`)}`;
    const diagnostic = (line: number, severity: DiagnosticSeverity, code: typeof auditIssueCodes.badRows | typeof auditIssueCodes.unresolvedIds, message: string): Diagnostic => ({
      range: lineRange(checked.document, line - 1), severity, source: 'herald', code, codeDescription: { href: codeDescriptionHref(this.docsUri, code) }, message: `${message} (${read})`,
    });
    const what = unitOf(checked.links[0]!);
    const said = (row: ShownRow): { severity: DiagnosticSeverity; code: typeof auditIssueCodes.badRows | typeof auditIssueCodes.unresolvedIds; message: string } | undefined => {
      if (!row.ok && row.notChecked === true) return { severity: DiagnosticSeverity.Information, code: auditIssueCodes.badRows, message: `not checked in the editor: ${row.reason}` };
      if (!row.ok) return { severity: DiagnosticSeverity.Error, code: auditIssueCodes.badRows, message: row.wholeFile === true ? `the audits read none of this file: ${row.reason}` : `the audits skip this ${what}: ${row.reason}` };
      return row.unresolved === undefined ? undefined : { severity: DiagnosticSeverity.Warning, code: auditIssueCodes.unresolvedIds, message: row.unresolved };
    };
    // Several rows made from one record may share a reason: it is said once. Past `maxRowDiagnostics`
    // the rest are counted on one last diagnostic: 80,000 in one message stall the editor.
    const seen = new Set<string>();
    const diagnostics: Diagnostic[] = [];
    let more = 0;
    let firstMore = 0;
    for (const row of checked.rows) {
      const d = said(row);
      if (d === undefined) continue;
      const key = `${row.line}\u0000${d.message}`;
      if (seen.has(key)) continue;
      seen.add(key);
      if (diagnostics.length < maxRowDiagnostics) diagnostics.push(diagnostic(row.line, d.severity, d.code, d.message));
      else if (more++ === 0) firstMore = row.line;
    }
    if (more > 0) {
      diagnostics.push(diagnostic(firstMore, DiagnosticSeverity.Information, auditIssueCodes.badRows, `… and ${more} more from this line on: the editor shows the first ${maxRowDiagnostics.toLocaleString('en-US')} problems of a data file`));
    }
    return diagnostics;
  }

  /** A row's hover: what it holds (or why it is skipped), which specs read it, and the findings that name it. */
  async hover(uri: string, position: Position, options: { readonly markdown: boolean; readonly pairLinks: boolean }): Promise<Hover | null> {
    const checked = await this.checked(uri);
    const file = specFileOf(uri);
    const line = position.line + 1;
    const rows = checked?.rows.filter((r) => r.line === line) ?? [];
    if (checked === undefined || file === undefined || rows.length === 0) return null;
    // A record of an imported log may hold several trajectories: each row it made is shown.
    const lines = rows.slice(0, maxRowsShown).flatMap((row) => {
      if (!row.ok && row.notChecked === true) return [`**not checked in the editor**: ${markdownText(row.reason)}`];
      if (!row.ok) return [row.wholeFile === true ? `**not read**: ${markdownText(row.reason)}` : `**skipped ${unitOf(checked.links[0]!)}**: the audits leave it out: ${markdownText(row.reason)}`];
      return [...row.shown, ...(row.unresolved === undefined ? [] : [`**ids not resolved**: ${markdownText(row.unresolved)}`])];
    });
    if (rows.length > maxRowsShown) lines.push(`… and ${rows.length - maxRowsShown} more rows from this line`);
    lines.push(`Line ${line}, read as the ${checked.links.map((l) => linkText(l)).join(' and as the ')}.`);
    const named = this.findingsNaming(checked.links, file, line);
    if (named.findings.length > 0) {
      const shown = named.findings.slice(0, maxFindingsShown).map((f) => `- ${f}`);
      if (named.findings.length > maxFindingsShown) shown.push(`- … and ${named.findings.length - maxFindingsShown} more`);
      lines.push(`Findings that name this row:\n${shown.join('\n')}`);
    }
    if (options.markdown && options.pairLinks && named.pairs.length > 0) {
      lines.push(`Open side by side: ${named.pairs.map((p) => pairLink(pairLabel(p.pair), pairParams(p.spec.uri, { ...p.pair, line }))).join(' · ')}`);
    }
    const value = lines.join('\n\n');
    return {
      contents: options.markdown ? { kind: MarkupKind.Markdown, value } : { kind: MarkupKind.PlainText, value: unescapeMarkdown(plainText(value)) },
      range: lineRange(checked.document, position.line),
    };
  }

  /** The latest findings of the linking specs whose rows include this one, and the worked pairs among those rows. */
  private findingsNaming(links: readonly DataLink[], file: string, line: number): { findings: string[]; pairs: { spec: DocumentAnalysis; pair: RowPair }[] } {
    const findings: string[] = [];
    const pairs = new Map<string, { spec: DocumentAnalysis; pair: RowPair }>();
    for (const spec of new Set(links.map((l) => l.spec))) {
      for (const problem of this.findings.problems(spec)) {
        for (const row of (problem.rows ?? []).filter((r) => r.file === file && r.line === line)) {
          const where = row.pair === undefined ? path.basename(specFileOf(spec.uri) ?? spec.uri) : `audit ${code(row.pair.audit)}`;
          findings.push(`**${problem.code}** (${where}): ${markdownText(row.message)}`);
          if (row.pair !== undefined) pairs.set(JSON.stringify([spec.uri, row.pair]), { spec, pair: row.pair });
        }
      }
    }
    return { findings, pairs: [...pairs.values()] };
  }
}
