import { firstErrorText, notAuditedTitle, type AuditState, type AuditStatusParams } from '../../server/src/contract/index';

// What the status bar shows for a spec's audit status: its text, tooltip and background. Pure (no
// vscode), so the wording is tested without an editor.

const icons: Record<AuditState, string> = {
  running: '$(sync~spin)',
  passed: '$(pass)',
  failed: '$(error)',
  error: '$(warning)',
  cancelled: '$(circle-slash)',
  skipped: '$(workspace-untrusted)',
  notAudited: '$(circle-slash)',
};

/** What the tooltip says a finished run was: an expectation that fails is a result, not a crash. */
const outcomes: Record<Exclude<AuditState, 'running' | 'notAudited'>, string> = {
  passed: 'finished: every expectation holds',
  failed: 'finished: some expectations fail (the problems are on their expect lines)',
  error: 'could not run',
  cancelled: 'cancelled',
  skipped: 'skipped: it would read files outside this untrusted workspace',
};

export interface AuditStatusView {
  readonly text: string;
  readonly tooltip: string;
  /** The theme's status-bar background: red for the spec's own errors and failing expectations, amber for a run that could not run. */
  readonly background: 'error' | 'warning' | undefined;
}

/**
 * The status bar for one status. A spec that is not audited says so with its errors, and its tooltip
 * gives no time: no audit of this text finished, and the last one's result is not its result.
 */
export function auditStatusView(status: AuditStatusParams, at: Date): AuditStatusView {
  if (status.state === 'running') return { text: `${icons.running} HERALD auditing…`, tooltip: 'HERALD audit running', background: undefined };
  if (status.state === 'notAudited') {
    const { errors } = status;
    if (errors === undefined) {
      return { text: `${icons.notAudited} HERALD not audited`, tooltip: `HERALD: ${status.message}. No result shows until it is audited.`, background: undefined };
    }
    return {
      text: `${icons.notAudited} HERALD ${notAuditedTitle(errors)}`,
      tooltip: `HERALD did not audit this spec: it has errors (the Problems panel lists them), and earlier results are not shown.\nThe first: ${firstErrorText(errors)}`,
      background: 'error',
    };
  }
  const took = status.durationMs === undefined ? '' : `, in ${(status.durationMs / 1000).toFixed(1)} s`;
  return {
    text: `${icons[status.state]} HERALD ${status.message}`,
    tooltip: `HERALD audit ${outcomes[status.state]}.\n${status.message} (at ${clock(at)}${took}). Click for the report.`,
    // Failing expectations are the spec's errors (red); an audit that could not run is a warning about the run itself.
    background: status.state === 'failed' ? 'error' : status.state === 'error' ? 'warning' : undefined,
  };
}

export function clock(at: Date): string {
  return at.toLocaleTimeString([], { hour: '2-digit', minute: '2-digit', second: '2-digit' });
}
