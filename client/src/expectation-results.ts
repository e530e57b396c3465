import type { AuditStatusParams, ExpectationLine, ReportResult } from '../../server/src/contract/index';

// How each `expect` line fared in an audit run, from the report the server answered with. Pure
// (no vscode), so the Test Explorer and its tests share one reading of the report.

export type ExpectationState = 'passed' | 'failed' | 'errored';

export interface ExpectationVerdict {
  readonly state: ExpectationState;
  /** The observed figure (`asr = 4.54% over 600 isolated-eligible clusters`), or why there is none. */
  readonly message: string;
}

/** What the statement asks, without the keyword: `asr(R0, launder, first_visible) <= 20%`. */
export function expectationLabel(line: Pick<ExpectationLine, 'text'>): string {
  return line.text.replace(/^expect\s+/, '');
}

/**
 * The verdict on one line. `notAudited` says why there is no report (the spec has errors, its data
 * cannot be read); a report without the line means the text changed since the audit ran.
 */
export function expectationVerdict(line: ExpectationLine, result: ReportResult | null, notAudited: string): ExpectationVerdict {
  const audit = result?.report.audits.find((a) => a.name === line.audit);
  if (audit === undefined) return { state: 'errored', message: notAudited };
  const { start } = line.range;
  const found = audit.expectations.find((e) => e.range.start.line === start.line && e.range.start.character === start.character);
  if (found === undefined) return { state: 'errored', message: `audit ${line.audit} has no expectation on line ${start.line + 1} any more: the spec changed while it ran; run again` };
  return found.passed
    ? { state: 'passed', message: found.actual }
    : { state: 'failed', message: `${found.actual} (expected ${expectationLabel(line)})` };
}

/**
 * The verdict on every line of a spec the server says it did not audit (a `notAudited` status):
 * errored with the errors when the spec has some, skipped (no verdict) when it just has not been
 * audited since they were fixed; undefined for any other status. Never the last run's verdict.
 */
export function notAuditedVerdict(status: AuditStatusParams): { readonly state: 'errored' | 'skipped'; readonly message: string } | undefined {
  if (status.state !== 'notAudited') return undefined;
  return { state: status.errors === undefined ? 'skipped' : 'errored', message: status.message };
}
