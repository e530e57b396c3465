// Hover, completion and keystroke-diagnostics latency of the real server (dist/server.js over
// stdio) while it analyses a spec, against the same requests when nothing runs. Prints figures;
// asserts nothing. Run: npm run bench:latency (audits samples/paper.reward), or
//   node out/test/bench/lsp-latency.bench.js --scale 58368     the 58,368-row pool `npm run bench` generates (audited cold)
//   node out/test/bench/lsp-latency.bench.js --training 102400 the sample's training-signal audit on a training log
//                                                              of that many rows, generated once in the temp folder
// and `--server PATH` to measure another build's server bundle (e.g. the main branch's dist/server.js).
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { performance } from 'node:perf_hooks';
import { pathToFileURL } from 'node:url';
import { CompletionRequest, DocumentDiagnosticRequest, HoverRequest } from 'vscode-languageserver-protocol/node';
import { auditStatusNotification, runAuditRequest, trainingSignalStatusNotification } from '../../server/src/contract/protocol.js';
import { positionIn, pullClientCapabilities, repoRoot, TestClient } from '../lsp/lsp-test-client.js';
import { benchSpec } from './scale-spec.js';

const option = (name: string): string | undefined => {
  const at = process.argv.indexOf(name);
  return at < 0 ? undefined : (process.argv[at + 1] ?? '');
};

function scaledSpec(rows: string): string {
  const dir = path.join(os.tmpdir(), 'herald-bench', rows);
  if (!fs.existsSync(path.join(dir, 'pool.jsonl'))) throw new Error(`no pool in ${dir}: run npm run bench first`);
  const file = path.join(dir, 'latency.reward');
  fs.writeFileSync(file, benchSpec('../corpus.jsonl', 'pool.jsonl', undefined, false));
  // The server's worker would otherwise find the rankings an earlier run left in the user's cache.
  process.env['HERALD_CACHE_DIR'] = fs.mkdtempSync(path.join(os.tmpdir(), 'herald-latency-cache-'));
  return file;
}

/**
 * samples/training.reward without its comparison, reading a training log of `rows` rows: the
 * sample's log repeated, each copy with its own row, question and group ids.
 */
function trainingSpec(rows: number): string {
  const dir = path.join(os.tmpdir(), 'herald-bench', `training-${rows}`);
  const log = path.join(dir, 'train.jsonl');
  if (!fs.existsSync(log)) {
    fs.mkdirSync(dir, { recursive: true });
    const sample = fs.readFileSync(path.join(repoRoot, 'samples/pools/train-R_L.jsonl'), 'utf8').split('\n').filter((l) => l !== '');
    const lines: string[] = [];
    for (let copy = 0; lines.length < rows; copy++) {
      for (const line of sample.slice(0, rows - lines.length)) {
        const row = JSON.parse(line) as { id: string; question_id: string; meta: { group: string } };
        lines.push(JSON.stringify({ ...row, id: `${row.id}~${copy}`, question_id: `${row.question_id}~${copy}`, meta: { ...row.meta, group: `${row.meta.group}~${copy}` } }));
      }
    }
    fs.writeFileSync(log, `${lines.join('\n')}\n`);
  }
  const pools = path.join(repoRoot, 'samples/pools');
  const text = fs.readFileSync(path.join(repoRoot, 'samples/training.reward'), 'utf8');
  const spec = text.slice(0, text.indexOf('comparison matched'))
    .replace('"pools/train-R_L.jsonl"', JSON.stringify(log))
    .replaceAll('"pools/', `"${pools}/`);
  const file = path.join(dir, 'latency.reward');
  fs.writeFileSync(file, spec);
  return file;
}

const training = option('--training');
const scale = option('--scale');
const specFile = training !== undefined ? trainingSpec(Number(training || '102400'))
  : scale !== undefined ? scaledSpec(scale || '58368')
  : path.join(repoRoot, 'samples/paper.reward');
const server = option('--server');
const text = fs.readFileSync(specFile, 'utf8');
const uri = pathToFileURL(specFile).href;

interface Summary {
  readonly n: number;
  readonly median: number;
  readonly p95: number;
  readonly p99: number;
  readonly max: number;
}

function summarize(samples: readonly number[]): Summary {
  const sorted = [...samples].sort((a, b) => a - b);
  const at = (p: number): number => sorted[Math.min(sorted.length - 1, Math.floor(p * sorted.length))] ?? NaN;
  return { n: sorted.length, median: at(0.5), p95: at(0.95), p99: at(0.99), max: sorted[sorted.length - 1] ?? NaN };
}

const cell = (value: number, digits = 2): string => value.toFixed(digits).padStart(9);

function row(label: string, samples: readonly number[], idle?: readonly number[]): string {
  const s = summarize(samples);
  const base = idle === undefined ? undefined : summarize(idle);
  const ratios = base === undefined ? '' : `${cell(s.median / base.median, 1)}×${cell(s.p95 / base.p95, 1)}×${cell(s.max / base.max, 1)}×`;
  return `${label.padEnd(30)} ${String(s.n).padStart(5)} ${cell(s.median)} ${cell(s.p95)} ${cell(s.p99)} ${cell(s.max)}${ratios}`;
}

interface Times {
  readonly hover: number[];
  readonly completion: number[];
  readonly keystroke: number[];
}

async function main(): Promise<void> {
  const client = await TestClient.start({ capabilities: pullClientCapabilities, settings: { audit: { run: 'manual' } }, ...(server === undefined ? {} : { server }) });
  const states: string[] = [];
  client.connection.onNotification(auditStatusNotification, (p) => {
    states.push(`audit ${p.state}`);
  });
  client.connection.onNotification(trainingSignalStatusNotification, (p) => {
    states.push(`training ${p.state}: ${p.message}`);
  });
  const hoverAt = positionIn(text, 'detector L', 'detector '.length);
  const completeAt = positionIn(text, 'any c in citations: c in corpus', 'any c in citations: c '.length);
  // A keystroke: a character typed into (or removed from) the first comment, then the pull of
  // the document's diagnostics that an editor sends after it. It goes to a second, unsaved copy
  // of the spec: an edit of the analysed document itself would cancel its run.
  const typed = pathToFileURL(path.join(path.dirname(specFile), 'typing.reward')).href;
  let version = 1;
  const slowAt: number[] = [];
  let runStart = 0;
  const note = (times: number[], ms: number): void => {
    times.push(ms);
    if (ms >= 50 && runStart > 0) slowAt.push((performance.now() - runStart) / 1000);
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

  // Manual mode: opening does not analyse, so the first round is the idle reference.
  await client.open(uri, text);
  await client.open(typed, text);
  // A first round warms the server up (JIT, caches), so the idle reference is not its cold start.
  for (let i = 0; i < 100; i++) await measure({ hover: [], completion: [], keystroke: [] });
  const idle: Times = { hover: [], completion: [], keystroke: [] };
  for (let i = 0; i < 200; i++) await measure(idle);

  const busy: Times = { hover: [], completion: [], keystroke: [] };
  const started = performance.now();
  runStart = started;
  // The "Run Audit" request answers when every analysis of the spec has finished.
  const run = client.connection.sendRequest(runAuditRequest, { uri });
  let finished = false;
  void run.then(() => {
    finished = true;
  });
  while (!finished) await measure(busy);
  const runMs = performance.now() - started;
  await client.stop();

  const what = training === undefined ? 'every audit of the spec' : 'its training-signal audit';
  console.log(`LSP latency while analysing ${path.relative(process.cwd(), specFile)} (${what}, ${(runMs / 1000).toFixed(1)} s; ${states.join('; ')})`);
  console.log(`server: ${server ?? 'dist/server.js'}`);
  console.log('');
  console.log(`${'request'.padEnd(30)} ${'n'.padStart(5)} ${'median ms'.padStart(9)} ${'p95 ms'.padStart(9)} ${'p99 ms'.padStart(9)} ${'max ms'.padStart(9)}${'med/idle'.padStart(10)}${'p95/idle'.padStart(10)}${'max/idle'.padStart(10)}`);
  console.log(row('hover, idle', idle.hover));
  console.log(row('hover, during the run', busy.hover, idle.hover));
  console.log(row('completion, idle', idle.completion));
  console.log(row('completion, during the run', busy.completion, idle.completion));
  console.log(row('keystroke + diagnostics, idle', idle.keystroke));
  console.log(row('keystroke + diagnostics, busy', busy.keystroke, idle.keystroke));
  const answers = [...busy.hover, ...busy.completion, ...busy.keystroke];
  const worst = answers.reduce((a, b) => Math.max(a, b), 0);
  const slow = answers.filter((ms) => ms >= 50).length;
  console.log('');
  console.log(`slowest answer during the run: ${worst.toFixed(2)} ms (${worst < 50 ? 'under' : 'NOT under'} the 50 ms target); ${slow} of ${answers.length} answers took 50 ms or more`);
  if (slowAt.length > 0) console.log(`slow answers at (s into the run): ${slowAt.slice(0, 20).map((t) => t.toFixed(1)).join(', ')}`);
}

main().catch((error: unknown) => {
  console.error(error);
  process.exitCode = 1;
});
