import type { AuditFailure } from '../audit/audit-spec.js';
import type { BaselineRead } from '../inputs/baseline-file.js';
import type { FileOwner } from '../inputs/load-inputs.js';
import type { Problem } from '../problems/problem.js';
import type { RowIssue } from '../pool/types.js';
import type { Report } from '../report/schema.js';
import type { SpecModel } from '../semantics/check.js';
import { auditFindings } from './audit-findings.js';
import { baselineFindings } from './baseline-findings.js';
import { comparisonFindings } from './comparison-findings.js';
import { failureFindings, missingFieldFindings, readFindings, rowFindings } from './data-findings.js';
import { signalFindings } from './signal-findings.js';

/** Everything the analyses of one spec produced, as the editor, the CLI and SARIF all receive it. */
export interface FindingsInput {
  /** The checked spec the analyses ran on, and its text (findings anchor on both). */
  readonly model: SpecModel;
  readonly text: string;
  readonly specDir: string;
  /** Audits, training signals and comparisons; undefined when none ran. */
  readonly report: Report | undefined;
  /** Rows skipped in any file read, and files that could not be read (line 0: the audits could not run). */
  readonly dataIssues: readonly RowIssue[];
  /** The declaration each data file was read for (`IssueLog.owners`): where its skipped rows are shown. */
  readonly dataOwners: ReadonlyMap<string, FileOwner>;
  /** Audits that could not produce finite figures. */
  readonly failures: readonly AuditFailure[];
  readonly baseline?: { readonly read: BaselineRead; readonly file: string } | undefined;
}

/**
 * The one place a finding is worded: every problem the analyses found, anchored on the spec where
 * a user acts (the expect line, the reward line, the cancelling term, the lattice entry, the pool
 * declaration…), with a stable `key` for fingerprints and the data rows it is about.
 */
export function specFindings(results: FindingsInput): Problem[] {
  const { model, text, specDir, report } = results;
  const audits = report?.audits ?? [];
  return [
    ...rowFindings(results.dataIssues, results.dataOwners, model, specDir),
    ...failureFindings(results.dataIssues, results.failures, model),
    ...readFindings(report, model, specDir),
    ...missingFieldFindings(report, model, specDir),
    ...audits.flatMap((audit) => auditFindings(audit, model, text, specDir)),
    ...signalFindings(report?.signals ?? [], model),
    ...comparisonFindings(report?.comparisons ?? [], model),
    ...(results.baseline === undefined ? [] : baselineFindings(results.baseline.read, results.baseline.file, report, model)),
  ];
}
