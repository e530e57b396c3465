// Every custom message between the HERALD client and server, typed once. Plain types only (no
// vscode or LSP imports), so the client can import this file too.
import type { Report } from '../report/schema.js';

/** Client → server request: the last finished audit of a spec, or null when none has finished. */
export const reportRequest = 'herald/report';
export interface ReportParams {
  readonly uri: string;
}
export interface ReportResult {
  readonly report: Report;
  /** The document version the audit ran on. */
  readonly version: number;
  /** ISO time the audit finished. */
  readonly finishedAt: string;
}

/** Client → server request: run the spec's audits now (the "Run Audit" command and manual mode). */
export const runAuditRequest = 'herald/runAudit';
export interface RunAuditParams {
  readonly uri: string;
}

/** Server → client notification: an audit's state changed (for the status bar and the report view). */
export const auditStatusNotification = 'herald/auditStatus';
/** `skipped`: the audit did not run because it would read files the workspace trust rules out. */
export type AuditState = 'running' | 'passed' | 'failed' | 'error' | 'cancelled' | 'skipped';
export interface AuditStatusParams {
  readonly uri: string;
  readonly state: AuditState;
  /** One line for the status bar, e.g. "3/3 expectations hold". */
  readonly message: string;
  /** Milliseconds the audit took, for finished states. */
  readonly durationMs?: number;
}

/**
 * Server → client notification: a spec's training-signal audits finished (or could not run). Sent
 * after each run on open and save, so a client (and the tests) knows the diagnostics are current.
 */
export const trainingSignalStatusNotification = 'herald/trainingSignalStatus';
export interface TrainingSignalStatusParams {
  readonly uri: string;
  readonly state: 'done' | 'skipped' | 'error';
  /** One line, e.g. "L reaches the optimizer in 9 of 128 groups". */
  readonly message: string;
}
