import {
  DocumentDiagnosticReportKind,
  type Connection,
  type DocumentDiagnosticParams,
  type DocumentDiagnosticReport,
} from 'vscode-languageserver/node';
import type { Problem } from '../problems/problem.js';
import type { DocumentAnalysis } from './document-analysis.js';
import { diagnosticsOf, toDiagnostic } from './diagnostics.js';
import type { ErrorLog } from './safe-handler.js';
import type { Session } from './session.js';

/** Typing pauses shorter than this publish once; the last edit always publishes. */
const pushDelayMs = 150;

/**
 * Delivers diagnostics the way the client wants them: answered on `textDocument/diagnostic`
 * for pull clients (VS Code), published after edits for the others (Neovim, Emacs).
 */
export class DiagnosticsService {
  private readonly pending = new Map<string, ReturnType<typeof setTimeout>>();
  /** Documents whose open is not yet followed by an edit: TextDocuments reports an open as a change too. */
  private readonly justOpened = new Set<string>();

  constructor(
    private readonly connection: Connection,
    private readonly session: Session,
    private readonly docsUri: string,
    private readonly log: ErrorLog,
    /** Findings of the latest analyses (audits, training signals, comparisons), and a key that changes when they do. */
    private readonly findings: { problems(analysis: DocumentAnalysis): Problem[]; resultKey(uri: string): string },
  ) {}

  private items(analysis: DocumentAnalysis) {
    return [...diagnosticsOf(analysis, this.docsUri), ...this.findings.problems(analysis).map((p) => toDiagnostic(p, analysis, this.docsUri))];
  }

  private get pushing(): boolean {
    return !this.session.features.pullDiagnostics;
  }

  opened(uri: string): void {
    if (!this.pushing) return;
    this.justOpened.add(uri);
    this.schedule(uri, 0);
  }

  changed(uri: string): void {
    if (this.pushing && !this.justOpened.delete(uri)) this.schedule(uri, pushDelayMs);
  }

  async closed(uri: string): Promise<void> {
    this.cancel(uri);
    this.justOpened.delete(uri);
    if (this.pushing) await this.connection.sendDiagnostics({ uri, diagnostics: [] });
  }

  async pull(params: DocumentDiagnosticParams): Promise<DocumentDiagnosticReport> {
    const analysis = await this.session.analysisFor(params.textDocument.uri);
    if (analysis === undefined) return { kind: DocumentDiagnosticReportKind.Full, items: [] };
    const resultId = `${analysis.resultId}.${this.findings.resultKey(analysis.uri)}`;
    if (params.previousResultId === resultId) return { kind: DocumentDiagnosticReportKind.Unchanged, resultId };
    return { kind: DocumentDiagnosticReportKind.Full, resultId, items: this.items(analysis) };
  }

  /** Linked files or settings changed: every open spec may have different problems now. */
  async inputsChanged(): Promise<void> {
    if (this.pushing) {
      for (const document of this.session.documents.all()) this.schedule(document.uri, 0);
    } else if (this.session.features.diagnosticRefresh) {
      await this.connection.languages.diagnostics.refresh();
    }
  }

  private schedule(uri: string, delayMs: number): void {
    this.cancel(uri);
    this.pending.set(uri, setTimeout(() => {
      this.pending.delete(uri);
      this.publish(uri).catch((error: unknown) => this.log.error(`publishing diagnostics for ${uri} failed: ${String(error)}`));
    }, delayMs));
  }

  private cancel(uri: string): void {
    const timer = this.pending.get(uri);
    if (timer !== undefined) clearTimeout(timer);
    this.pending.delete(uri);
  }

  private async publish(uri: string): Promise<void> {
    const analysis = await this.session.analysisFor(uri);
    // Closed meanwhile, or edited again (that edit scheduled its own publish).
    if (analysis === undefined || this.session.documents.get(uri)?.version !== analysis.version || this.pending.has(uri)) return;
    await this.connection.sendDiagnostics({ uri, version: analysis.version, diagnostics: this.items(analysis) });
  }
}
