// An import run on a worker thread with a deadline and a heap limit, for files that once made an
// importer loop forever or exhaust memory: a loop on the test's own thread would block its timers,
// so the test could never fail; a worker is terminated at the deadline and the test says so.
import { Worker, isMainThread, parentPort, workerData } from 'node:worker_threads';
import type { ImportFile } from '../../server/src/importers/importer.js';
import { importerFor } from '../../server/src/importers/registry.js';

interface Job {
  readonly herald: 'import-in-worker';
  readonly format: string;
  readonly files: readonly ImportFile[];
}

export type WorkerImport = { readonly kind: 'done'; readonly imported: number; readonly reasons: readonly string[] } | { readonly kind: 'timeout' | 'failed'; readonly why: string };

const isJob = (data: unknown): data is Job => typeof data === 'object' && data !== null && 'herald' in data && data.herald === 'import-in-worker';

if (!isMainThread && isJob(workerData)) {
  const job = workerData;
  void (async () => {
    const outcome = await importerFor(job.format)?.run(job.files, {});
    const reply: WorkerImport = outcome?.ok === true
      ? { kind: 'done', imported: outcome.result.counts.imported, reasons: outcome.result.skipped.map((s) => `${s.at.file}:${s.at.line}: ${s.reason}`) }
      : { kind: 'failed', why: outcome === undefined ? `no importer ${job.format}` : outcome.reason };
    parentPort?.postMessage(reply);
  })();
}

/** Imports `files` with `format` on a worker with at most `heapMiB` of heap, giving up after `deadlineMs`. */
export function importInWorker(format: string, files: readonly ImportFile[], deadlineMs = 10_000, heapMiB = 512): Promise<WorkerImport> {
  const job: Job = { herald: 'import-in-worker', format, files };
  const worker = new Worker(__filename, { workerData: job, resourceLimits: { maxOldGenerationSizeMb: heapMiB } });
  return new Promise((resolve) => {
    const timer = setTimeout(() => {
      resolve({ kind: 'timeout', why: `no answer within ${deadlineMs} ms` });
      void worker.terminate();
    }, deadlineMs);
    const settle = (result: WorkerImport): void => {
      clearTimeout(timer);
      resolve(result);
      void worker.terminate();
    };
    worker.once('message', (reply: WorkerImport) => settle(reply));
    worker.once('error', (error) => settle({ kind: 'failed', why: error.message }));
    worker.once('exit', (code) => settle({ kind: 'failed', why: `the worker exited with ${code}` }));
  });
}
