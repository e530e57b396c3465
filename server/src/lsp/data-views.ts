import {
  DocumentDiagnosticReportKind, type CodeAction, type Connection, type Diagnostic, type DocumentDiagnosticReport, type Hover, type HoverParams,
} from 'vscode-languageserver/node';
import { InputCache } from '../inputs/input-cache.js';
import type { DocumentAnalysis } from './document-analysis.js';
import { DataDocuments, isDataDocument, type FindingsSource, type PoolImports } from './pool-documents.js';
import type { WorkedPairInitializationOptions, WorkedPairParams, WorkedPairResult } from '../contract/protocol.js';
import { guardNotification, type ErrorLog } from './safe-handler.js';
import type { Session } from './session.js';
import { workedPairActions } from './worked-pair-links.js';
import { workedPairAnswer } from './worked-pair-request.js';

/** Typing pauses in a data file shorter than this publish its diagnostics once (push clients). */
const pushDelayMs = 150;

/** What the server answers when a pair cannot be rebuilt because of a bug (logged). */
export const pairFailed: WorkedPairResult = { kind: 'unavailable', reason: 'the server could not rebuild this pair: see the HERALD output' };

/**
 * From a finding to the data behind it, on the server: worked pairs rebuilt on request, code
 * actions and hover links that open them side by side (for a client that can), and the open data
 * files that specs link (their rows' diagnostics and hovers). main.ts routes `.jsonl` documents here.
 */
export class DataViews {
  /** Whether the client runs `herald.openWorkedPair` (VS Code says so in its initialization options). */
  private pairCommands = false;
  /** The audits' corpora, kept between pair requests (reloaded when a file changes). */
  private readonly corpora = new InputCache();
  private readonly data: DataDocuments;
  private readonly pending = new Map<string, ReturnType<typeof setTimeout>>();

  constructor(
    private readonly connection: Connection,
    private readonly session: Session,
    findings: FindingsSource,
    private readonly log: ErrorLog,
    docsUri: string,
    /** Where imported pools are imported (a worker thread), for data files and worked pairs. */
    private readonly imports: PoolImports,
  ) {
    this.data = new DataDocuments(session, findings, docsUri, this.corpora, imports);
    const documents = session.documents;
    documents.onDidOpen(guardNotification(log, 'didOpen (data)', (e) => this.documentChanged(e.document.uri)));
    documents.onDidChangeContent(guardNotification(log, 'didChange (data)', (e) => (isDataDocument(e.document.uri) ? this.documentChanged(e.document.uri) : undefined)));
    // A saved spec may link other files; a saved data file may be read from disk (an imported log, a glob's earlier file).
    documents.onDidSave(guardNotification(log, 'didSave (data)', () => this.linksMayHaveChanged()));
    documents.onDidClose(guardNotification(log, 'didClose (data)', (e) => this.documentClosed(e.document.uri)));
  }

  initialize(initializationOptions: unknown): void {
    const options: WorkedPairInitializationOptions = typeof initializationOptions === 'object' && initializationOptions !== null ? initializationOptions : {};
    this.pairCommands = options.openWorkedPair === true;
  }

  /** Whether hovers may carry links that open worked pairs. */
  get pairLinks(): boolean {
    return this.pairCommands;
  }

  owns(uri: unknown): boolean {
    return isDataDocument(uri);
  }

  workedPair(params: WorkedPairParams): Promise<WorkedPairResult> {
    return workedPairAnswer(this.session, this.corpora, this.imports, params);
  }

  codeActions(analysis: DocumentAnalysis, diagnostics: readonly Diagnostic[]): CodeAction[] {
    return this.pairCommands ? workedPairActions(analysis, diagnostics) : [];
  }

  async pull(uri: string): Promise<DocumentDiagnosticReport> {
    return { kind: DocumentDiagnosticReportKind.Full, items: await this.data.diagnostics(uri) };
  }

  hover(params: HoverParams): Promise<Hover | null> {
    return this.data.hover(params.textDocument.uri, params.position, { markdown: this.session.features.markdownHover, pairLinks: this.pairCommands });
  }

  private get pushing(): boolean {
    return !this.session.features.pullDiagnostics;
  }

  /** A data file opened or edited: push clients get its diagnostics; a spec opened may link open data files. */
  private async documentChanged(uri: string): Promise<void> {
    if (!isDataDocument(uri)) return this.linksMayHaveChanged();
    if (this.pushing) this.schedule(uri);
  }

  private async documentClosed(uri: string): Promise<void> {
    if (!isDataDocument(uri)) return this.linksMayHaveChanged();
    this.data.forget(uri);
    const timer = this.pending.get(uri);
    if (timer !== undefined) clearTimeout(timer);
    this.pending.delete(uri);
  }

  /** A spec opened, saved or closed: which data files it links may have changed. */
  private async linksMayHaveChanged(): Promise<void> {
    const open = this.session.documents.all().filter((d) => isDataDocument(d.uri));
    if (open.length === 0) return;
    if (this.pushing) for (const d of open) this.schedule(d.uri);
    else if (this.session.features.diagnosticRefresh) await this.connection.languages.diagnostics.refresh();
  }

  private schedule(uri: string): void {
    const timer = this.pending.get(uri);
    if (timer !== undefined) clearTimeout(timer);
    this.pending.set(uri, setTimeout(() => {
      this.pending.delete(uri);
      this.publish(uri).catch((error: unknown) => this.log.error(`publishing diagnostics for ${uri} failed: ${String(error)}`));
    }, pushDelayMs));
  }

  private async publish(uri: string): Promise<void> {
    const document = this.session.documents.get(uri);
    if (document === undefined) return;
    await this.connection.sendDiagnostics({ uri, version: document.version, diagnostics: await this.data.diagnostics(uri) });
  }
}
