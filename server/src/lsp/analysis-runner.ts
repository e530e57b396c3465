import * as path from 'node:path';
import { Worker } from 'node:worker_threads';
import type { AnalysisRequest, AuditResults, Outcome, TrainingResults, WorkerReply, WorkerRequest } from './analysis-run.js';

/** A run in the worker: one promise per part it asked for, each resolved as soon as that part ends. */
export interface AnalysisJob {
  /** Undefined when the run asked for no audits. */
  readonly audits: Promise<Outcome<AuditResults>> | undefined;
  /** Undefined when the run asked for no training-signal audits and no comparisons. */
  readonly training: Promise<Outcome<TrainingResults>> | undefined;
  cancel(): void;
}

interface Pending {
  /** The worker running it: a stopped worker fails only its own jobs. */
  readonly worker: Worker;
  readonly onProgress: (message: string) => void;
  audits: ((outcome: Outcome<AuditResults>) => void) | undefined;
  training: ((outcome: Outcome<TrainingResults>) => void) | undefined;
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

/**
 * Runs analyses in one long-lived worker thread: analysis-worker.js beside this file, which in
 * dist/ starts the worker part of the engine bundle the server runs from (dist/engine.js).
 * Cancelling sets a shared flag that the engine polls between rows (and between analyses), so a
 * cancelled run stops within milliseconds and the worker keeps its caches for the next one. A
 * worker that crashes fails the parts still pending; the next run starts a fresh one.
 */
export class AnalysisRunner {
  private worker: Worker | undefined;
  private nextId = 1;
  private readonly pending = new Map<number, Pending>();

  constructor(private readonly workerFile = path.join(__dirname, 'analysis-worker.js')) {}

  /** Runs started and not yet finished: what tests read to see that nothing is left behind. */
  get running(): number {
    return this.pending.size;
  }

  run(request: AnalysisRequest, onProgress: (message: string) => void): AnalysisJob {
    const worker = this.ensureWorker();
    const id = this.nextId++;
    const cancel = new SharedArrayBuffer(4);
    const [audits, auditsDone] = deferred<Outcome<AuditResults>>(request.audits);
    const [training, trainingDone] = deferred<Outcome<TrainingResults>>(request.signals || request.comparisons);
    if (audits !== undefined || training !== undefined) {
      this.pending.set(id, { worker, onProgress, audits: auditsDone, training: trainingDone });
      worker.postMessage({ kind: 'run', id, request, cancel } satisfies WorkerRequest);
    }
    return { audits, training, cancel: () => Atomics.store(new Int32Array(cancel), 0, 1) };
  }

  invalidate(paths: readonly string[]): void {
    this.worker?.postMessage({ kind: 'invalidate', paths } satisfies WorkerRequest);
  }

  async dispose(): Promise<void> {
    const worker = this.worker;
    this.worker = undefined;
    await worker?.terminate();
  }

  private ensureWorker(): Worker {
    if (this.worker !== undefined) return this.worker;
    const worker = new Worker(this.workerFile);
    worker.on('message', (reply: WorkerReply) => this.received(reply));
    worker.on('error', (error) => this.failAll(worker, error.stack ?? error.message));
    worker.on('exit', () => {
      if (this.worker === worker) this.worker = undefined;
      this.failAll(worker, 'the analysis worker stopped');
    });
    this.worker = worker;
    return worker;
  }

  private received(reply: WorkerReply): void {
    const job = this.pending.get(reply.id);
    if (job === undefined) return;
    if (reply.kind === 'progress') {
      job.onProgress(reply.message);
      return;
    }
    if (reply.kind === 'audits') {
      job.audits?.(reply.outcome);
      job.audits = undefined;
    } else {
      job.training?.(reply.outcome);
      job.training = undefined;
    }
    if (job.audits === undefined && job.training === undefined) this.pending.delete(reply.id);
  }

  private failAll(worker: Worker, error: string): void {
    const failed = { state: 'failed', error } as const;
    for (const [id, job] of this.pending) {
      if (job.worker !== worker) continue;
      job.audits?.(failed);
      job.training?.(failed);
      this.pending.delete(id);
    }
  }
}
