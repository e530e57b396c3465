import * as path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { BaselineRead } from '../inputs/baseline-file.js';
import type { Problem } from '../problems/problem.js';
import { plural } from '../report/format-numbers.js';
import { newReport, type Report } from '../report/schema.js';
import type { SignalReport } from '../report/training-schema.js';
import type { ComparisonReport } from '../report/training-schema.js';
import type { AuditResults } from './analysis-run.js';
import type { AuditMode } from './settings.js';
import type { DocumentAnalysis } from './document-analysis.js';
import { firstErrorText, notAuditedTitle, type AuditStatusParams, type ReportResult, type SpecErrors, type TrainingSignalStatusParams } from '../contract/protocol.js';

// What a spec's finished analyses leave behind, and what the editor features read from it: the
// problems, the report view's report, the status lines. Plain data and pure functions.

interface Finished {
  /** The document version the analysis ran on. */
  readonly version: number;
  /** ISO time it finished. */
  readonly finishedAt: string;
}

export interface FinishedAudits extends Finished, AuditResults {
  readonly baseline: BaselineRead;
  readonly baselineFile: string;
}

export interface FinishedTraining extends Finished {
  readonly signals: readonly SignalReport[];
  readonly comparisons: readonly ComparisonReport[];
}

/** The newest finished result of each analysis of one spec. */
export interface SpecResults {
  readonly audits?: FinishedAudits | undefined;
  readonly training?: FinishedTraining | undefined;
  /** Changes whenever either does, so pull clients are told the diagnostics changed. */
  readonly generation: number;
}

/** The findings of the spec's latest analyses, anchored on the current text: the one place that turns results into problems. */
export function problemsOf(results: SpecResults | undefined, analysis: DocumentAnalysis): Problem[] {
  // A spec with errors has no model to anchor findings on; the keystroke diagnostics say why.
  if (results === undefined || analysis.analyzed.problems.some((p) => p.severity === 'error')) return [];
  const { audits } = results;
  return analysis.spec.findings({
    report: reportOf(analysis.uri, results)?.report, dataIssues: audits?.dataIssues ?? [], dataOwners: audits?.dataOwners ?? new Map(), failures: audits?.failures ?? [],
    baseline: audits === undefined ? undefined : { read: audits.baseline, file: audits.baselineFile },
  });
}

/**
 * One report for the report view: the spec's audits with its training-signal audits and paired
 * comparisons beside them, as `herald audit`, `signal` and `compare` would write them. A spec with
 * only training or comparison blocks gets a report with no audits.
 */
export function reportOf(uri: string, results: SpecResults | undefined): ReportResult | null {
  const audits = results?.audits;
  const audited = audits?.report === undefined ? null : { report: audits.report, version: audits.version, finishedAt: audits.finishedAt };
  const training = results?.training;
  if (training === undefined || (training.signals.length === 0 && training.comparisons.length === 0)) return audited;
  const extra: Pick<Report, 'signals' | 'comparisons'> = {
    ...(training.signals.length > 0 ? { signals: [...training.signals] } : {}),
    ...(training.comparisons.length > 0 ? { comparisons: [...training.comparisons] } : {}),
  };
  if (audited !== null) return { ...audited, report: { ...audited.report, ...extra } };
  const report: Report = newReport(path.basename(fileURLToPath(uri)), { audits: [], ...extra });
  return { report, version: training.version, finishedAt: training.finishedAt };
}

/**
 * The status line of a finished audit run. An expectation that does not hold is a result
 * (`failed`: "1 of 3 expectations fail"), worded apart from an audit that could not run (`error`).
 */
export function auditStatusOf(uri: string, audits: AuditResults, durationMs: number): AuditStatusParams {
  const expectations = audits.report?.audits.flatMap((a) => a.expectations) ?? [];
  const failed = expectations.filter((e) => !e.passed).length;
  const state = audits.report === undefined ? 'error' : failed > 0 ? 'failed' : 'passed';
  const message = audits.failures.length > 0 ? `the audit could not run: ${audits.failures[0]!.reason}`
    : audits.report === undefined ? 'the audit could not read its data'
    : failed > 0 ? `${failed} of ${expectations.length} expectation${expectations.length === 1 ? '' : 's'} fail${failed === 1 ? 's' : ''}`
    : expectations.length === 0 ? 'audited (no expectations)' : `${expectations.length} of ${expectations.length} expectation${expectations.length === 1 ? ' holds' : 's hold'}`;
  return { uri, state, message: `${message}${idleAttacksText(audits.report)}`, durationMs };
}

/**
 * `; 2 of 2 attacks test nothing`: attacks with no isolated-eligible edit on the pools, so a check
 * mark never stands for an audit whose attacks had nothing to edit (the findings say why).
 */
function idleAttacksText(report: Report | undefined): string {
  const attacks = report?.audits.flatMap((a) => a.attacks) ?? [];
  const idle = attacks.filter((a) => a.counts.rows.isolatedEligible === 0).length;
  return idle === 0 ? '' : `; ${idle} of ${plural(attacks.length, 'attack')} test${idle === 1 ? 's' : ''} nothing`;
}

/** The spec's errors (checker, parser, linked files), counted with the first in the text; undefined when it has none. */
export function specErrorsOf(analysis: DocumentAnalysis): SpecErrors | undefined {
  const errors = analysis.analyzed.problems.filter((p) => p.severity === 'error');
  const first = errors.reduce<(typeof errors)[number] | undefined>((a, p) => (a === undefined || p.span.start < a.span.start ? p : a), undefined);
  if (first === undefined) return undefined;
  return { count: errors.length, first: { line: analysis.lines.range(first.span).start.line + 1, message: first.message } };
}

/** The status of a spec that has errors, so no audit runs on it: how many, and the first (its line and message). */
export function notAuditedStatusOf(uri: string, errors: SpecErrors): AuditStatusParams {
  return { uri, state: 'notAudited', message: `${notAuditedTitle(errors)}; ${firstErrorText(errors)}`, errors };
}

/** The status of a spec whose errors were fixed and that no audit has run on since: what would audit it. */
export function notYetAuditedStatusOf(uri: string, runAudit: AuditMode): AuditStatusParams {
  const how = runAudit === 'manual' ? 'run "HERALD: Run Audit"' : runAudit === 'onSave' ? 'save the spec' : 'pause typing';
  return { uri, state: 'notAudited', message: `not audited since its errors were fixed: ${how} to audit it` };
}

/** The status line of finished training-signal audits and comparisons. */
export function trainingStatusOf(uri: string, training: Pick<FinishedTraining, 'signals' | 'comparisons'>): TrainingSignalStatusParams {
  const summary = [
    ...training.signals.flatMap((r) => r.detectors.map((d) => `${d.name} reaches the optimizer in ${d.changedGroups} of ${r.groups} groups`)),
    ...training.comparisons.map((c) => `${c.name}: EM non-inferiority ${c.nonInferiority.passed ? 'holds' : 'fails'}`),
  ];
  return { uri, state: 'done', message: summary.join('; ') || 'no detector terms' };
}
