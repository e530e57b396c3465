import * as path from 'node:path';
import { Worker } from 'node:worker_threads';
import type { AnalysisRequest, AuditResults, Outcome, TrainingResults, WorkerReply, WorkerRequest } from './analysis-run.js';
import type { ImportedRows, ImportRequest } from './import-run.js';
import type { WorkspaceTrust } from '../inputs/trust.js';
import { stoppedReason, workerHeapMiB } from './worker-memory.js';

/** A run in the worker: one promise per part it asked for, each resolved as soon as that part ends. */
export interface AnalysisJob {
  /** Undefined when the run asked for no audits. */
  readonly audits: Promise<Outcome<AuditResults>> | undefined;
  /** Undefined when the run asked for no training-signal audits and no comparisons. */
  readonly training: Promise<Outcome<TrainingResults>> | undefined;
  cancel(): void;
}

/** A worker thread and the heap limit it was started with. */
interface Thread {
  readonly worker: Worker;
  readonly heapMiB: number;
}

interface Pending {
  /** The thread running it: a stopped thread fails only its own jobs. */
  readonly thread: Thread;
  readonly onProgress: (message: string) => void;
  /** What the job is, and its latest progress line: what it was at if its thread dies. */
  readonly what: string;
  latest: string | undefined;
  audits: ((outcome: Outcome<AuditResults>) => void) | undefined;
  training: ((outcome: Outcome<TrainingResults>) => void) | undefined;
  imported: ((outcome: Outcome<ImportedRows>) => void) | undefined;
}

/** The rule files are read under, as a request carries it to the worker: the untrusted workspace's folders, the raised input limit. */
export function trustOnWire(trust: WorkspaceTrust, maxInputMiB: number | undefined): Pick<AnalysisRequest, 'untrustedFolders' | 'maxInputMiB'> {
  return { ...(trust.trusted ? {} : { untrustedFolders: trust.folders }), ...(maxInputMiB === undefined ? {} : { maxInputMiB }) };
}

/** A promise and the function that resolves it, as `Promise.withResolvers` (Node 22) gives them. */
function deferred<T>(wanted: boolean): [Promise<T> | undefined, ((value: T) => void) | undefined] {
  if (!wanted) return [undefined, undefined];
  let resolve: ((value: T) => void) | undefined;
  const promise = new Promise<T>((r) => {
    resolve = r;
  });
  return [promise, resolve];
}

export interface RunnerOptions {
  /** The heap limit of a worker for requests under `maxInputMiB`: `workerHeapMiB` by default (tests: a worker that runs out of memory soon). */
  readonly heapMiB?: ((maxInputMiB: number | undefined) => number) | undefined;
}

/**
 * Runs analyses and the editor's imports in one long-lived worker thread: analysis-worker.js beside
 * this file, which in dist/ starts the worker part of the engine bundle the server runs from
 * (dist/engine.js). Cancelling sets a shared flag that the engine polls between rows (and between
 * analyses), so a cancelled run stops within milliseconds and the worker keeps its caches for the
 * next one.
 *
 * The worker's heap is limited (`worker-memory.ts`), so data that would exhaust memory stops the
 * worker, never the server: a worker that dies (out of memory, a crash) fails the jobs it had, each
 * with the reason worded for the spec (`stopped`), and the next request starts a fresh one. A request
 * under larger input limits than the worker's heap was sized for starts a new worker; the old one
 * finishes its jobs and stops.
 */
export class AnalysisRunner {
  private thread: Thread | undefined;
  private nextId = 1;
  private readonly pending = new Map<number, Pending>();
  /** Threads that take no new job: stopped by `dispose`, or replaced by a larger one. */
  private readonly retired = new WeakSet<Worker>();

  constructor(private readonly workerFile = path.join(__dirname, 'analysis-worker.js'), private readonly options: RunnerOptions = {}) {}

  /** Runs and imports started and not yet finished: what tests read to see that nothing is left behind. */
  get running(): number {
    return this.pending.size;
  }

  run(request: AnalysisRequest, onProgress: (message: string) => void): AnalysisJob {
    const thread = this.threadFor(request.maxInputMiB);
    const id = this.nextId++;
    const cancel = new SharedArrayBuffer(4);
    const [audits, auditsDone] = deferred<Outcome<AuditResults>>(request.audits);
    const [training, trainingDone] = deferred<Outcome<TrainingResults>>(request.signals || request.comparisons);
    if (audits !== undefined || training !== undefined) {
      const what = `analysing ${path.basename(request.spec.specFile)}`;
      this.pending.set(id, { thread, onProgress, what, latest: undefined, audits: auditsDone, training: trainingDone, imported: undefined });
      thread.worker.postMessage({ kind: 'run', id, request, cancel } satisfies WorkerRequest);
    }
    return { audits, training, cancel: () => Atomics.store(new Int32Array(cancel), 0, 1) };
  }

  /** Imports a pool in the worker (`loadPoolLink`) and answers the rows asked for. */
  importRows(request: ImportRequest): Promise<Outcome<ImportedRows>> {
    const thread = this.threadFor(request.maxInputMiB);
    const id = this.nextId++;
    const [imported, done] = deferred<Outcome<ImportedRows>>(true);
    const what = `importing pool ${request.pool.name} (${request.pool.importer?.format ?? 'JSONL'}) for the editor`;
    this.pending.set(id, { thread, onProgress: () => undefined, what, latest: undefined, audits: undefined, training: undefined, imported: done });
    thread.worker.postMessage({ kind: 'import', id, request } satisfies WorkerRequest);
    return imported!;
  }

  invalidate(paths: readonly string[]): void {
    this.thread?.worker.postMessage({ kind: 'invalidate', paths } satisfies WorkerRequest);
  }

  async dispose(): Promise<void> {
    const thread = this.thread;
    this.thread = undefined;
    if (thread === undefined) return;
    this.retired.add(thread.worker);
    await thread.worker.terminate();
  }

  /** The worker for a request under `maxInputMiB`: the running one if its heap is large enough, else a new one. */
  private threadFor(maxInputMiB: number | undefined): Thread {
    const heapMiB = (this.options.heapMiB ?? workerHeapMiB)(maxInputMiB);
    const current = this.thread;
    if (current !== undefined && current.heapMiB >= heapMiB) return current;
    if (current !== undefined) this.retire(current);
    const worker = new Worker(this.workerFile, { resourceLimits: { maxOldGenerationSizeMb: heapMiB } });
    const thread: Thread = { worker, heapMiB };
    worker.on('message', (reply: WorkerReply) => this.received(reply));
    // Out of memory (ERR_WORKER_OUT_OF_MEMORY) or an uncaught error: 'error', then 'exit'.
    worker.on('error', (error) => this.stopped(thread, error, undefined));
    worker.on('exit', (code) => this.stopped(thread, undefined, code));
    this.thread = thread;
    return thread;
  }

  /** Takes no new job on the thread, and stops it once its jobs are done. */
  private retire(thread: Thread): void {
    if (this.thread === thread) this.thread = undefined;
    this.retired.add(thread.worker);
    this.stopIfIdle(thread);
  }

  private stopIfIdle(thread: Thread): void {
    if (!this.retired.has(thread.worker) || this.thread === thread) return;
    for (const job of this.pending.values()) if (job.thread === thread) return;
    // Terminating resolves when the thread has stopped; nothing waits for that here.
    thread.worker.terminate().catch(() => undefined);
  }

  private received(reply: WorkerReply): void {
    const job = this.pending.get(reply.id);
    if (job === undefined) return;
    switch (reply.kind) {
      case 'progress':
        job.latest = reply.message;
        job.onProgress(reply.message);
        return;
      case 'audits':
        job.audits?.(reply.outcome);
        job.audits = undefined;
        break;
      case 'training':
        job.training?.(reply.outcome);
        job.training = undefined;
        break;
      case 'imported':
        job.imported?.(reply.outcome);
        job.imported = undefined;
        break;
    }
    if (job.audits !== undefined || job.training !== undefined || job.imported !== undefined) return;
    this.pending.delete(reply.id);
    this.stopIfIdle(job.thread);
  }

  /**
   * The thread died or was stopped: its pending jobs fail, worded for the spec unless the server
   * stopped it itself, and the next request starts a new thread.
   */
  private stopped(thread: Thread, error: Error | undefined, exitCode: number | undefined): void {
    if (this.thread === thread) this.thread = undefined;
    const byServer = this.retired.has(thread.worker) && error === undefined;
    for (const [id, job] of this.pending) {
      if (job.thread !== thread) continue;
      const reason = byServer ? undefined : stoppedReason(error, exitCode, thread.heapMiB, job.latest === undefined ? job.what : `${job.what} (${job.latest})`);
      const failed = { state: 'failed', error: reason ?? 'the analysis worker stopped', ...(reason === undefined ? {} : { stopped: reason }) } as const;
      job.audits?.(failed);
      job.training?.(failed);
      job.imported?.(failed);
      this.pending.delete(id);
    }
  }
}
