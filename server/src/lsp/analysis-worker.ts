// The analysis worker thread: the language server hands it specs and it runs their audits,
// training-signal audits and comparisons with the same engine as the CLI, off the thread that
// answers hovers and keystrokes. Its caches live as long as the thread, so loaded data
// and prepared audits survive between runs (watched-file changes invalidate them).
import { parentPort } from 'node:worker_threads';
import { newAuditCaches } from '../audit/audit-spec.js';
import { runAnalyses, type WorkerReply, type WorkerRequest } from './analysis-run.js';

const port = parentPort;
if (port === null) throw new Error('analysis-worker runs only as a worker thread');
const cache = newAuditCaches();
const send = (reply: WorkerReply): void => port.postMessage(reply);

port.on('message', (message: WorkerRequest) => {
  if (message.kind === 'invalidate') {
    cache.inputs.invalidate(message.paths);
    cache.prepared.clear();
    return;
  }
  const { id, request } = message;
  const flag = new Int32Array(message.cancel);
  const isCancelled = (): boolean => Atomics.load(flag, 0) !== 0;
  // runAnalyses settles every part itself (a throw becomes a failed part), so this never rejects.
  void runAnalyses(id, request, { cache, isCancelled, onProgress: (text) => send({ kind: 'progress', id, message: text }) }, send);
});
