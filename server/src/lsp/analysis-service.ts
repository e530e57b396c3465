import * as path from 'node:path';
import { fileURLToPath } from 'node:url';
import { MessageType, ShowMessageNotification, type Connection, type WorkDoneProgressServerReporter } from 'vscode-languageserver/node';
import { makeBaseline } from '../audit/baseline.js';
import { baselineFileOf, readBaseline, writeBaseline } from '../inputs/baseline-file.js';
import type { WorkspaceTrust } from '../inputs/trust.js';
import type { HeraldSettings } from './settings.js';
import type { Problem } from '../problems/problem.js';
import type { Report } from '../report/schema.js';
import type { ComparisonReport, SignalReport } from '../report/training-schema.js';
import {
  auditStatusOf, notAuditedStatusOf, notYetAuditedStatusOf, problemsOf, reportOf, specErrorsOf, trainingStatusOf, type SpecResults,
} from './analysis-results.js';
import type { AnalysisRequest, AuditResults, Outcome, TrainingResults } from './analysis-run.js';
import { trustOnWire, type AnalysisJob, type AnalysisRunner } from './analysis-runner.js';
import type { DocumentAnalysis } from './document-analysis.js';
import {
  auditStatusNotification, errorCount, firstErrorText, trainingSignalStatusNotification, type AuditStatusParams, type ReportResult, type TrainingSignalStatusParams,
} from '../contract/protocol.js';
import type { ErrorLog } from './safe-handler.js';
import type { Session } from './session.js';
import { logAuditRun } from './server-log.js';

/** In on-type mode, a run starts after typing pauses this long. */
const typingPauseMs = 800;
/** The status follows the spec's errors after typing pauses this long (as pushed diagnostics do). */
const errorPauseMs = 150;

/** The part of a run whose new results the editor should show. */
export type FinishedPart = 'audits' | 'training';

/** One run's bookkeeping on the server thread. */
interface RunContext {
  readonly uri: string;
  readonly version: number;
  readonly started: number;
  /** The spec's audits: where a worker that died is said, as an audit that could not run. */
  readonly audits: readonly string[];
  /** False once a newer save, edit, request or close made this run stale. */
  readonly isLatest: () => boolean;
}

/**
 * Which analyses a run covers: every one on open, save and request; only the audits after a typing
 * pause (on-type mode), as the setting says, so typing never queues long training-log reads.
 */
type RunScope = 'all' | 'audits';

/** The analyses a spec's blocks call for within the scope, under the workspace's trust; undefined when there are none. */
function requestOf(analysis: DocumentAnalysis, scope: RunScope, trust: WorkspaceTrust, settings: HeraldSettings): AnalysisRequest | undefined {
  const has = (kind: 'audit' | 'training' | 'comparison'): boolean =>
    (kind === 'audit' || scope === 'all') && analysis.analyzed.model.spec.decls.some((d) => d.kind === kind);
  const request: AnalysisRequest = {
    spec: analysis.spec.bound, audits: has('audit'), signals: has('training'), comparisons: has('comparison'),
    ...trustOnWire(trust, settings.maxInputMiB),
    ...(settings.auditWorkers > 0 ? { workers: settings.auditWorkers } : {}),
  };
  return request.audits || request.signals || request.comparisons ? request : undefined;
}

/**
 * Runs each open spec's audits, training-signal audits and comparisons in the analysis worker when
 * `herald.audit.run` says so (on open and save, after typing pauses, or only on request), shows
 * work-done progress, cancels a run that a newer save, edit or close makes stale, and keeps the
 * newest finished results for diagnostics, hovers, code lenses and the report view.
 */
export class AnalysisService {
  private readonly results = new Map<string, SpecResults>();
  private readonly running = new Map<string, AnalysisJob>();
  /** The latest run asked for, per document: a run holding an older ticket is stale. */
  private readonly tickets = new Map<string, number>();
  private readonly typingTimers = new Map<string, ReturnType<typeof setTimeout>>();
  /** Documents whose open is not yet followed by an edit: TextDocuments reports an open as a change too. */
  private readonly justOpened = new Set<string>();
  private readonly errorTimers = new Map<string, ReturnType<typeof setTimeout>>();
  /** The audit status last sent per document, so the same one is not sent twice. */
  private readonly shownStatus = new Map<string, AuditStatusParams>();
  /** The status of the last audit that finished on the spec, shown again when errors typed since are fixed. */
  private readonly finishedStatus = new Map<string, AuditStatusParams>();
  private lastTicket = 0;
  private generation = 0;

  constructor(
    private readonly connection: Connection,
    private readonly session: Session,
    private readonly runner: AnalysisRunner,
    private readonly log: ErrorLog,
    private readonly onFinished: (uri: string, part: FinishedPart) => Promise<void>,
  ) {}

  async opened(uri: string): Promise<void> {
    this.justOpened.add(uri);
    if ((await this.session.settings.for(uri)).runAudit !== 'manual') await this.start(uri);
  }

  async saved(uri: string): Promise<void> {
    if ((await this.session.settings.for(uri)).runAudit !== 'manual') await this.start(uri);
  }

  /** An edit makes a running analysis stale; in on-type mode it also schedules a new one. */
  async changed(uri: string): Promise<void> {
    // The open itself: its run is starting, and no typing pause should replace it.
    if (this.justOpened.delete(uri)) return;
    this.supersede(uri);
    this.followErrorsSoon(uri);
    if ((await this.session.settings.for(uri)).runAudit !== 'onType') return;
    this.typingTimers.set(uri, setTimeout(() => {
      this.typingTimers.delete(uri);
      this.start(uri, 'audits').catch((error: unknown) => this.log.error(`analysis of ${uri} failed: ${String(error)}`));
    }, typingPauseMs));
  }

  /** The "Run Audit" command: runs whatever the mode, and resolves when the run ended. */
  async requested(uri: string): Promise<ReportResult | null> {
    await this.start(uri);
    return this.report(uri);
  }

  closed(uri: string): void {
    this.justOpened.delete(uri);
    clearTimeout(this.errorTimers.get(uri));
    this.errorTimers.delete(uri);
    this.supersede(uri);
    this.results.delete(uri);
    this.tickets.delete(uri);
    this.shownStatus.delete(uri);
    this.finishedStatus.delete(uri);
  }

  /** Linked data changed on disk: the worker drops what it loaded or prepared from those files. */
  dataChanged(paths: readonly string[]): void {
    this.runner.invalidate(paths);
  }

  /**
   * Linked files or settings changed: a pool deleted or renamed is now an error of every spec that
   * links it (and a restored one is not), so their statuses follow, as they follow edits.
   */
  async inputsChanged(): Promise<void> {
    await Promise.all(this.session.documents.all().map((document) => this.followErrors(document.uri)));
  }

  report(uri: string): ReportResult | null {
    return reportOf(uri, this.results.get(uri));
  }

  auditReport(uri: string): Report | undefined {
    return this.results.get(uri)?.audits?.report;
  }

  signalReports(uri: string): readonly SignalReport[] | undefined {
    return this.results.get(uri)?.training?.signals;
  }

  comparisonReports(uri: string): readonly ComparisonReport[] | undefined {
    return this.results.get(uri)?.training?.comparisons;
  }

  /** A key that changes whenever the findings for the document do (for pull `resultId`s). */
  resultKey(uri: string): string {
    return `r${this.results.get(uri)?.generation ?? 0}`;
  }

  problems(analysis: DocumentAnalysis): Problem[] {
    return problemsOf(this.results.get(analysis.uri), analysis);
  }

  /** Writes the latest audit's figures as the spec's baseline, so its regressions are accepted. */
  async acceptBaseline(uri: string): Promise<boolean> {
    const audits = this.results.get(uri)?.audits;
    const analysis = await this.session.analysisFor(uri);
    if (audits?.report === undefined || analysis === undefined) return false;
    const written = writeBaseline(audits.baselineFile, makeBaseline(audits.report, analysis.analyzed.model), this.session.trust);
    if (!written.ok) {
      await this.connection.sendNotification(ShowMessageNotification.type, { type: MessageType.Warning, message: `HERALD: the baseline was not written: ${written.reason}` });
      return false;
    }
    this.record(uri, { audits: { ...audits, baseline: readBaseline(audits.baselineFile, this.session.trust) } });
    await this.onFinished(uri, 'audits');
    return true;
  }

  private record(uri: string, change: Omit<SpecResults, 'generation'>): void {
    this.results.set(uri, { ...this.results.get(uri), ...change, generation: ++this.generation });
  }

  /** Makes every earlier run of the document stale (and cancels it); returns the check for a run started now. */
  private supersede(uri: string): () => boolean {
    const ticket = ++this.lastTicket;
    this.tickets.set(uri, ticket);
    this.running.get(uri)?.cancel();
    this.running.delete(uri);
    const timer = this.typingTimers.get(uri);
    if (timer !== undefined) clearTimeout(timer);
    this.typingTimers.delete(uri);
    return () => this.tickets.get(uri) === ticket;
  }

  private async start(uri: string, scope: RunScope = 'all'): Promise<void> {
    const isLatest = this.supersede(uri);
    if (!uri.startsWith('file:')) return;
    const analysis = await this.session.analysisFor(uri);
    if (analysis === undefined || !isLatest()) return;
    // A spec with errors cannot be analysed; the keystroke diagnostics say why, and the status says it is not audited.
    if (specErrorsOf(analysis) !== undefined) return this.notAudited(analysis);
    const request = requestOf(analysis, scope, this.session.trust, await this.session.settings.for(uri));
    if (request === undefined) return;
    const untrusted = this.session.untrustedLinks(analysis);
    // The untrusted-file warnings on the links say which files and why; the baseline has no link, so the status names it.
    if (untrusted.length > 0) return this.skipped(uri, request, untrusted);

    const progress = this.session.features.workDoneProgress ? await this.connection.window.createWorkDoneProgress() : undefined;
    if (!isLatest()) {
      progress?.done();
      return;
    }
    progress?.begin(request.audits ? 'HERALD audit' : 'HERALD training signal', undefined, 'starting', true);
    const job = this.runner.run(request, (message) => progress?.report(message));
    progress?.token.onCancellationRequested(() => job.cancel());
    this.running.set(uri, job);
    const audits = analysis.analyzed.model.spec.decls.flatMap((d) => (d.kind === 'audit' && d.name !== undefined ? [d.name.text] : []));
    const run: RunContext = { uri, version: analysis.version, started: Date.now(), audits, isLatest };
    if (request.audits) await this.auditStatus({ uri, state: 'running', message: 'auditing…' });
    const arrived = this.lastPartEnds(uri, job, progress);
    await Promise.all([
      job.audits?.then(arrived).then((outcome) => this.auditsEnded(run, outcome)),
      job.training?.then(arrived).then((outcome) => this.trainingEnded(run, outcome)),
    ]);
  }

  /** Passes each part's outcome on; the last one to arrive ends the run's progress first. */
  private lastPartEnds(uri: string, job: AnalysisJob, progress: WorkDoneProgressServerReporter | undefined): <T>(outcome: T) => T {
    let open = (job.audits === undefined ? 0 : 1) + (job.training === undefined ? 0 : 1);
    return (outcome) => {
      if (--open > 0) return outcome;
      progress?.done();
      if (this.running.get(uri) === job) this.running.delete(uri);
      return outcome;
    };
  }

  /** Whether the spec's audit state is shown at all: it has an audit, or a status was sent for it. */
  private announces(analysis: DocumentAnalysis): boolean {
    return this.shownStatus.has(analysis.uri) || analysis.analyzed.model.spec.decls.some((d) => d.kind === 'audit');
  }

  /**
   * An audit, training or comparison was asked for but the spec has errors: the earlier results are
   * withdrawn (lenses, hovers and the report view would show them as the spec's) and the status
   * says it is not audited, with the errors.
   */
  private async notAudited(analysis: DocumentAnalysis): Promise<void> {
    const { uri } = analysis;
    const errors = specErrorsOf(analysis);
    if (errors === undefined) return;
    const had = this.results.get(uri);
    const withdrawn = had?.audits !== undefined || had?.training !== undefined;
    this.finishedStatus.delete(uri);
    if (withdrawn) this.record(uri, { audits: undefined, training: undefined });
    if (this.announces(analysis)) await this.auditStatus(notAuditedStatusOf(uri, errors));
    if (had?.training !== undefined) await this.trainingStatus({ uri, state: 'error', message: `not run: ${errorCount(errors)}; ${firstErrorText(errors)}` });
    if (withdrawn) await this.onFinished(uri, 'audits');
  }

  /**
   * The status follows the spec's errors as the Problems panel does, edit by edit: errors make it
   * "not audited"; once they are fixed, the last finished audit's status again (or, with none since
   * the errors, what would audit the spec). Results are kept until an audit is asked for.
   */
  private async followErrors(uri: string): Promise<void> {
    const analysis = await this.session.analysisFor(uri);
    if (analysis === undefined || !this.announces(analysis)) return;
    const errors = specErrorsOf(analysis);
    const shown = this.shownStatus.get(uri);
    if (errors !== undefined) {
      const status = notAuditedStatusOf(uri, errors);
      if (shown?.state !== status.state || shown.message !== status.message) await this.auditStatus(status);
      return;
    }
    if (shown?.state !== 'notAudited') return;
    await this.auditStatus(this.finishedStatus.get(uri) ?? notYetAuditedStatusOf(uri, (await this.session.settings.for(uri)).runAudit));
  }

  /** After a short typing pause, as the pushed diagnostics are: a burst of keystrokes checks the text once. */
  private followErrorsSoon(uri: string): void {
    clearTimeout(this.errorTimers.get(uri));
    this.errorTimers.set(uri, setTimeout(() => {
      this.errorTimers.delete(uri);
      this.followErrors(uri).catch((error: unknown) => this.log.error(`the audit status of ${uri} failed: ${String(error)}`));
    }, errorPauseMs));
  }

  private async skipped(uri: string, request: AnalysisRequest, untrusted: readonly string[]): Promise<void> {
    if (request.audits) {
      const count = untrusted.length;
      const baseline = untrusted.includes(baselineFileOf(request.spec.specFile)) ? ` (the baseline ${path.basename(baselineFileOf(request.spec.specFile))} among them)` : '';
      const status: AuditStatusParams = { uri, state: 'skipped', message: `not audited: ${count} linked file${count === 1 ? ' is' : 's are'} outside this untrusted workspace${baseline}` };
      this.finishedStatus.set(uri, status);
      await this.auditStatus(status);
    }
    if (request.signals || request.comparisons) {
      this.record(uri, { training: undefined });
      await this.trainingStatus({ uri, state: 'skipped', message: 'not run: a linked file is outside this untrusted workspace' });
    }
  }

  private async auditsEnded(run: RunContext, outcome: Outcome<AuditResults>): Promise<void> {
    const { uri, isLatest } = run;
    const durationMs = Date.now() - run.started;
    logAuditRun(this.connection.console, run, outcome);
    if (outcome.state === 'failed') {
      this.log.error(`audit of ${uri} failed: ${outcome.error}`);
      if (!isLatest()) return;
      const { stopped } = outcome;
      if (stopped === undefined) {
        // The earlier results are not this text's: withdrawn, so the lenses do not show them.
        this.record(uri, { audits: undefined });
        await this.auditStatus({ uri, state: 'error', message: 'the audit failed: see the HERALD output', durationMs });
        return this.onFinished(uri, 'audits');
      }
      // The worker died (out of memory, a crash): every audit of the spec could not run, and the diagnostic on each says why.
      return this.audited(run, { report: undefined, dataIssues: [], dataOwners: new Map(), failures: run.audits.map((audit) => ({ audit, reason: stopped })) }, durationMs);
    }
    if (outcome.state === 'cancelled' || !isLatest()) {
      if (isLatest()) await this.auditStatus({ uri, state: 'cancelled', message: 'audit cancelled', durationMs });
      return;
    }
    await this.audited(run, outcome.results, durationMs);
  }

  /** Keeps a run's audit results and tells the editor: status, then diagnostics and lenses. */
  private async audited(run: RunContext, results: AuditResults, durationMs: number): Promise<void> {
    const { uri } = run;
    const baselineFile = baselineFileOf(fileURLToPath(uri));
    const baseline = readBaseline(baselineFile, this.session.trust);
    this.record(uri, { audits: { ...results, version: run.version, finishedAt: new Date().toISOString(), baseline, baselineFile } });
    const status = auditStatusOf(uri, results, durationMs);
    this.finishedStatus.set(uri, status);
    await this.auditStatus(status);
    await this.onFinished(uri, 'audits');
  }

  private async trainingEnded(run: RunContext, outcome: Outcome<TrainingResults>): Promise<void> {
    const { uri, isLatest } = run;
    if (outcome.state === 'failed') {
      this.log.error(`training-signal audit or comparison of ${uri} failed: ${outcome.error}`);
      if (isLatest()) await this.trainingStatus({ uri, state: 'error', message: outcome.stopped ?? 'the training-signal audit or comparison failed: see the HERALD output' });
      return;
    }
    if (outcome.state === 'cancelled' || !isLatest()) return;
    const results = outcome.results;
    if (!results.ok) {
      await this.trainingStatus({ uri, state: 'error', message: results.runError ?? 'the training-signal audit or comparison could not read its data' });
      return;
    }
    this.record(uri, { training: { signals: results.signals, comparisons: results.comparisons, version: run.version, finishedAt: new Date().toISOString() } });
    await this.trainingStatus(trainingStatusOf(uri, results));
    await this.onFinished(uri, 'training');
  }

  private async auditStatus(params: AuditStatusParams): Promise<void> {
    this.shownStatus.set(params.uri, params);
    await this.connection.sendNotification(auditStatusNotification, params);
  }

  private async trainingStatus(params: TrainingSignalStatusParams): Promise<void> {
    await this.connection.sendNotification(trainingSignalStatusNotification, params);
  }
}
