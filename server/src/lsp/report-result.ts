import * as path from 'node:path';
import { fileURLToPath } from 'node:url';
import { newReport, type Report } from '../report/schema.js';
import type { ReportResult } from './protocol.js';
import type { TrainingResults } from './signal-service.js';

/**
 * One report for the report view: the spec's audits with its training-signal audits and paired
 * comparisons beside them, as `herald audit`, `signal` and `compare` would write them. A spec with
 * only training or comparison blocks gets a report with no audits.
 */
export function withTrainingResults(uri: string, audited: ReportResult | null, training: TrainingResults | undefined): ReportResult | null {
  if (training === undefined || (training.signals.length === 0 && training.comparisons.length === 0)) return audited;
  const extra: Pick<Report, 'signals' | 'comparisons'> = {
    ...(training.signals.length > 0 ? { signals: [...training.signals] } : {}),
    ...(training.comparisons.length > 0 ? { comparisons: [...training.comparisons] } : {}),
  };
  if (audited !== null) return { ...audited, report: { ...audited.report, ...extra } };
  const report: Report = newReport(path.basename(fileURLToPath(uri)), { audits: [], ...extra });
  return { report, version: training.version, finishedAt: training.finishedAt };
}
