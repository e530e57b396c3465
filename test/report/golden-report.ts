import { reportVersion, type AuditReport, type Report } from '../../server/src/report/schema.js';
import { heraldVersion } from '../../server/src/version.js';
import { goldenAudit, goldenSpec } from '../helpers/golden-audit.js';

// The golden audit (test/audit/golden.test.ts checks its numbers) wrapped as a whole report, and a
// way to build edited copies without touching the shared one.

export const goldenSpecUri = 'specs/golden.reward';

export function goldenReport(spec = goldenSpec): Report {
  return { version: reportVersion, tool: { name: 'herald', version: heraldVersion }, spec: goldenSpecUri, audits: [goldenAudit(spec)] };
}

export function withAudit(report: Report, edit: (audit: AuditReport) => AuditReport): Report {
  return { ...report, audits: report.audits.map(edit) };
}

/** The golden spec with its second expect line made to fail (the ASR is 50.00%). */
export const failingSpec = goldenSpec.replace('expect asr(R0, launder, first_visible) <= 50%', 'expect asr(R0, launder, first_visible) < 10%');
