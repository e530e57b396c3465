import { randomBytes } from 'node:crypto';
import * as path from 'node:path';
import { Uri, ViewColumn, window, type Disposable, type WebviewPanel } from 'vscode';
import { reportRequest, type AuditState, type ReportResult } from '../../server/src/lsp/protocol';
import { renderNoticePage, renderReportPage } from '../../server/src/render/report-page/render-page';
import type { ServerSession } from './server-session';

// "HERALD: Show Audit Report": one webview per spec with the report page of its last finished
// analyses, asked of the server (`reportRequest`) and redrawn when the server says an audit of that
// spec finished. The page runs only dist/report-view.js (nonce'd, fresh per rendering), loads
// nothing else, and the panel keeps no state of its own: hidden, it is rebuilt from the server.

const finished: ReadonlySet<AuditState> = new Set<AuditState>(['passed', 'failed']);

interface ReportPanel {
  readonly panel: WebviewPanel;
  readonly uri: Uri;
  /** Bumped by every refresh, so a slow answer never overwrites a newer one. */
  generation: number;
}

export class ReportPanels implements Disposable {
  private readonly panels = new Map<string, ReportPanel>();
  private readonly subscriptions: { dispose(): void }[];

  constructor(private readonly extensionUri: Uri, private readonly session: ServerSession) {
    // The report holds the audits and the training and comparison blocks: either finishing refreshes it.
    this.subscriptions = [
      session.onAuditStatus((params) => this.statusChanged(params.uri, finished.has(params.state))),
      session.onTrainingStatus((params) => this.statusChanged(params.uri, params.state === 'done')),
    ];
  }

  /** Shows (or reveals) the report of the spec at `uri`. */
  async show(uri: Uri): Promise<void> {
    const key = uri.toString();
    let entry = this.panels.get(key);
    if (entry === undefined) {
      const panel = window.createWebviewPanel('herald.report', `HERALD: ${path.posix.basename(uri.path)}`, { viewColumn: ViewColumn.Beside, preserveFocus: true }, {
        enableScripts: true,
        enableCommandUris: false,
        enableForms: false,
        localResourceRoots: [Uri.joinPath(this.extensionUri, 'dist')],
      });
      entry = { panel, uri, generation: 0 };
      this.panels.set(key, entry);
      panel.onDidDispose(() => this.panels.delete(key));
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
    const html = await this.render(entry);
    // The panel may have closed, or a newer refresh started, while the server answered.
    if (generation !== entry.generation || this.panels.get(key) !== entry) return;
    entry.panel.webview.html = html;
  }

  private async render(entry: ReportPanel): Promise<string> {
    const webview = entry.panel.webview;
    const nonce = randomBytes(18).toString('base64');
    const notice = (message: string): string => renderNoticePage('HERALD audit report', message, { nonce, cspSource: webview.cspSource });
    const client = this.session.running;
    if (client === undefined) return notice('The HERALD language server is not running. Run "HERALD: Restart Language Server", then show the report again.');
    let result: ReportResult | null;
    try {
      result = await client.sendRequest(reportRequest, { uri: client.code2ProtocolConverter.asUri(entry.uri) });
    } catch (error) {
      return notice(`The server could not send the report: ${error instanceof Error ? error.message : String(error)}`);
    }
    if (result === null) return notice('No audit, training-signal audit or comparison of this spec has finished yet. Save the spec to run them; this view updates when they finish.');
    return renderReportPage(result.report, {
      nonce,
      cspSource: webview.cspSource,
      scriptUri: webview.asWebviewUri(Uri.joinPath(this.extensionUri, 'dist', 'report-view.js')).toString(),
      note: `Audit of document version ${result.version}, finished ${new Date(result.finishedAt).toLocaleString()}.`,
    });
  }
}
