import * as path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Connection } from 'vscode-languageserver/node';
import { makeBaseline } from '../audit/baseline.js';
import { specFindings } from '../findings/spec-findings.js';
import { baselineFileOf, readBaseline, writeBaseline, type BaselineRead } from '../inputs/baseline-file.js';
import type { AuditFailure } from '../audit/audit-spec.js';
import type { RowIssue } from '../pool/types.js';
import type { Report } from '../report/schema.js';
import type { Problem } from '../problems/problem.js';
import type { AuditJob, AuditRunner } from './audit-runner.js';
import type { DocumentAnalysis } from './document-analysis.js';
import { auditStatusNotification, type AuditStatusParams, type ReportResult } from './protocol.js';
import type { ErrorLog } from './safe-handler.js';
import type { Session } from './session.js';

/** In on-type mode, an audit starts after typing pauses this long. */
const typingPauseMs = 800;

interface FinishedAudit {
  readonly version: number;
  readonly report: Report | undefined;
  readonly dataIssues: readonly RowIssue[];
  readonly failures: readonly AuditFailure[];
  readonly finishedAt: string;
  readonly baseline: BaselineRead;
  readonly baselineFile: string;
  /** Changes with every finished audit, so pull clients are told the diagnostics changed. */
  readonly generation: number;
}

/**
 * Runs each open spec's audits in the worker when the user's mode says so (on save, on type, or
 * only on request), shows progress, cancels an audit that a newer save or edit makes stale, and
 * keeps the newest finished result for diagnostics, hovers and the report view.
 */
export class AuditService {
  private readonly finished = new Map<string, FinishedAudit>();
  private readonly running = new Map<string, AuditJob>();
  /** The latest request per document: an audit whose ticket is no longer the latest is stale. */
  private readonly tickets = new Map<string, number>();
  private readonly typingTimers = new Map<string, ReturnType<typeof setTimeout>>();
  private generation = 0;

  constructor(
    private readonly connection: Connection,
    private readonly session: Session,
    private readonly runner: AuditRunner,
    private readonly log: ErrorLog,
    private readonly onFinished: (uri: string) => Promise<void>,
  ) {}

  async opened(uri: string): Promise<void> {
    if ((await this.session.settings.for(uri)).runAudit !== 'manual') await this.start(uri);
  }

  async saved(uri: string): Promise<void> {
    if ((await this.session.settings.for(uri)).runAudit !== 'manual') await this.start(uri);
  }

  /** An edit makes a running audit stale; in on-type mode it also schedules a new one. */
  async changed(uri: string): Promise<void> {
    this.supersede(uri);
    if ((await this.session.settings.for(uri)).runAudit !== 'onType') return;
    this.typingTimers.set(uri, setTimeout(() => {
      this.typingTimers.delete(uri);
      this.start(uri).catch((error: unknown) => this.log.error(`audit of ${uri} failed: ${String(error)}`));
    }, typingPauseMs));
  }

  /** The "Run Audit" command: runs whatever the mode, and resolves when the audit finished. */
  async requested(uri: string): Promise<ReportResult | null> {
    await this.start(uri);
    return this.report(uri);
  }

  closed(uri: string): void {
    this.supersede(uri);
    this.finished.delete(uri);
    this.tickets.delete(uri);
  }

  /** Linked data changed on disk: the worker drops what it loaded from those files. */
  dataChanged(paths: readonly string[]): void {
    this.runner.invalidate(paths);
  }

  report(uri: string): ReportResult | null {
    const done = this.finished.get(uri);
    return done?.report === undefined ? null : { report: done.report, version: done.version, finishedAt: done.finishedAt };
  }

  /** A key that changes whenever the audit findings for the document do (for pull `resultId`s). */
  resultKey(uri: string): string {
    return `a${this.finished.get(uri)?.generation ?? 0}`;
  }

  /** The latest audit's findings, anchored on the current text of the spec. */
  problems(analysis: DocumentAnalysis): Problem[] {
    const done = this.finished.get(analysis.uri);
    if (done === undefined || analysis.analyzed.problems.some((p) => p.severity === 'error')) return [];
    const specDir = path.dirname(fileURLToPath(analysis.uri));
    const model = analysis.analyzed.model;
    return specFindings({
      model, text: analysis.text, specDir, report: done.report, dataIssues: done.dataIssues, failures: done.failures,
      baseline: { read: done.baseline, file: done.baselineFile },
    });
  }

  /** Writes the latest audit's figures as the spec's baseline, so its regressions are accepted. */
  async acceptBaseline(uri: string): Promise<boolean> {
    const done = this.finished.get(uri);
    const analysis = await this.session.analysisFor(uri);
    if (done?.report === undefined || analysis === undefined) return false;
    writeBaseline(done.baselineFile, makeBaseline(done.report, analysis.analyzed.model));
    this.finished.set(uri, { ...done, baseline: readBaseline(done.baselineFile), generation: ++this.generation });
    await this.onFinished(uri);
    return true;
  }

  private supersede(uri: string): void {
    this.tickets.set(uri, (this.tickets.get(uri) ?? 0) + 1);
    this.running.get(uri)?.cancel();
    this.running.delete(uri);
    const timer = this.typingTimers.get(uri);
    if (timer !== undefined) clearTimeout(timer);
    this.typingTimers.delete(uri);
  }

  private async status(params: AuditStatusParams): Promise<void> {
    await this.connection.sendNotification(auditStatusNotification, params);
  }

  private async start(uri: string): Promise<void> {
    this.supersede(uri);
    const ticket = this.tickets.get(uri)!;
    const isLatest = (): boolean => this.tickets.get(uri) === ticket;
    if (!uri.startsWith('file:')) return;
    const analysis = await this.session.analysisFor(uri);
    // A spec with errors cannot be audited; the keystroke diagnostics already say why.
    if (analysis === undefined || !isLatest() || analysis.analyzed.problems.some((p) => p.severity === 'error')) return;
    if (!analysis.analyzed.model.spec.decls.some((d) => d.kind === 'audit')) return;
    const untrusted = this.session.untrustedLinks(analysis);
    if (untrusted.length > 0) {
      // The untrusted-file warnings on the links say which files and why.
      await this.status({ uri, state: 'skipped', message: `not audited: ${untrusted.length} linked file${untrusted.length === 1 ? ' is' : 's are'} outside this untrusted workspace` });
      return;
    }

    const progress = this.session.features.workDoneProgress ? await this.connection.window.createWorkDoneProgress() : undefined;
    if (!isLatest()) {
      progress?.done();
      return;
    }
    const started = Date.now();
    progress?.begin('HERALD audit', undefined, 'starting', true);
    const job = this.runner.run(analysis.text, fileURLToPath(uri), (message) => progress?.report(message));
    progress?.token.onCancellationRequested(() => job.cancel());
    this.running.set(uri, job);
    await this.status({ uri, state: 'running', message: 'auditing…' });

    let result;
    try {
      result = await job.result;
    } catch (error) {
      this.log.error(`audit of ${uri} failed: ${error instanceof Error ? error.message : String(error)}`);
      if (isLatest()) await this.status({ uri, state: 'error', message: 'the audit failed: see the HERALD output', durationMs: Date.now() - started });
      return;
    } finally {
      progress?.done();
      if (this.running.get(uri) === job) this.running.delete(uri);
    }
    if (result.cancelled || !isLatest()) {
      if (isLatest()) await this.status({ uri, state: 'cancelled', message: 'audit cancelled', durationMs: Date.now() - started });
      return;
    }
    const baselineFile = baselineFileOf(fileURLToPath(uri));
    this.finished.set(uri, {
      version: analysis.version, report: result.report, dataIssues: result.dataIssues, failures: result.failures, finishedAt: new Date().toISOString(),
      baseline: readBaseline(baselineFile), baselineFile, generation: ++this.generation,
    });
    const expectations = result.report?.audits.flatMap((a) => a.expectations) ?? [];
    const failed = expectations.filter((e) => !e.passed).length;
    await this.status({
      uri,
      state: result.report === undefined ? 'error' : failed > 0 ? 'failed' : 'passed',
      message: result.failures.length > 0 ? `the audit could not run: ${result.failures[0]!.reason}`
        : result.report === undefined ? 'the audit could not read its data' : `${expectations.length - failed}/${expectations.length} expectations hold`,
      durationMs: Date.now() - started,
    });
    await this.onFinished(uri);
  }
}
