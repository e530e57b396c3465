// One size of `npm run bench`, in its own process so its peak memory is its own. Prints one JSON
// line on stdout. `floor DIR` times reading and JSON.parse of the pool and corpus; `audit DIR`
// times the audits of DIR/bench.reward (see scale.bench.ts for what each figure means).
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
import { benchSpec, groundingWeight } from './scale-spec.js';

export interface FloorResult {
  readonly kind: 'floor';
  readonly ms: number;
  readonly lines: number;
}

/**
 * The cold and cached-candidates audits again, in a process of their own so the peak is theirs: on
 * one thread (`--workers 1`), or on the machine's threads (for `BENCH_REPEATS`).
 */
export interface ThreadsResult {
  readonly kind: 'threads';
  readonly workers: number;
  readonly coldMs: number;
  readonly coldCachedMs: number;
  readonly peakMb: number;
  /** Where the two audits' time went. */
  readonly coldStages: Stages;
  readonly cachedStages: Stages;
  /** On one thread: building the BM25 index of the corpus once, alone (every thread that ranks builds one). */
  readonly indexMs?: number;
}

/** Where one audit's time went, from its progress messages. */
export interface Stages {
  /** Loading and checking the files and opening the ranking cache: until the features are evaluated. */
  readonly loadMs: number;
  /** Evaluating the features and building the edits; when cold, also building the corpus index and ranking every query text. */
  readonly editsMs: number;
  readonly latticeMs: number;
  /** Scoring every attack under every reward, and the report. */
  readonly scoringMs: number;
}

export interface AuditResult {
  readonly kind: 'audit';
  readonly rows: number;
  readonly edits: number;
  /** Load, corpus index, candidates, edits, scoring: nothing cached on disk or in memory. */
  readonly coldMs: number;
  /** The same with candidate rankings from the on-disk cache (a reopened workspace). */
  readonly coldCachedMs: number;
  /** Worker threads the two figures above asked for (the machine's cores, as the editor and CLI default to). */
  readonly workers: number;
  /** Check and re-score after editing a weight of R0, data and edits in memory. */
  readonly warmMs: number;
  readonly latticeMs: number;
  readonly peakMb: number;
  readonly wideWarmMs: number;
  readonly wideLatticeMs: number;
  readonly widePeakMb: number;
}

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
async function timedAudit(specFile: string, cache: AuditCaches, only: string, cacheDir: string, workers?: number): Promise<{ ms: number; stages: Stages; report: Awaited<ReturnType<typeof auditSpec>>['report'] }> {
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
  const audited = coldCached.report!.audits[0]!;
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

const modes = {
  floor: (dir: string) => Promise.resolve(floor(dir)),
  audit,
  'one-thread': (dir: string) => threads(dir, 1),
  'machine-threads': (dir: string) => threads(dir, defaultWorkers()),
} as const;
const [mode, dir] = process.argv.slice(2);
if (mode === undefined || !(mode in modes) || dir === undefined) {
  console.error('usage: scale-child.js floor|audit|one-thread|machine-threads DIR');
  process.exitCode = 2;
} else {
  modes[mode as keyof typeof modes](dir).then(
    (result) => console.log(JSON.stringify(result)),
    (error: unknown) => {
      console.error(error);
      process.exitCode = 1;
    },
  );
}
