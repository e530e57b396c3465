import { fileURLToPath } from 'node:url';
import { heraldVersion } from '../version.js';
import type { AuditResults, Outcome } from './analysis-run.js';

// The lines the server writes to the client's log (VS Code: the HERALD output channel), so a user
// can see which server answers and what each audit did without turning on the protocol trace.

export interface InfoLog {
  info(message: string): void;
}

/** Said once, when the client has initialised the connection. */
export function serverStartLine(trusted: boolean): string {
  return `HERALD language server ${heraldVersion} (Node ${process.version}, ${trusted ? 'trusted' : 'untrusted: no program runs and no linked file outside the workspace folders is read; the client trusts a workspace with initializationOptions.workspaceTrusted = true'})`;
}

/** The spec's path, whole: two specs may share a file name. */
function specName(uri: string): string {
  return uri.startsWith('file:') ? fileURLToPath(uri) : uri;
}

function plural(n: number, word: string): string {
  return `${n} ${word}${n === 1 ? '' : 's'}`;
}

/** What an audit run did: which audits, how long, how many rows were skipped, how its expectations fared. */
export function auditLogLine(uri: string, durationMs: number, latest: boolean, outcome: Outcome<AuditResults>): string {
  const took = `${(durationMs / 1000).toFixed(1)} s`;
  const spec = specName(uri);
  if (outcome.state === 'failed') return `audit of ${spec} failed after ${took}`;
  if (outcome.state === 'cancelled' || !latest) return `audit of ${spec} cancelled after ${took}: a newer edit, save or request replaced it`;
  const { report, dataIssues, failures } = outcome.results;
  // A file that cannot be read is an issue on line 0; the others are rows the audit went on without.
  const skipped = dataIssues.filter((i) => i.line > 0).length;
  const unreadable = dataIssues.length - skipped;
  const audits = report?.audits.map((a) => a.name) ?? [];
  const expectations = report?.audits.flatMap((a) => a.expectations) ?? [];
  const held = expectations.filter((e) => e.passed).length;
  const parts = [
    audits.length > 0 ? `ran ${audits.join(', ')}` : 'produced no report',
    `in ${took}`,
    `${plural(skipped, 'row')} skipped`,
    ...(unreadable > 0 ? [`${plural(unreadable, 'file')} unreadable`] : []),
    ...(expectations.length > 0 ? [`${held}/${expectations.length} expectations hold`] : []),
    ...failures.map((f) => `audit ${f.audit} could not run: ${f.reason}`),
  ];
  return `audit of ${spec}: ${parts.join('; ')}`;
}

/** Logs the audit run's line; the service calls this once per run, whatever its outcome. */
export function logAuditRun(log: InfoLog, run: { readonly uri: string; readonly started: number; readonly isLatest: () => boolean }, outcome: Outcome<AuditResults>): void {
  log.info(auditLogLine(run.uri, Date.now() - run.started, run.isLatest(), outcome));
}
