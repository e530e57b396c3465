import { StatusBarAlignment, ThemeColor, window, type Disposable, type StatusBarItem } from 'vscode';
import { showReportCommand, type AuditStatusParams, type TrainingSignalState, type TrainingSignalStatusParams } from '../../server/src/contract/index';
import { auditStatusView, clock } from './audit-status-view';

const trainingIcons: Record<TrainingSignalState, string> = {
  done: '$(graph-line)',
  error: '$(warning)',
  skipped: '$(workspace-untrusted)',
};

/**
 * The last audit's state and when it finished, for the spec in the active editor. A spec with only
 * training and comparison blocks has no audit, so its training-signal summary stands in.
 */
export class AuditStatusBar implements Disposable {
  private readonly item: StatusBarItem = window.createStatusBarItem('herald.audit', StatusBarAlignment.Left, 10);
  private readonly latest = new Map<string, { status: AuditStatusParams; at: Date }>();
  private readonly latestTraining = new Map<string, { status: TrainingSignalStatusParams; at: Date }>();
  private readonly subscriptions: Disposable[] = [];

  constructor() {
    this.item.name = 'HERALD audit';
    this.item.command = showReportCommand;
    this.subscriptions.push(window.onDidChangeActiveTextEditor(() => this.render()));
  }

  update(status: AuditStatusParams): void {
    this.latest.set(status.uri, { status, at: new Date() });
    this.render();
  }

  updateTraining(status: TrainingSignalStatusParams): void {
    this.latestTraining.set(status.uri, { status, at: new Date() });
    this.render();
  }

  private render(): void {
    const document = window.activeTextEditor?.document;
    const uri = document?.uri.toString();
    const audit = uri === undefined ? undefined : this.latest.get(uri);
    const training = uri === undefined ? undefined : this.latestTraining.get(uri);
    if (document?.languageId !== 'reward' || (audit === undefined && training === undefined)) {
      this.item.hide();
      return;
    }
    if (audit !== undefined) {
      const view = auditStatusView(audit.status, audit.at);
      this.item.text = view.text;
      this.item.tooltip = view.tooltip;
      this.item.backgroundColor = view.background === undefined ? undefined : new ThemeColor(`statusBarItem.${view.background}Background`);
    } else if (training !== undefined) {
      const { status, at } = training;
      this.item.text = `${trainingIcons[status.state]} HERALD ${status.message}`;
      // Only a finished run has a time: one that did not run (errors in the spec) has no result to date.
      this.item.tooltip = status.state === 'done' ? `HERALD training signal and comparison finished at ${clock(at)}. Click for the report.`
        : `HERALD training signal and comparison: ${status.message}.`;
      this.item.backgroundColor = undefined;
    }
    this.item.show();
  }

  dispose(): void {
    this.item.dispose();
    for (const s of this.subscriptions) s.dispose();
  }
}
