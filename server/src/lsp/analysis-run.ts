// One run of a spec's analyses as the analysis worker executes it, and the messages that cross
// between the server thread and the worker. Everything here is plain data that survives the copy
// between threads: the spec travels as its bound model (semantics/bound-model.ts).
import type { AuditCaches, AuditFailure } from '../audit/audit-spec.js';
import { SpecVersion } from '../host/spec-version.js';
import type { BoundSpec } from '../semantics/bound-model.js';
import type { FileOwner } from '../inputs/load-inputs.js';
import type { RowIssue } from '../pool/types.js';
import type { Report } from '../report/schema.js';
import type { SignalReport } from '../report/training-schema.js';
import type { ComparisonReport } from '../report/training-schema.js';
import { WorkspaceTrust } from '../inputs/trust.js';
import { inputLimitsOf } from '../inputs/input-limits.js';
import type { ImportedRows, ImportRequest } from './import-run.js';

/**
 * What one run analyses: the spec as the server thread checked it (the bound model: the worker does
 * not parse it again), and which of its blocks to run.
 */
export interface AnalysisRequest {
  readonly spec: BoundSpec;
  readonly audits: boolean;
  readonly signals: boolean;
  readonly comparisons: boolean;
  /**
   * Set in a workspace the user has not trusted: its folders. The worker then opens only files
   * inside them (checked again on each opened file, so a link that moved after the server thread
   * checked it is caught) and keeps no ranking cache. Absent in a trusted workspace.
   */
  readonly untrustedFolders?: readonly string[];
  /** `herald.audit.workers`: threads that prepare a large audit; absent: the machine's cores. */
  readonly workers?: number;
  /** `herald.maxInputMiB`: the input limits raised to this many MiB; absent: the defaults. */
  readonly maxInputMiB?: number;
}

export interface AuditResults {
  /** Undefined when data could not be read or an audit could not produce honest figures. */
  readonly report: Report | undefined;
  readonly dataIssues: readonly RowIssue[];
  readonly dataOwners: ReadonlyMap<string, FileOwner>;
  readonly failures: readonly AuditFailure[];
}

/** The training-signal audits and paired comparisons, which the editor shows together. */
export type TrainingResults =
  | { readonly ok: true; readonly signals: readonly SignalReport[]; readonly comparisons: readonly ComparisonReport[] }
  /** A file could not be read, or the request made no sense (`runError` says why when known). */
  | { readonly ok: false; readonly runError: string | undefined };

/** How one part of a run ended. A cancelled part is a normal outcome, not an error. */
export type Outcome<T> =
  | { readonly state: 'done'; readonly results: T }
  | { readonly state: 'cancelled' }
  /** `stopped`: the worker thread died (out of memory, a crash), worded for the spec; `error` is for the log. */
  | { readonly state: 'failed'; readonly error: string; readonly stopped?: string };

export type WorkerRequest =
  | { readonly kind: 'run'; readonly id: number; readonly request: AnalysisRequest; readonly cancel: SharedArrayBuffer }
  | { readonly kind: 'import'; readonly id: number; readonly request: ImportRequest }
  /** Linked files changed on disk: forget what was loaded or prepared from them. */
  | { readonly kind: 'invalidate'; readonly paths: readonly string[] };

/**
 * Per run: progress lines, then exactly one `audits` reply if it asked for audits and one `training`
 * reply if it asked for either of the others. Per import: one `imported` reply.
 */
export type WorkerReply =
  | { readonly kind: 'progress'; readonly id: number; readonly message: string }
  | { readonly kind: 'audits'; readonly id: number; readonly outcome: Outcome<AuditResults> }
  | { readonly kind: 'training'; readonly id: number; readonly outcome: Outcome<TrainingResults> }
  | { readonly kind: 'imported'; readonly id: number; readonly outcome: Outcome<ImportedRows> };

export type PartReply = Extract<WorkerReply, { kind: 'audits' | 'training' }>;

export interface RunContext {
  /** Kept by the worker between runs. */
  readonly cache: AuditCaches;
  readonly isCancelled: () => boolean;
  readonly onProgress: (message: string) => void;
}

export function describe(error: unknown): string {
  return error instanceof Error ? (error.stack ?? error.message) : String(error);
}

/** The rule the request's files are read under: its workspace's folders and its input limits. */
export function trustOf(request: Pick<AnalysisRequest, 'untrustedFolders' | 'maxInputMiB'>): WorkspaceTrust {
  return WorkspaceTrust.of(request.untrustedFolders, inputLimitsOf(request.maxInputMiB));
}

async function runAudits(request: AnalysisRequest, ctx: RunContext): Promise<Outcome<AuditResults>> {
  if (ctx.isCancelled()) return { state: 'cancelled' };
  const { cache, isCancelled, onProgress } = ctx;
  const trust = trustOf(request);
  // The ranking cache lives outside the workspace: an untrusted one neither reads nor writes it.
  const candidateCache = trust.trusted ? undefined : false;
  const outcome = await SpecVersion.ofBound(request.spec).audit({ cache, isCancelled, onProgress, trust, candidateCache, workers: request.workers });
  if (isCancelled()) return { state: 'cancelled' };
  return { state: 'done', results: { report: outcome.report, dataIssues: outcome.dataIssues, dataOwners: outcome.dataOwners, failures: outcome.failures } };
}

// The training analyses poll no flag themselves: a cancelled run stops between them.
async function runTraining(request: AnalysisRequest, ctx: RunContext): Promise<Outcome<TrainingResults>> {
  if (ctx.isCancelled()) return { state: 'cancelled' };
  // A command term's program runs only in a trusted workspace (the trust rule says), with the progress and cancel of the run.
  const options = { cache: ctx.cache.inputs, trust: trustOf(request), onProgress: ctx.onProgress, isCancelled: ctx.isCancelled };
  const spec = SpecVersion.ofBound(request.spec);
  if (request.signals) ctx.onProgress('training-signal audits');
  const signal = request.signals ? await spec.signal(options) : { reports: [], runError: undefined };
  if (signal.reports === undefined) return { state: 'done', results: { ok: false, runError: signal.runError } };
  if (ctx.isCancelled()) return { state: 'cancelled' };
  if (request.comparisons) ctx.onProgress('paired comparisons');
  const compared = request.comparisons ? await spec.compare(options) : { reports: [], runError: undefined };
  if (compared.reports === undefined) return { state: 'done', results: { ok: false, runError: compared.runError } };
  if (ctx.isCancelled()) return { state: 'cancelled' };
  return { state: 'done', results: { ok: true, signals: signal.reports, comparisons: compared.reports } };
}

/** Sends a part's reply; results that cannot be copied to the server thread fail the part, and the error says why. */
export function delivered<R extends Extract<WorkerReply, { outcome: unknown }>>(send: (reply: R) => void, reply: R): void {
  try {
    send(reply);
  } catch (error) {
    send({ ...reply, outcome: { state: 'failed', error: describe(error) } });
  }
}

export async function settle<T>(run: () => Promise<Outcome<T>>): Promise<Outcome<T>> {
  try {
    return await run();
  } catch (error) {
    return { state: 'failed', error: describe(error) };
  }
}

/**
 * Runs what the request asks for, audits first, and hands each part's outcome to `send` as soon as
 * it is known. A part that throws fails alone and the other still runs, so this never rejects.
 */
export async function runAnalyses(id: number, request: AnalysisRequest, ctx: RunContext, send: (reply: PartReply) => void): Promise<void> {
  const deliver = (reply: PartReply): void => delivered(send, reply);
  if (request.audits) deliver({ kind: 'audits', id, outcome: await settle(() => runAudits(request, ctx)) });
  if (request.signals || request.comparisons) deliver({ kind: 'training', id, outcome: await settle(() => runTraining(request, ctx)) });
}

