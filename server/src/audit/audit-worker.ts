// The audit's worker thread: the language server hands it specs and it runs them with the same
// engine as the CLI, off the thread that answers hovers and keystrokes. It keeps one set of caches,
// so data and prepared audits survive between saves.
import { parentPort } from 'node:worker_threads';
import type { RowIssue } from '../pool/types.js';
import type { Report } from '../report/schema.js';

import { auditSpec, newAuditCaches, type AuditFailure } from './audit-spec.js';

export type WorkerRequest =
  | { readonly kind: 'run'; readonly id: number; readonly text: string; readonly specFile: string; readonly cancel: SharedArrayBuffer }
  | { readonly kind: 'invalidate'; readonly paths: readonly string[] };

export type WorkerReply =
  | { readonly kind: 'progress'; readonly id: number; readonly message: string }
  | { readonly kind: 'done'; readonly id: number; readonly report: Report | undefined; readonly dataIssues: readonly RowIssue[]; readonly failures: readonly AuditFailure[]; readonly cancelled: boolean }
  | { readonly kind: 'failed'; readonly id: number; readonly error: string };

const port = parentPort;
if (port === null) throw new Error('audit-worker runs only as a worker thread');
const cache = newAuditCaches();

port.on('message', (request: WorkerRequest) => {
  if (request.kind === 'invalidate') {
    cache.inputs.invalidate(request.paths);
    cache.prepared.clear();
    return;
  }
  const flag = new Int32Array(request.cancel);
  const isCancelled = (): boolean => Atomics.load(flag, 0) !== 0;
  auditSpec(request.text, request.specFile, {
    cache,
    isCancelled,
    onProgress: (message) => port.postMessage({ kind: 'progress', id: request.id, message } satisfies WorkerReply),
  }).then(
    // The model stays here: it holds functions and would not survive the copy to the server thread.
    (outcome) => port.postMessage({ kind: 'done', id: request.id, report: outcome.report, dataIssues: outcome.dataIssues, failures: outcome.failures, cancelled: isCancelled() } satisfies WorkerReply),
    (error: unknown) => port.postMessage({ kind: 'failed', id: request.id, error: error instanceof Error ? (error.stack ?? error.message) : String(error) } satisfies WorkerReply),
  );
});
