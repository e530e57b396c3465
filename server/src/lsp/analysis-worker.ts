// The analysis worker thread: the language server hands it specs and it runs their audits,
// training-signal audits and comparisons with the same engine as the CLI, and the imports the
// editor shows (lsp/import-run.ts), off the thread that answers hovers and keystrokes. Its caches
// live as long as the thread, so loaded data and prepared audits survive between runs (watched-file
// changes invalidate them).
import { parentPort, threadId } from 'node:worker_threads';
import { newAuditCaches } from '../audit/audit-spec.js';
import { runAnalyses, type WorkerReply, type WorkerRequest } from './analysis-run.js';
import { runImport } from './import-run.js';

const port = parentPort;
if (port === null) throw new Error('analysis-worker runs only as a worker thread');
const cache = newAuditCaches();
const send = (reply: WorkerReply): void => port.postMessage(reply);
// Names of the imports the cache holds, unique across threads: the server thread keeps an import's
// rows while its name stays the same (a changed file is a new import, so a new name).
const loadNames = new WeakMap<object, string>();
let loads = 0;
const loadName = (loaded: object): string => {
  const name = loadNames.get(loaded) ?? `${threadId}:${++loads}`;
  loadNames.set(loaded, name);
  return name;
};

port.on('message', (message: WorkerRequest) => {
  if (message.kind === 'invalidate') {
    cache.inputs.invalidate(message.paths);
    cache.prepared.clear();
    return;
  }
  if (message.kind === 'import') {
    void runImport(message.id, message.request, cache, loadName, send);
    return;
  }
  const { id, request } = message;
  const flag = new Int32Array(message.cancel);
  const isCancelled = (): boolean => Atomics.load(flag, 0) !== 0;
  // runAnalyses settles every part itself (a throw becomes a failed part), so this never rejects.
  void runAnalyses(id, request, { cache, isCancelled, onProgress: (text) => send({ kind: 'progress', id, message: text }) }, send);
});
