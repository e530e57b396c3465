import { fileURLToPath } from 'node:url';
import type { Connection } from 'vscode-languageserver/node';
import { compareSpec } from '../compare/compare-spec.js';
import type { ComparisonReport, SignalReport } from '../report/schema.js';
import { signalFindings } from '../findings/signal-findings.js';
import { signalSpec } from '../signal/signal-spec.js';
import type { Problem } from '../problems/problem.js';
import type { DocumentAnalysis } from './document-analysis.js';
import { trainingSignalStatusNotification, type TrainingSignalStatusParams } from './protocol.js';
import type { ErrorLog } from './safe-handler.js';
import type { Session } from './session.js';

interface FinishedSignal {
  readonly reports: readonly SignalReport[];
  readonly comparisons: readonly ComparisonReport[];
  readonly version: number;
  readonly finishedAt: string;
  readonly generation: number;
}

/** A spec's latest training-signal audits and paired comparisons, for the report view. */
export interface TrainingResults {
  readonly signals: readonly SignalReport[];
  readonly comparisons: readonly ComparisonReport[];
  readonly version: number;
  readonly finishedAt: string;
}

/**
 * Runs a spec's training-signal audits and paired comparisons when the audit mode says so (on open
 * and save; on request in manual mode, with the audit) and keeps the newest results for the
 * `sparse-training-signal` warnings, the hovers and the report view. Both read logs and do
 * arithmetic over groups and question clusters, so they run on the server thread; a newer request
 * makes an older result stale and it is dropped.
 */
export class SignalService {
  private readonly finished = new Map<string, FinishedSignal>();
  private readonly tickets = new Map<string, number>();
  private generation = 0;

  constructor(
    private readonly connection: Connection,
    private readonly session: Session,
    private readonly log: ErrorLog,
    private readonly onFinished: (uri: string) => Promise<void>,
  ) {}

  async opened(uri: string): Promise<void> {
    if ((await this.session.settings.for(uri)).runAudit !== 'manual') await this.start(uri);
  }

  async saved(uri: string): Promise<void> {
    if ((await this.session.settings.for(uri)).runAudit !== 'manual') await this.start(uri);
  }

  async requested(uri: string): Promise<void> {
    await this.start(uri);
  }

  closed(uri: string): void {
    this.tickets.set(uri, (this.tickets.get(uri) ?? 0) + 1);
    this.finished.delete(uri);
  }

  reports(uri: string): readonly SignalReport[] | undefined {
    return this.finished.get(uri)?.reports;
  }

  results(uri: string): TrainingResults | undefined {
    const done = this.finished.get(uri);
    return done === undefined ? undefined : { signals: done.reports, comparisons: done.comparisons, version: done.version, finishedAt: done.finishedAt };
  }

  resultKey(uri: string): string {
    return `s${this.finished.get(uri)?.generation ?? 0}`;
  }

  problems(analysis: DocumentAnalysis): Problem[] {
    const done = this.finished.get(analysis.uri);
    if (done === undefined || analysis.analyzed.problems.some((p) => p.severity === 'error')) return [];
    return signalFindings(done.reports, analysis.analyzed.model);
  }

  private async status(params: TrainingSignalStatusParams): Promise<void> {
    await this.connection.sendNotification(trainingSignalStatusNotification, params);
  }

  private async start(uri: string): Promise<void> {
    const ticket = (this.tickets.get(uri) ?? 0) + 1;
    this.tickets.set(uri, ticket);
    const isLatest = (): boolean => this.tickets.get(uri) === ticket;
    if (!uri.startsWith('file:')) return;
    const analysis = await this.session.analysisFor(uri);
    if (analysis === undefined || !isLatest() || analysis.analyzed.problems.some((p) => p.severity === 'error')) return;
    const hasTraining = analysis.analyzed.model.spec.decls.some((d) => d.kind === 'training');
    const hasComparison = analysis.analyzed.model.spec.decls.some((d) => d.kind === 'comparison');
    if (!hasTraining && !hasComparison) return;
    // As for audits: nothing outside an untrusted workspace is read (the untrusted-file warnings say which).
    if (this.session.untrustedLinks(analysis).length > 0) {
      this.finished.delete(uri);
      await this.status({ uri, state: 'skipped', message: 'not run: a linked file is outside this untrusted workspace' });
      return;
    }
    let outcome;
    let compared;
    try {
      const file = fileURLToPath(uri);
      outcome = hasTraining ? await signalSpec(analysis.text, file) : { reports: [] };
      compared = hasComparison ? await compareSpec(analysis.text, file) : { reports: [] };
    } catch (error) {
      this.log.error(`training-signal audit or comparison of ${uri} failed: ${error instanceof Error ? error.message : String(error)}`);
      if (isLatest()) await this.status({ uri, state: 'error', message: 'the training-signal audit or comparison failed: see the HERALD output' });
      return;
    }
    if (!isLatest()) return;
    if (outcome.reports === undefined || compared.reports === undefined) {
      const usage = outcome.reports === undefined ? outcome.runError : compared.runError;
      await this.status({ uri, state: 'error', message: usage ?? 'the training-signal audit or comparison could not read its data' });
      return;
    }
    this.finished.set(uri, {
      reports: outcome.reports, comparisons: compared.reports, version: analysis.version, finishedAt: new Date().toISOString(), generation: ++this.generation,
    });
    const summary = [
      ...outcome.reports.flatMap((r) => r.detectors.map((d) => `${d.name} reaches the optimizer in ${d.changedGroups} of ${r.groups} groups`)),
      ...compared.reports.map((c) => `${c.name}: EM non-inferiority ${c.nonInferiority.passed ? 'holds' : 'fails'}`),
    ];
    await this.status({ uri, state: 'done', message: summary.join('; ') || 'no detector terms' });
    await this.onFinished(uri);
  }
}
