// One size of `npm run bench`, in its own process so its peak memory is its own. Prints one JSON
// line on stdout (its shape: test/bench/run-record.ts). `floor DIR` times reading and JSON.parse of
// the pool and corpus; `audit DIR` times the audits of DIR/bench.reward (see scale.bench.ts for
// what each figure means); `one-thread DIR` and `machine-threads DIR` the cold audits again;
// `reaudit DIR` the re-audit after each kind of change to the spec, the audit kept in memory;
// `pair DIR` the cached one-thread audit alone and then two of it at once, each in a process of its own.
import { spawn } from 'node:child_process';
import { readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import * as path from 'node:path';
import { performance } from 'node:perf_hooks';
import { newAuditCaches, type AuditCaches } from '../../server/src/audit/audit-spec.js';
import { auditSpec } from '../../server/src/audit/audit-spec.js';
import { defaultWorkers } from '../../server/src/threads/parallel-prepare.js';
import { buildBm25Index } from '../../server/src/candidates/bm25.js';
import { loadCorpus } from '../../server/src/inputs/loaders.js';
import { inputLimitsOf } from '../../server/src/inputs/input-limits.js';
import { sizeProblem } from '../../server/src/inputs/load-inputs.js';
import { WorkspaceTrust } from '../../server/src/inputs/trust.js';
import { median, parseFloor } from './floor.js';
import { childLine, childResults, type AuditResult, type FloorResult, type MergeResult, type PairResult, type ReauditLine, type ReauditResult, type ShardResult, type Stages, type ThreadsResult, type TimingResult } from './run-record.js';
import { createHash } from 'node:crypto';
import { decodePartial, encodePartial } from '../../server/src/audit/shards.js';
import { heraldVersion } from '../../server/src/version.js';
import { benchSpec, groundingWeight } from './scale-spec.js';

const peakMb = (): number => process.resourceUsage().maxRSS / 1024;

function floor(dir: string): FloorResult {
  const files = [path.join(dir, '..', 'corpus.jsonl'), path.join(dir, 'pool.jsonl')];
  const runs = [0, 1, 2].map(() => parseFloor(files));
  return { kind: 'floor', ms: median(runs.map((r) => r.ms)), lines: runs[0]!.lines };
}

/**
 * The input limits the size's files need, raised as a user raises them (`--max-input-mib`): a
 * million-row pool is past the defaults. Smaller sizes run under the defaults, as users' do.
 */
function trustFor(specFile: string): WorkspaceTrust {
  const dir = path.dirname(specFile);
  const files = [path.join(dir, '..', 'corpus.jsonl'), path.join(dir, 'pool.jsonl')];
  if (sizeProblem(files, WorkspaceTrust.everything) === undefined) return WorkspaceTrust.everything;
  const total = files.reduce((sum, file) => sum + statSync(file).size, 0);
  return WorkspaceTrust.everything.withLimits(inputLimitsOf(Math.ceil(total / (1024 * 1024))));
}

/** Times one audit run and, from its progress messages, its stages. */
async function timedAudit(specFile: string, cache: AuditCaches, only: string, cacheDir: string, workers?: number): Promise<{ ms: number; stages: Stages; report: NonNullable<Awaited<ReturnType<typeof auditSpec>>['report']> }> {
  // The first message of each stage: the features (one thread) or the threads (several), the lattice, the scoring.
  let edits = 0;
  let lattice = 0;
  let scoring = 0;
  const start = performance.now();
  const outcome = await auditSpec(readFileSync(specFile, 'utf8'), specFile, {
    cache,
    only,
    candidateCache: cacheDir,
    workers,
    trust: trustFor(specFile),
    onProgress: (message) => {
      const now = performance.now();
      if (edits === 0 && /^(evaluating \d+ terms|building edits on) /.test(message)) edits = now;
      else if (message.startsWith('lattice over')) lattice = now;
      else if (message === 'scoring attacks') scoring = now;
    },
  });
  const end = performance.now();
  if (outcome.report === undefined) throw new Error(`audit ${only} of ${specFile} did not run: ${JSON.stringify(outcome.problems.slice(0, 3))} ${JSON.stringify(outcome.dataIssues.slice(0, 3))}`);
  // A warm run re-scores prepared edits: it neither loads nor builds edits, and reports no such stage.
  const scored = lattice > 0 ? lattice : scoring;
  const stages: Stages = {
    loadMs: edits > 0 ? edits - start : 0,
    editsMs: edits > 0 ? scored - edits : 0,
    latticeMs: lattice > 0 ? scoring - lattice : 0,
    scoringMs: end - scoring,
  };
  return { ms: end - start, stages, report: outcome.report };
}

/** A weight edit per run, each to a new value, so every warm pass really re-scores. */
function writeSpec(specFile: string, grounding: number): void {
  writeFileSync(specFile, benchSpec('../corpus.jsonl', 'pool.jsonl', grounding));
}

async function warmRuns(specFile: string, cache: AuditCaches, only: string, cacheDir: string, runs: number): Promise<{ ms: number; latticeMs: number }> {
  const ms: number[] = [];
  const lattice: number[] = [];
  for (let run = 1; run <= runs; run++) {
    writeSpec(specFile, groundingWeight + run / 100);
    const timed = await timedAudit(specFile, cache, only, cacheDir);
    ms.push(timed.ms);
    lattice.push(timed.stages.latticeMs);
  }
  writeSpec(specFile, groundingWeight);
  return { ms: median(ms), latticeMs: median(lattice) };
}

async function audit(dir: string): Promise<AuditResult> {
  const specFile = path.join(dir, 'bench.reward');
  const cacheDir = path.join(dir, 'candidate-cache');
  rmSync(cacheDir, { recursive: true, force: true });
  writeSpec(specFile, groundingWeight);

  const cold = await timedAudit(specFile, newAuditCaches(), 'main', cacheDir);
  const cache = newAuditCaches();
  const coldCached = await timedAudit(specFile, cache, 'main', cacheDir);
  const warm = await warmRuns(specFile, cache, 'main', cacheDir, 3);
  const audited = coldCached.report.audits[0]!;
  const peak = peakMb();

  await timedAudit(specFile, cache, 'wide', cacheDir);
  const wide = await warmRuns(specFile, cache, 'wide', cacheDir, 3);
  return {
    kind: 'audit',
    rows: audited.pools.reduce((sum, p) => sum + p.rows, 0),
    edits: audited.attacks.reduce((sum, a) => sum + a.counts.edits.isolatedEligible, 0),
    coldMs: cold.ms,
    coldCachedMs: coldCached.ms,
    workers: defaultWorkers(),
    warmMs: warm.ms,
    latticeMs: warm.latticeMs,
    peakMb: peak,
    wideWarmMs: wide.ms,
    wideLatticeMs: wide.latticeMs,
    widePeakMb: peakMb(),
  };
}

async function threads(dir: string, workers: number): Promise<ThreadsResult> {
  const specFile = path.join(dir, 'bench.reward');
  const cacheDir = path.join(dir, 'candidate-cache-threads');
  rmSync(cacheDir, { recursive: true, force: true });
  writeSpec(specFile, groundingWeight);
  const cold = await timedAudit(specFile, newAuditCaches(), 'main', cacheDir, workers);
  const coldCached = await timedAudit(specFile, newAuditCaches(), 'main', cacheDir, workers);
  rmSync(cacheDir, { recursive: true, force: true });
  const peak = peakMb();
  return {
    kind: 'threads', workers, coldMs: cold.ms, coldCachedMs: coldCached.ms, peakMb: peak, coldStages: cold.stages, cachedStages: coldCached.stages,
    ...(workers === 1 ? { indexMs: await indexMs(path.join(dir, '..', 'corpus.jsonl')) } : {}),
  };
}

/** How long building the corpus's BM25 index takes, alone, after the audits (so their peak is theirs). */
async function indexMs(corpusFile: string): Promise<number> {
  const { corpus } = await loadCorpus(corpusFile, WorkspaceTrust.everything);
  const start = performance.now();
  buildBm25Index(corpus);
  return performance.now() - start;
}

/** `text` with `from`, which must occur exactly once, replaced: a bench spec that changed shape fails here, loudly. */
function replaceOnce(text: string, from: string, to: string): string {
  const at = text.indexOf(from);
  if (at < 0 || text.includes(from, at + 1)) throw new Error(`the bench spec must hold ${JSON.stringify(from)} exactly once`);
  return text.slice(0, at) + to + text.slice(at + from.length);
}

/** Where two JSON texts first differ, with some context of each; undefined when they are the same. */
function firstDifference(kept: string, scratch: string): string | undefined {
  if (kept === scratch) return undefined;
  let at = 0;
  while (kept[at] === scratch[at]) at++;
  const around = (text: string): string => text.slice(Math.max(0, at - 80), at + 40);
  return `at character ${at}: kept …${around(kept)}… from scratch …${around(scratch)}…`;
}

/** One kind of change to the bench spec, as an author makes it between two saves. */
interface SpecChange {
  readonly change: ReauditLine['change'];
  readonly label: string;
  /** The spec of the run-th re-audit. Each run's text differs, so nothing remembered of an earlier run's edited spec can answer it. */
  readonly edited: (spec: string, run: number) => string;
}

const capOf = (run: number): string => (0.9 + run / 100).toFixed(2);

/**
 * The changes `reaudit` times. Each changes the report (a cap below 1 changes the scores where
 * F1 or grounding is 1), so the comparison with a from-scratch audit would catch a stale value.
 */
const specChanges: readonly SpecChange[] = [
  {
    change: 'detector',
    label: "L's definition: at least two cited corpus passages never retrieved; L is a target of same_final and launder and in fake_id's isolation",
    edited: (spec, run) => replaceOnce(spec, '= any c in citations: c in corpus and c not in retrieved\n', `= (count c in citations: c in corpus and c not in retrieved) >= ${run + 1} - ${run - 1}\n`),
  },
  {
    change: 'term',
    label: "R0's answer term, capped: reads the answer, which no attack's edit writes",
    edited: (spec, run) => replaceOnce(spec, '* token_f1(answer, gold.answers)\n', `* min(token_f1(answer, gold.answers), ${capOf(run)})\n`),
  },
  {
    change: 'term',
    label: "R0's grounding term, capped: reads the citations, which fake_id's and launder's edits write",
    edited: (spec, run) => replaceOnce(spec, '* grounding(citations, gold.answers)\n', `* min(grounding(citations, gold.answers), ${capOf(run)})\n`),
  },
  {
    change: 'comment',
    label: "the first comment line's text, same line count",
    edited: (spec, run) => replaceOnce(spec, '; rewritten on every run.\n', `; rewritten on every run (re-audit ${run}).\n`),
  },
  {
    change: 'weight',
    label: "R0's grounding weight",
    edited: (spec, run) => replaceOnce(spec, `grounding   ${groundingWeight} *`, `grounding   ${(groundingWeight + run / 100).toFixed(2)} *`),
  },
];

/**
 * The re-audit after each kind of change, with the `main` audit prepared and kept in memory as the
 * editor keeps it (one `AuditCaches` across runs). Every timed re-audit starts from the original
 * spec's prepared state: the original is audited again before it, untimed. Times are medians of
 * `BENCH_REPEATS` runs (3 when unset). The first run of each change is compared with a
 * from-scratch audit of the same text, byte for byte; a difference is reported with where it starts
 * (and fails the bench once its figures are printed and kept).
 */
async function reaudit(dir: string): Promise<ReauditResult> {
  const specFile = path.join(dir, 'bench.reward');
  // The audit mode's candidate cache when it ran before: rankings from disk, as a reopened workspace has them.
  const cacheDir = path.join(dir, 'candidate-cache');
  const runs = Math.max(1, Math.floor(Number(process.env['BENCH_REPEATS'] ?? '3')) || 3);
  const original = benchSpec('../corpus.jsonl', 'pool.jsonl', groundingWeight);
  const auditOf = (spec: string, caches: AuditCaches): ReturnType<typeof timedAudit> => {
    writeFileSync(specFile, spec);
    return timedAudit(specFile, caches, 'main', cacheDir);
  };
  const kept = newAuditCaches();
  const first = await auditOf(original, kept);
  let keptSpec = original;
  const lines: ReauditLine[] = [];
  for (const { change, label, edited } of specChanges) {
    const ms: number[] = [];
    let difference: string | undefined;
    for (let run = 1; run <= runs; run++) {
      if (keptSpec !== original) await auditOf(original, kept);
      const spec = edited(original, run);
      if (spec === original) throw new Error(`the ${change} change (${label}) left the spec as it was`);
      const timed = await auditOf(spec, kept);
      keptSpec = spec;
      ms.push(timed.ms);
      if (run > 1) continue;
      difference = firstDifference(JSON.stringify(timed.report), JSON.stringify((await auditOf(spec, newAuditCaches())).report));
    }
    lines.push({ change, label, ms: median(ms), runs: ms, identical: difference === undefined, ...(difference === undefined ? {} : { difference }) });
  }
  writeFileSync(specFile, original);
  return { kind: 'reaudit', rows: first.report.audits[0]!.pools.reduce((sum, p) => sum + p.rows, 0), audit: 'main', lines, peakMb: peakMb() };
}

/** The shards' files of the bench spec's `main` audit, beside the pool. */
const shardFile = (dir: string, index: number): string => path.join(dir, `shard-${index}.bin`);
const shardCount = 3;

/** Shard `index` of three of the `main` audit, with the candidate rankings the audit mode cached, written as `herald audit --shard` writes it. */
async function shard(dir: string, index = 0): Promise<ShardResult> {
  const specFile = path.join(dir, 'bench.reward');
  writeFileSync(specFile, benchSpec('../corpus.jsonl', 'pool.jsonl', groundingWeight));
  const started = performance.now();
  const text = readFileSync(specFile, 'utf8');
  const outcome = await auditSpec(text, specFile, { only: 'main', candidateCache: path.join(dir, 'candidate-cache'), trust: trustFor(specFile), shards: { write: { index, count: shardCount } } });
  if (outcome.shards === undefined) throw new Error(`shard ${index} did not run: ${JSON.stringify(outcome.failures)}`);
  const bytes = encodePartial({ format: 'herald-partial', version: 1, tool: heraldVersion, spec: { path: specFile, sha256: createHash('sha256').update(text).digest('hex') }, shard: { index, count: shardCount }, audits: outcome.shards });
  writeFileSync(shardFile(dir, index), bytes);
  return { kind: 'shard', ms: performance.now() - started, bytes: bytes.length, peakMb: peakMb() };
}

/** The merge of the three shards' files (`herald merge`), then the one-run audit it must equal. */
async function merge(dir: string): Promise<MergeResult> {
  const specFile = path.join(dir, 'bench.reward');
  const text = readFileSync(specFile, 'utf8');
  const started = performance.now();
  const files = Array.from({ length: shardCount }, (_, i) => decodePartial(readFileSync(shardFile(dir, i))));
  const partials = files.map((file) => {
    if (typeof file === 'string') throw new Error(file);
    return file;
  });
  const merged = await auditSpec(text, specFile, { only: 'main', trust: trustFor(specFile), shards: { merge: partials } });
  const ms = performance.now() - started;
  const peak = peakMb();
  if (merged.report === undefined) throw new Error(`the merge did not run: ${JSON.stringify(merged.failures)}`);
  const whole = await auditSpec(text, specFile, { only: 'main', candidateCache: path.join(dir, 'candidate-cache'), trust: trustFor(specFile) });
  for (let i = 0; i < shardCount; i++) rmSync(shardFile(dir, i), { force: true });
  const difference = firstDifference(JSON.stringify(merged.report), JSON.stringify(whole.report));
  return { kind: 'merge', ms, peakMb: peak, identical: difference === undefined, ...(difference === undefined ? {} : { difference }) };
}

/** The cached one-thread audit of `main` (the audit mode's candidate cache), timed; it reads the spec `pair` wrote. */
async function cachedOneThread(dir: string): Promise<TimingResult> {
  const timed = await timedAudit(path.join(dir, 'bench.reward'), newAuditCaches(), 'main', path.join(dir, 'candidate-cache'), 1);
  return { kind: 'timing', ms: timed.ms };
}

/** `cached-one-thread` in a process of its own; its time. */
function cachedOneThreadProcess(dir: string): Promise<number> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [__filename, 'cached-one-thread', dir], { stdio: ['ignore', 'pipe', 'inherit'] });
    let out = '';
    child.stdout.setEncoding('utf8').on('data', (text: string) => (out += text));
    child.on('error', reject);
    child.on('close', (code) => (code === 0 ? resolve(childLine(childResults.timing, out).ms) : reject(new Error(`cached-one-thread ${dir} exited with ${code}`))));
  });
}

/**
 * The cached one-thread audit in a process alone, then in two processes at once: how much two
 * copies of this work slow each other on this machine, whatever the audit's own threads do.
 */
async function pair(dir: string): Promise<PairResult> {
  writeSpec(path.join(dir, 'bench.reward'), groundingWeight);
  const aloneMs = await cachedOneThreadProcess(dir);
  const [first, second] = await Promise.all([cachedOneThreadProcess(dir), cachedOneThreadProcess(dir)]);
  return { kind: 'pair', aloneMs, togetherMs: [first, second] };
}

const modes = {
  floor: (dir: string) => Promise.resolve(floor(dir)),
  shard: (dir: string, index?: string) => shard(dir, Number(index ?? '0')),
  merge,
  audit,
  'one-thread': (dir: string) => threads(dir, 1),
  'machine-threads': (dir: string) => threads(dir, defaultWorkers()),
  reaudit,
  pair,
  'cached-one-thread': cachedOneThread,
} as const;
const [mode, dir, arg] = process.argv.slice(2);
if (mode === undefined || !(mode in modes) || dir === undefined) {
  console.error('usage: scale-child.js floor|audit|one-thread|machine-threads|reaudit|merge|pair|cached-one-thread DIR, or shard DIR I');
  process.exitCode = 2;
} else {
  (modes[mode as keyof typeof modes] as (dir: string, arg?: string) => Promise<unknown>)(dir, arg).then(
    (result) => console.log(JSON.stringify(result)),
    (error: unknown) => {
      console.error(error);
      process.exitCode = 1;
    },
  );
}
