import { StatusBarAlignment, ThemeColor, window, type Disposable, type StatusBarItem } from 'vscode';
import type { AuditStatusParams } from '../../server/src/lsp/protocol';

const icons: Record<AuditStatusParams['state'], string> = {
  running: '$(sync~spin)',
  passed: '$(pass)',
  failed: '$(error)',
  error: '$(warning)',
  cancelled: '$(circle-slash)',
  skipped: '$(workspace-untrusted)',
};

/** The last audit's state and when it finished, for the spec in the active editor. */
export class AuditStatusBar implements Disposable {
  private readonly item: StatusBarItem = window.createStatusBarItem('herald.audit', StatusBarAlignment.Left, 10);
  private readonly latest = new Map<string, { status: AuditStatusParams; at: Date }>();
  private readonly subscriptions: Disposable[] = [];

  constructor() {
    this.item.name = 'HERALD audit';
    this.item.command = 'herald.showReport';
    this.subscriptions.push(window.onDidChangeActiveTextEditor(() => this.render()));
  }

  update(status: AuditStatusParams): void {
    this.latest.set(status.uri, { status, at: new Date() });
    this.render();
  }

  private render(): void {
    const document = window.activeTextEditor?.document;
    const entry = document === undefined ? undefined : this.latest.get(document.uri.toString());
    if (document?.languageId !== 'reward' || entry === undefined) {
      this.item.hide();
      return;
    }
    const { status, at } = entry;
    const time = at.toLocaleTimeString([], { hour: '2-digit', minute: '2-digit', second: '2-digit' });
    const took = status.durationMs === undefined ? '' : ` in ${(status.durationMs / 1000).toFixed(1)} s`;
    this.item.text = `${icons[status.state]} HERALD ${status.state === 'running' ? 'auditing…' : status.message}`;
    this.item.tooltip = status.state === 'running' ? 'HERALD audit running' : `HERALD audit ${status.state}${took} at ${time}. Click for the report.`;
    this.item.backgroundColor = status.state === 'failed' ? new ThemeColor('statusBarItem.errorBackground') : undefined;
    this.item.show();
  }

  dispose(): void {
    this.item.dispose();
    for (const s of this.subscriptions) s.dispose();
  }
}
