// `npm run bench:commands`: what running the user's own reward costs (docs/reward-commands.md), on
// samples/search-r1/trained.reward, whose reward is Search-R1's Python `compute_score` run through
// the verl adapter. In one run, each audit in its own process, three times interleaved:
//   - the audit of search-r1.reward (the same reward written in the language, no program): the floor;
//   - trained.reward with an empty cache: the collecting pass plus the program over every trajectory;
//   - trained.reward again with that cache: the collecting pass, nothing run (`ran: 0`).
// Then the adapter alone: the same requests herald sent, piped to one adapter process, as requests
// per second. Prints its figures; asserts nothing. Needs python3.
import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { performance } from 'node:perf_hooks';

const repo = path.resolve(__dirname, '../../..');
const herald = path.join(repo, 'dist', 'herald.js');
const sample = path.join(repo, 'samples', 'search-r1');
const runs = 3;

interface Timed {
  readonly seconds: number;
  readonly report: { audits: { commandTerms?: { requests: number; ran: number }[] }[] };
}

function audit(spec: string, cache: string): Timed {
  const start = performance.now();
  const done = spawnSync(process.execPath, [herald, 'audit', spec, '--allow-commands', '--format', 'json', '--quiet'], {
    cwd: repo, env: { ...process.env, HERALD_CACHE_DIR: cache }, encoding: 'utf8', maxBuffer: 256 * 1024 * 1024,
  });
  const seconds = (performance.now() - start) / 1000;
  if (done.status !== 0 && done.status !== 1) throw new Error(`herald audit ${spec} exited ${done.status}: ${done.stderr}`);
  return { seconds, report: JSON.parse(done.stdout) as Timed['report'] };
}

const median = (values: readonly number[]): number => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;

function main(): void {
  const root = fs.mkdtempSync(path.join(os.tmpdir(), 'herald-bench-commands-'));
  const floor: number[] = [];
  const cold: number[] = [];
  const warm: number[] = [];
  let terms: { requests: number; ran: number }[] = [];
  for (let i = 0; i < runs; i++) {
    const cache = path.join(root, `cache-${i}`);
    floor.push(audit(path.join(sample, 'search-r1.reward'), cache).seconds);
    const first = audit(path.join(sample, 'trained.reward'), cache);
    cold.push(first.seconds);
    const second = audit(path.join(sample, 'trained.reward'), cache);
    warm.push(second.seconds);
    terms = [...(first.report.audits[0]?.commandTerms ?? []), ...(second.report.audits[0]?.commandTerms ?? [])];
  }
  const f = median(floor);
  console.log(`samples/search-r1, ${runs} runs interleaved, median wall seconds (ratio to the audit without a program):`);
  console.log(`  search-r1.reward (no program)          ${f.toFixed(2)} s  1.00`);
  console.log(`  trained.reward, empty cache            ${median(cold).toFixed(2)} s  ${(median(cold) / f).toFixed(2)}   requests ${terms[0]?.requests}, ran ${terms[0]?.ran}`);
  console.log(`  trained.reward, cached                 ${median(warm).toFixed(2)} s  ${(median(warm) / f).toFixed(2)}   requests ${terms[1]?.requests}, ran ${terms[1]?.ran}`);

  // The adapter alone, on requests as herald writes them: the sample's, repeated to `count`.
  const count = Number(process.env['BENCH_COMMAND_REQUESTS'] ?? '10000');
  const capture = path.join(root, 'requests.jsonl');
  const recorder = path.join(root, 'record.mjs');
  fs.writeFileSync(recorder, `import * as fs from 'node:fs';\nconst lines = fs.readFileSync(0, 'utf8');\nfs.writeFileSync(${JSON.stringify(capture)}, lines);\nfor (const line of lines.split('\\n')) if (line.trim() !== '') console.log(JSON.stringify({ request: JSON.parse(line).request, value: 0 }));\n`);
  // trained.reward with the program replaced by one that records what herald sends, in the bench's folder.
  const spec = path.join(root, 'record.reward');
  fs.writeFileSync(spec, fs.readFileSync(path.join(sample, 'trained.reward'), 'utf8')
    .replace('"../pools/corpus.jsonl"', JSON.stringify(path.join(repo, 'samples', 'pools', 'corpus.jsonl')))
    .replace('"rollout/*.jsonl"', JSON.stringify(path.join(sample, 'rollout', '*.jsonl')))
    .replace(/command "python3[^\n]*"/, `command ${JSON.stringify(`node ${recorder}`)}`).replace(/\n {2}conforms[^\n]*/g, ''));
  audit(spec, path.join(root, 'cache-record'));
  const sent = fs.readFileSync(capture, 'utf8').split('\n').filter((l) => l !== '');
  const requests = Array.from({ length: count }, (_, i) => {
    const request = JSON.parse(sent[i % sent.length]!) as Record<string, unknown>;
    return `${JSON.stringify({ ...request, request: i })}\n`;
  }).join('');
  const start = performance.now();
  const done = spawnSync('python3', ['-m', 'herald_adapters.verl', 'qa_em_format.py', '--solution', 'prompt+response', '--reward-kwargs', '{"retrieval_score": 0.1}'], {
    cwd: sample, input: requests, env: { ...process.env, PYTHONPATH: path.join(repo, 'adapters', 'python'), PYTHONDONTWRITEBYTECODE: '1' }, encoding: 'utf8', maxBuffer: 256 * 1024 * 1024,
  });
  const seconds = (performance.now() - start) / 1000;
  if (done.status !== 0) throw new Error(`the adapter exited ${done.status}: ${done.stderr}`);
  const answers = done.stdout.split('\n').filter((l) => l !== '').length;
  console.log(`verl adapter + qa_em_format.py: ${answers} of ${count} requests (${(Buffer.byteLength(requests) / 1e6).toFixed(1)} MB) in ${seconds.toFixed(2)} s, ${Math.round(count / seconds)} requests/s (one process, start included)`);
  fs.rmSync(root, { recursive: true, force: true });
}

main();
