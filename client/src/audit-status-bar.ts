import { StatusBarAlignment, ThemeColor, window, type Disposable, type StatusBarItem } from 'vscode';
import { showReportCommand, type AuditState, type AuditStatusParams, type TrainingSignalState, type TrainingSignalStatusParams } from '../../server/src/lsp/protocol';

const icons: Record<AuditState, string> = {
  running: '$(sync~spin)',
  passed: '$(pass)',
  failed: '$(error)',
  error: '$(warning)',
  cancelled: '$(circle-slash)',
  skipped: '$(workspace-untrusted)',
};

/** What the tooltip says a finished run was: an expectation that fails is a result, not a crash. */
const outcomes: Record<AuditState, string> = {
  running: 'running',
  passed: 'finished: every expectation holds',
  failed: 'finished: some expectations fail (the problems are on their expect lines)',
  error: 'could not run',
  cancelled: 'cancelled',
  skipped: 'skipped: it would read files outside this untrusted workspace',
};

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
      const { status, at } = audit;
      const took = status.durationMs === undefined ? '' : `, in ${(status.durationMs / 1000).toFixed(1)} s`;
      this.item.text = `${icons[status.state]} HERALD ${status.state === 'running' ? 'auditing…' : status.message}`;
      this.item.tooltip = status.state === 'running' ? 'HERALD audit running' : `HERALD audit ${outcomes[status.state]}.\n${status.message} (at ${clock(at)}${took}). Click for the report.`;
      // Failing expectations are the spec's errors (red); an audit that could not run is a warning about the run itself.
      this.item.backgroundColor = status.state === 'failed' ? new ThemeColor('statusBarItem.errorBackground')
        : status.state === 'error' ? new ThemeColor('statusBarItem.warningBackground') : undefined;
    } else if (training !== undefined) {
      const { status, at } = training;
      this.item.text = `${trainingIcons[status.state]} HERALD ${status.message}`;
      this.item.tooltip = `HERALD training signal and comparison ${status.state === 'done' ? 'finished' : status.state} at ${clock(at)}. Click for the report.`;
      this.item.backgroundColor = undefined;
    }
    this.item.show();
  }

  dispose(): void {
    this.item.dispose();
    for (const s of this.subscriptions) s.dispose();
  }
}

function clock(at: Date): string {
  return at.toLocaleTimeString([], { hour: '2-digit', minute: '2-digit', second: '2-digit' });
}
