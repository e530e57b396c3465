import { randomBytes } from 'node:crypto';
import * as path from 'node:path';
import { commands, Position, Range, Uri, ViewColumn, window, workspace, type Disposable, type TextEditor, type WebviewPanel } from 'vscode';
import { type AuditState, openWorkedPairCommand, renderNoticePage, renderReportPage, reportFiles, reportRequest, type ReportResult, viewMessageOf, type WorkedPairParams } from '../../server/src/contract/index';
import { followActiveSpec, reportNote } from './report-panel-state';
import type { ServerSession } from './server-session';

// "HERALD: Show Audit Report": one webview per spec with the report page of its last finished
// analyses, asked of the server (`reportRequest`) and redrawn when the server says an audit of that
// spec finished. The page runs only dist/report-view.js (nonce'd, fresh per rendering), loads
// nothing else, and the panel keeps no state of its own: hidden, it is rebuilt from the server.
// The page may post one thing: a row or worked pair a reader clicked; the panel opens that row of
// a file the shown report names, or the pair side by side (trajectory-diff.ts). The report on
// screen follows the active editor: switching to another spec shows that spec's report.

const finished: ReadonlySet<AuditState> = new Set<AuditState>(['passed', 'failed']);

interface ReportPanel {
  readonly panel: WebviewPanel;
  /** The spec shown: it changes when the panel follows the active editor to another spec. */
  uri: Uri;
  /** Bumped by every refresh, so a slow answer never overwrites a newer one. */
  generation: number;
  /** The data files the shown report names (relative to the spec's folder): the only ones the page may open. */
  files: ReadonlySet<string>;
}

/** The spec's editor state when it is open: what the report note compares the audited version with. */
function openSpec(uri: Uri): { version: number; dirty: boolean } | undefined {
  const document = workspace.textDocuments.find((d) => d.uri.toString() === uri.toString());
  return document === undefined ? undefined : { version: document.version, dirty: document.isDirty };
}

export class ReportPanels implements Disposable {
  private readonly panels = new Map<string, ReportPanel>();
  private readonly subscriptions: { dispose(): void }[];

  constructor(private readonly extensionUri: Uri, private readonly session: ServerSession) {
    // The report holds the audits and the training and comparison blocks: either finishing refreshes it.
    this.subscriptions = [
      session.onAuditStatus((params) => this.statusChanged(params.uri, finished.has(params.state))),
      session.onTrainingStatus((params) => this.statusChanged(params.uri, params.state === 'done')),
      window.onDidChangeActiveTextEditor((editor) => this.follow(editor)),
    ];
  }

  private static title(uri: Uri): string {
    return `HERALD: ${path.posix.basename(uri.path)}`;
  }

  /** The report on screen follows the spec the reader switched to. */
  private follow(editor: TextEditor | undefined): void {
    if (editor?.document.languageId !== 'reward') return;
    const active = editor.document.uri.toString();
    const action = followActiveSpec([...this.panels.values()].map((e) => ({ spec: e.uri.toString(), visible: e.panel.visible })), active);
    if (action.kind === 'reveal') {
      this.panels.get(action.spec)?.panel.reveal(undefined, true);
    } else if (action.kind === 'retarget') {
      const entry = this.panels.get(action.from);
      if (entry === undefined) return;
      this.panels.delete(action.from);
      entry.uri = editor.document.uri;
      entry.files = new Set();
      entry.panel.title = ReportPanels.title(entry.uri);
      this.panels.set(active, entry);
      this.refresh(active, entry).catch(() => undefined);
    }
  }

  /** Shows (or reveals) the report of the spec at `uri`. */
  async show(uri: Uri): Promise<void> {
    const key = uri.toString();
    let entry = this.panels.get(key);
    if (entry === undefined) {
      const panel = window.createWebviewPanel('herald.report', ReportPanels.title(uri), { viewColumn: ViewColumn.Beside, preserveFocus: true }, {
        enableScripts: true,
        enableCommandUris: false,
        enableForms: false,
        localResourceRoots: [Uri.joinPath(this.extensionUri, 'dist')],
      });
      const made: ReportPanel = { panel, uri, generation: 0, files: new Set() };
      entry = made;
      this.panels.set(key, made);
      // The key at disposal: the panel may have followed the reader to another spec since.
      panel.onDidDispose(() => this.panels.delete(made.uri.toString()));
      panel.webview.onDidReceiveMessage((message: unknown) => {
        this.received(made, message).catch(async (error: unknown) => {
          await window.showWarningMessage(`HERALD could not open that: ${error instanceof Error ? error.message : String(error)}`);
        });
      });
    } else {
      entry.panel.reveal(undefined, true);
    }
    await this.refresh(key, entry);
  }

  dispose(): void {
    for (const subscription of this.subscriptions) subscription.dispose();
    for (const entry of [...this.panels.values()]) entry.panel.dispose();
    this.panels.clear();
  }

  private statusChanged(uri: string, done: boolean): void {
    const entry = this.panels.get(uri);
    if (entry === undefined || !done) return;
    this.refresh(uri, entry).catch(() => undefined);
  }

  private async refresh(key: string, entry: ReportPanel): Promise<void> {
    const generation = ++entry.generation;
    const { html, files } = await this.render(entry);
    // The panel may have closed, or a newer refresh started, while the server answered.
    if (generation !== entry.generation || this.panels.get(key) !== entry) return;
    entry.files = files;
    entry.panel.webview.html = html;
  }

  /** A row or a worked pair the reader clicked on the page. */
  private async received(entry: ReportPanel, value: unknown): Promise<void> {
    const message = viewMessageOf(value);
    if (message === undefined) return;
    if (message.kind === 'openRow') {
      if (!entry.files.has(message.file)) return;
      const at = new Position(message.line - 1, 0);
      // Beside the report, where the spec is: the report keeps its column.
      await window.showTextDocument(Uri.joinPath(entry.uri, '..', message.file), { selection: new Range(at, at), viewColumn: ViewColumn.One, preview: true });
      return;
    }
    const uri = this.session.running?.code2ProtocolConverter.asUri(entry.uri) ?? entry.uri.toString();
    await commands.executeCommand(openWorkedPairCommand, { uri, audit: message.audit, ...message.pair } satisfies WorkedPairParams, { viewColumn: ViewColumn.One });
  }

  private async render(entry: ReportPanel): Promise<{ html: string; files: ReadonlySet<string> }> {
    const webview = entry.panel.webview;
    const nonce = randomBytes(18).toString('base64');
    const notice = (message: string) => ({ html: renderNoticePage('HERALD audit report', message, { nonce, cspSource: webview.cspSource }), files: new Set<string>() });
    const client = this.session.running;
    if (client === undefined) return notice('The HERALD language server is not running. Run "HERALD: Restart Language Server", then show the report again.');
    let result: ReportResult | null;
    try {
      result = await client.sendRequest(reportRequest, { uri: client.code2ProtocolConverter.asUri(entry.uri) });
    } catch (error) {
      return notice(`The server could not send the report: ${error instanceof Error ? error.message : String(error)}`);
    }
    if (result === null) return notice(`${path.posix.basename(entry.uri.path)} is not audited yet: no audit, training-signal audit or comparison of it has finished. Save the spec to run them; this view updates when they finish.`);
    const html = renderReportPage(result.report, {
      nonce,
      cspSource: webview.cspSource,
      scriptUri: webview.asWebviewUri(Uri.joinPath(this.extensionUri, 'dist', 'report-view.js')).toString(),
      note: reportNote(path.posix.basename(entry.uri.path), new Date(result.finishedAt).toLocaleString(), result.version, openSpec(entry.uri)),
    });
    return { html, files: reportFiles(result.report) };
  }
}
