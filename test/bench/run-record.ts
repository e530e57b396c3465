// The file `npm run bench` writes per run (test/bench/results/runs/DATE-COMMIT.json): the commit,
// the machine, the knobs and every figure the bench printed, so that docs/performance.md's tables
// are generated from data (test/bench/bench-tables.ts) instead of copied by hand.
import { execFileSync } from 'node:child_process';
import { mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { z } from 'zod';

/** Where run files live, relative to the repository root (the bench's and the tests' working directory). */
export const runsDir = path.join('test', 'bench', 'results', 'runs');

/** Where one audit's time went, from its progress messages. */
const stages = z.object({
  /** Loading and checking the files and opening the ranking cache: until the features are evaluated. */
  loadMs: z.number(),
  /** Evaluating the features and building the edits; when cold, also building the corpus index and ranking every query text. */
  editsMs: z.number(),
  latticeMs: z.number(),
  /** Scoring every attack under every reward, and the report. */
  scoringMs: z.number(),
});

/** Reading the pool and corpus files and JSON.parse of every line (test/bench/floor.ts): median of three. */
const floorResult = z.object({ kind: z.literal('floor'), ms: z.number(), lines: z.number() });

/**
 * The cold and cached-candidates audits again, in a process of their own so the peak is theirs: on
 * one thread (`--workers 1`), or on the machine's threads (for `BENCH_REPEATS`).
 */
const threadsResult = z.object({
  kind: z.literal('threads'),
  workers: z.number(),
  coldMs: z.number(),
  coldCachedMs: z.number(),
  peakMb: z.number(),
  /** Where the two audits' time went. */
  coldStages: stages,
  cachedStages: stages,
  /** On one thread: building the BM25 index of the corpus once, alone (every thread that ranks builds one). */
  indexMs: z.number().optional(),
});

/** The cached one-thread audit of `main`, timed alone in its process (`pair` runs it). */
const timingResult = z.object({ kind: z.literal('timing'), ms: z.number() });

/**
 * What the machine gives two copies of the same work: the cached one-thread audit of `main` in a
 * process alone, then in two processes at once. The threads line's speedup is read against it.
 */
const pairResult = z.object({ kind: z.literal('pair'), aloneMs: z.number(), togetherMs: z.tuple([z.number(), z.number()]) });

const auditResult = z.object({
  kind: z.literal('audit'),
  rows: z.number(),
  /** The `main` audit's isolated-eligible edits. */
  edits: z.number(),
  /** Load, corpus index, candidates, edits, scoring: nothing cached on disk or in memory. */
  coldMs: z.number(),
  /** The same with candidate rankings from the on-disk cache (a reopened workspace). */
  coldCachedMs: z.number(),
  /** Worker threads the two figures above asked for (the machine's cores, as the editor and CLI default to). */
  workers: z.number(),
  /** Check and re-score after editing a weight of R0, data and edits in memory (median of three). */
  warmMs: z.number(),
  latticeMs: z.number(),
  peakMb: z.number(),
  wideWarmMs: z.number(),
  wideLatticeMs: z.number(),
  widePeakMb: z.number(),
});

const reauditLine = z.object({
  /** What was edited: `detector`, `term` (one line per term), `comment` or `weight`. */
  change: z.enum(['detector', 'term', 'comment', 'weight']),
  /** What the edit touched and what it reads, as printed ("L's definition"). */
  label: z.string(),
  /** Median of the timed re-audits, each from the same prepared state. */
  ms: z.number(),
  runs: z.array(z.number()),
  /** The re-audit's report equals a from-scratch audit of the edited spec, byte for byte. */
  identical: z.boolean(),
  /** Where the two reports first differ, when they do. */
  difference: z.string().optional(),
});

const reauditResult = z.object({
  kind: z.literal('reaudit'),
  rows: z.number(),
  audit: z.string(),
  lines: z.array(reauditLine),
  peakMb: z.number(),
});

/** One shard process of the bench pool (`herald audit --shard I/N` in process), cached rankings. */
const shardResult = z.object({ kind: z.literal('shard'), ms: z.number(), bytes: z.number(), peakMb: z.number() });

/** The merge of every shard's file, in a process of its own, then compared with one run's report. */
const mergeResult = z.object({
  kind: z.literal('merge'),
  ms: z.number(),
  /** The merging process's peak before the one-run audit it is compared with. */
  peakMb: z.number(),
  identical: z.boolean(),
  difference: z.string().optional(),
});

const scaleSize = z.object({
  floor: floorResult,
  audit: auditResult,
  /** The one-thread runs (`--workers 1`), one per repeat. */
  oneThread: z.array(threadsResult),
  /** The runs on the machine's threads after the first (which is `audit`'s), one per extra repeat. */
  machineThreads: z.array(threadsResult),
});

/** One measurement of the import bench (test/bench/import-child.ts). */
const importChild = z.object({
  ms: z.number(),
  rows: z.number(),
  peakMb: z.number(),
  /** SHA-256 of the audit's attack sections: the same figures whichever way the rows were read. */
  reportHash: z.string().optional(),
  v1Bytes: z.number().optional(),
  resolved: z.number().optional(),
  unresolved: z.number().optional(),
  /** Edits the format could not write back (the `rendered` run). */
  unrendered: z.number().optional(),
});

const importResult = z.object({
  dir: z.string(),
  dump: z.object({ rollouts: z.number(), bytes: z.number(), files: z.number() }),
  prepared: importChild,
  imported: importChild,
  v1: importChild,
  rendered: importChild,
  floorDump: importChild,
  floorV1: importChild,
  totalMs: z.number(),
});

export const benchRunSchema = z.object({
  format: z.literal(1),
  /** When the run started (ISO 8601, UTC). */
  started: z.string(),
  commit: z.object({ sha: z.string(), dirty: z.boolean() }),
  machine: z.object({
    cpu: z.string(),
    cores: z.number(),
    memoryMb: z.number(),
    platform: z.string(),
    release: z.string(),
    arch: z.string(),
    node: z.string(),
    /** 1, 5 and 15 minute load averages at the start: how busy the machine was. */
    loadAverage: z.array(z.number()),
  }),
  /** The environment knobs as set (absent: the default). */
  knobs: z.record(z.string(), z.string()),
  scale: z.object({
    dir: z.string(),
    corpusPassages: z.number(),
    generated: z.string(),
    sizes: z.array(scaleSize),
    reaudit: z.object({ floorMs: z.number(), result: reauditResult }).optional(),
    /** Two one-thread audits at once against one alone, at the re-audit's size. */
    pair: z.object({ rows: z.number(), result: pairResult }).optional(),
    /** Three shard processes and their merge, at the re-audit's size. */
    shards: z.object({ floorMs: z.number(), rows: z.number(), shards: z.array(shardResult), merge: mergeResult }).optional(),
    totalMs: z.number(),
  }),
  import: importResult.optional(),
  /** Every line the bench printed on stdout, in order. */
  printed: z.array(z.string()),
});

export type BenchRun = z.infer<typeof benchRunSchema>;
export type FloorResult = z.infer<typeof floorResult>;
export type ThreadsResult = z.infer<typeof threadsResult>;
export type AuditResult = z.infer<typeof auditResult>;
export type ReauditResult = z.infer<typeof reauditResult>;
export type ReauditLine = z.infer<typeof reauditLine>;
export type ShardResult = z.infer<typeof shardResult>;
export type PairResult = z.infer<typeof pairResult>;
export type TimingResult = z.infer<typeof timingResult>;
export type MergeResult = z.infer<typeof mergeResult>;
export type ScaleSize = z.infer<typeof scaleSize>;
export type ImportChildResult = z.infer<typeof importChild>;
export type ImportResult = z.infer<typeof importResult>;
export type Stages = z.infer<typeof stages>;
/** What a child process prints as its last line, checked as it is read. */
export const childResults = { floor: floorResult, threads: threadsResult, audit: auditResult, reaudit: reauditResult, shard: shardResult, merge: mergeResult, pair: pairResult, timing: timingResult, import: importChild } as const;

/** Environment variables the benches read. */
export const benchKnobs = ['BENCH_SIZES', 'BENCH_REPEATS', 'BENCH_IMPORT_ROWS', 'HERALD_CACHE_DIR'] as const;

export function knobsNow(): Record<string, string> {
  return Object.fromEntries(benchKnobs.flatMap((name) => (process.env[name] === undefined ? [] : [[name, process.env[name]]])));
}

export function machineNow(): BenchRun['machine'] {
  const cpus = os.cpus();
  return {
    cpu: cpus[0]?.model.trim() ?? 'unknown',
    cores: cpus.length,
    memoryMb: Math.round(os.totalmem() / (1024 * 1024)),
    platform: os.platform(),
    release: os.release(),
    arch: os.arch(),
    node: process.version,
    loadAverage: os.loadavg().map((l) => Math.round(l * 100) / 100),
  };
}

/** The checked-out commit, and whether tracked or new files outside the run files differ from it. */
export function commitNow(): BenchRun['commit'] {
  const git = (...args: string[]): string => execFileSync('git', args, { encoding: 'utf8' }).trim();
  const changed = git('status', '--porcelain').split('\n').filter((line) => line !== '' && !line.slice(3).startsWith(`${runsDir.split(path.sep).join('/')}/`));
  return { sha: git('rev-parse', 'HEAD'), dirty: changed.length > 0 };
}

/** `2026-12-07T15-40-00Z-0de5471.json`: sorts by date, names the commit. */
export function runFileName(run: Pick<BenchRun, 'started' | 'commit'>): string {
  return `${run.started.slice(0, 19).replace(/:/g, '-')}Z-${run.commit.sha.slice(0, 7)}.json`;
}

export function writeRun(run: BenchRun): string {
  mkdirSync(runsDir, { recursive: true });
  const file = path.join(runsDir, runFileName(run));
  writeFileSync(file, `${JSON.stringify(benchRunSchema.parse(run), null, 2)}\n`);
  return file;
}

/** The newest run file's name (names sort by date), or undefined when there is none. */
export function latestRunFile(dir = runsDir): string | undefined {
  return readdirSync(dir).filter((name) => name.endsWith('.json')).sort().pop();
}

export function readRun(file: string): BenchRun {
  return benchRunSchema.parse(JSON.parse(readFileSync(file, 'utf8')));
}

/** Reads a child process's last stdout line as the result it promises. */
export function childLine<T>(schema: z.ZodType<T>, stdout: string): T {
  const line = stdout.trim().split('\n').pop() ?? '';
  return schema.parse(JSON.parse(line));
}
