// Hover, completion and keystroke-diagnostics latency of the real server (dist/server.js over
// stdio) while it audits a spec in its worker, against the same requests when no audit runs.
// Prints figures; asserts nothing. Run: npm run bench:latency (samples/paper.reward), or
// `node out/test/bench/lsp-latency.bench.js --scale 58368` for the 58,368-row pool that
// `npm run bench` generates (audited cold: an empty candidate cache of its own).
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { performance } from 'node:perf_hooks';
import { pathToFileURL } from 'node:url';
import { CompletionRequest, DocumentDiagnosticRequest, HoverRequest } from 'vscode-languageserver-protocol/node';
import { auditStatusNotification, type AuditStatusParams } from '../../server/src/lsp/protocol.js';
import { positionIn, pullClientCapabilities, repoRoot, TestClient } from '../lsp/lsp-test-client.js';
import { benchSpec } from './scale-spec.js';

function chooseSpec(): string {
  const at = process.argv.indexOf('--scale');
  if (at < 0) return path.join(repoRoot, 'samples/paper.reward');
  const dir = path.join(os.tmpdir(), 'herald-bench', process.argv[at + 1] ?? '58368');
  if (!fs.existsSync(path.join(dir, 'pool.jsonl'))) throw new Error(`no pool in ${dir}: run npm run bench first`);
  const file = path.join(dir, 'latency.reward');
  fs.writeFileSync(file, benchSpec('../corpus.jsonl', 'pool.jsonl', undefined, false));
  // The server's worker would otherwise find the rankings an earlier run left in the user's cache.
  process.env['HERALD_CACHE_DIR'] = fs.mkdtempSync(path.join(os.tmpdir(), 'herald-latency-cache-'));
  return file;
}

const specFile = chooseSpec();
const text = fs.readFileSync(specFile, 'utf8');
const uri = pathToFileURL(specFile).href;

function summary(samples: number[]): string {
  const sorted = [...samples].sort((a, b) => a - b);
  const at = (p: number): number => sorted[Math.min(sorted.length - 1, Math.floor(p * sorted.length))]!;
  return `${String(sorted.length).padStart(5)} ${at(0.5).toFixed(2).padStart(9)} ${at(0.95).toFixed(2).padStart(9)} ${sorted[sorted.length - 1]!.toFixed(2).padStart(9)}`;
}

interface Times {
  readonly hover: number[];
  readonly completion: number[];
  readonly keystroke: number[];
}

async function main(): Promise<void> {
  const client = await TestClient.start({ capabilities: pullClientCapabilities, settings: { audit: { run: 'manual' } } });
  let state: AuditStatusParams['state'] | undefined;
  client.connection.onNotification(auditStatusNotification, (p: AuditStatusParams) => {
    state = p.state;
  });
  const hoverAt = positionIn(text, 'detector L', 'detector '.length);
  const completeAt = positionIn(text, 'any c in citations: c in corpus', 'any c in citations: c '.length);
  // A keystroke: a character typed into (or removed from) the first comment, then the pull of
  // the document's diagnostics that an editor sends after it. It goes to a second, unsaved copy
  // of the spec: an edit of the audited document itself would cancel its audit.
  const typed = pathToFileURL(path.join(path.dirname(specFile), 'typing.reward')).href;
  let version = 1;
  const slowAt: number[] = [];
  let auditStart = 0;
  const note = (times: number[], ms: number): void => {
    times.push(ms);
    if (ms >= 50 && auditStart > 0) slowAt.push((performance.now() - auditStart) / 1000);
  };
  const measure = async (times: Times): Promise<void> => {
    let start = performance.now();
    await client.connection.sendRequest(HoverRequest.type, { textDocument: { uri }, position: hoverAt });
    note(times.hover, performance.now() - start);
    start = performance.now();
    await client.connection.sendRequest(CompletionRequest.type, { textDocument: { uri }, position: completeAt });
    note(times.completion, performance.now() - start);
    version++;
    start = performance.now();
    await client.edit(typed, { start: { line: 0, character: 1 }, end: { line: 0, character: version % 2 === 0 ? 1 : 2 } }, version % 2 === 0 ? 'x' : '', version);
    await client.connection.sendRequest(DocumentDiagnosticRequest.type, { textDocument: { uri: typed } });
    note(times.keystroke, performance.now() - start);
  };

  // Manual mode: opening does not audit, so the first round is the idle reference.
  await client.open(uri, text);
  await client.open(typed, text);
  const idle: Times = { hover: [], completion: [], keystroke: [] };
  for (let i = 0; i < 200; i++) await measure(idle);

  const busy: Times = { hover: [], completion: [], keystroke: [] };
  const started = performance.now();
  auditStart = started;
  const audit = client.connection.sendRequest('herald/runAudit', { uri });
  let finished = false;
  void audit.then(() => {
    finished = true;
  });
  while (!finished) await measure(busy);
  const auditMs = performance.now() - started;
  await client.stop();

  console.log(`LSP latency while auditing ${path.relative(process.cwd(), specFile)} (every audit of the spec, ${(auditMs / 1000).toFixed(1)} s, state ${state})`);
  console.log('');
  console.log(`${'request'.padEnd(30)} ${'n'.padStart(5)} ${'median ms'.padStart(9)} ${'p95 ms'.padStart(9)} ${'max ms'.padStart(9)}`);
  console.log(`${'hover, idle'.padEnd(30)} ${summary(idle.hover)}`);
  console.log(`${'hover, during the audit'.padEnd(30)} ${summary(busy.hover)}`);
  console.log(`${'completion, idle'.padEnd(30)} ${summary(idle.completion)}`);
  console.log(`${'completion, during the audit'.padEnd(30)} ${summary(busy.completion)}`);
  console.log(`${'keystroke + diagnostics, idle'.padEnd(30)} ${summary(idle.keystroke)}`);
  console.log(`${'keystroke + diagnostics, busy'.padEnd(30)} ${summary(busy.keystroke)}`);
  const answers = [...busy.hover, ...busy.completion, ...busy.keystroke];
  const worst = answers.reduce((a, b) => Math.max(a, b), 0);
  const slow = answers.filter((ms) => ms >= 50).length;
  console.log('');
  console.log(`slowest answer during the audit: ${worst.toFixed(2)} ms (${worst < 50 ? 'under' : 'NOT under'} the 50 ms target); ${slow} of ${answers.length} answers took 50 ms or more`);
  if (slowAt.length > 0) console.log(`slow answers at (s into the audit): ${slowAt.slice(0, 20).map((t) => t.toFixed(1)).join(', ')}`);
}

main().catch((error: unknown) => {
  console.error(error);
  process.exitCode = 1;
});
