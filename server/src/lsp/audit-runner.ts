import * as path from 'node:path';
import { Worker } from 'node:worker_threads';
import type { AuditFailure } from '../audit/audit-spec.js';
import type { WorkerReply, WorkerRequest } from '../audit/audit-worker.js';
import type { RowIssue } from '../pool/types.js';
import type { Report } from '../report/schema.js';

export interface AuditJobResult {
  readonly report: Report | undefined;
  readonly dataIssues: readonly RowIssue[];
  readonly failures: readonly AuditFailure[];
  readonly cancelled: boolean;
}

export interface AuditJob {
  readonly result: Promise<AuditJobResult>;
  cancel(): void;
}

interface Pending {
  readonly resolve: (result: AuditJobResult) => void;
  readonly reject: (error: Error) => void;
  readonly onProgress: (message: string) => void;
}

/**
 * Runs audits in one long-lived worker thread (dist/audit-worker.js beside the server bundle).
 * Cancelling sets a shared flag that the engine polls between rows, so a cancelled audit stops
 * within milliseconds and the worker keeps its cache for the next one.
 */
export class AuditRunner {
  private worker: Worker | undefined;
  private nextId = 1;
  private readonly pending = new Map<number, Pending>();

  constructor(private readonly workerFile = path.join(__dirname, 'audit-worker.js')) {}

  /** Jobs started and not yet finished: what tests read to see that nothing is left behind. */
  get running(): number {
    return this.pending.size;
  }

  run(text: string, specFile: string, onProgress: (message: string) => void): AuditJob {
    const worker = this.ensureWorker();
    const id = this.nextId++;
    const cancel = new SharedArrayBuffer(4);
    const result = new Promise<AuditJobResult>((resolve, reject) => this.pending.set(id, { resolve, reject, onProgress }));
    worker.postMessage({ kind: 'run', id, text, specFile, cancel } satisfies WorkerRequest);
    return { result, cancel: () => Atomics.store(new Int32Array(cancel), 0, 1) };
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
    worker.on('message', (reply: WorkerReply) => {
      const job = this.pending.get(reply.id);
      if (job === undefined) return;
      if (reply.kind === 'progress') return job.onProgress(reply.message);
      this.pending.delete(reply.id);
      if (reply.kind === 'done') job.resolve({ report: reply.report, dataIssues: reply.dataIssues, failures: reply.failures, cancelled: reply.cancelled });
      else job.reject(new Error(reply.error));
    });
    // A crashed worker fails its jobs; the next audit starts a fresh one.
    worker.on('error', (error) => this.failAll(error));
    worker.on('exit', () => {
      if (this.worker === worker) this.worker = undefined;
      this.failAll(new Error('the audit worker stopped'));
    });
    this.worker = worker;
    return worker;
  }

  private failAll(error: Error): void {
    for (const job of this.pending.values()) job.reject(error);
    this.pending.clear();
  }
}
