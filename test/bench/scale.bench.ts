// The first part of `npm run bench` (test/bench/bench.ts): the audit at training-log sizes, as
// ratios to the floor measured in the same run (reading the pool and corpus files and JSON.parse of
// every line). Pools of 1,000, 10,000, 58,368 and 200,000 trajectories over a 100,000-passage
// corpus are generated outside the repo (${TMPDIR:-/tmp}/herald-bench, reused while their
// parameters match) and each size is measured in its own process, so peak memory is per size.
// Prints one table, then per size the threads line, the machine's own line for two copies of the
// work at once (at one size), and the stages lines (where one thread's time goes, and the best more
// threads could do), then the re-audit after each kind of change at one size; asserts nothing but that each re-audit's report is a from-scratch audit's.
// BENCH_SIZES=1000,10000 limits the sizes. BENCH_REPEATS=N measures the threads line N times, one
// thread and the machine's threads alternated in processes of their own, and gives medians with
// the range of the per-pair speedups: on a small, shared machine one pair varies by more than the
// change it is meant to show (docs/performance.md, Threads). It is also the re-audits' number of
// runs (3 when unset).
import { spawnSync } from 'node:child_process';
import * as os from 'node:os';
import * as path from 'node:path';
import { performance } from 'node:perf_hooks';
import type { z } from 'zod';
import { generateScaled } from '../../samples/generator/scaled.js';
import { threadsFor } from '../../server/src/threads/parallel-prepare.js';
import { childLine, childResults, type BenchRun, type ScaleSize, type ThreadsResult } from './run-record.js';
import { pairLine, reauditHeading, reauditLine, reauditPeakLine, scalingLine, seconds, stagesLines, tableHeader, tableRow } from './scale-lines.js';

export const benchRoot = path.join(os.tmpdir(), 'herald-bench');
const child = path.join(__dirname, 'scale-child.js');

export const sizesOf = (): number[] => (process.env['BENCH_SIZES'] ?? '1000,10000,58368,200000').split(',').map(Number);
const repeatsOf = (fallback: number): number => Math.max(1, Math.floor(Number(process.env['BENCH_REPEATS'] ?? String(fallback))) || fallback);

/** The size the re-audit lines are measured at: the issue's 58,368 rows when measured, else the first size. */
export const reauditSizeOf = (sizes: readonly number[]): number => (sizes.includes(58_368) ? 58_368 : sizes[0]!);

// Every size runs with Node's default heap limit, as the editor's audit worker and the CLI do (a
// roomier limit only lets the collector wait longer, which inflates peak memory).
export function runScaleChild<T>(mode: 'floor' | 'audit' | 'one-thread' | 'machine-threads' | 'reaudit' | 'shard' | 'merge' | 'pair', dir: string, schema: z.ZodType<T>, ...args: string[]): T {
  const result = spawnSync(process.execPath, [child, mode, dir, ...args], { encoding: 'utf8', maxBuffer: 1 << 24 });
  if (result.status !== 0 || !result.stdout.trim().split('\n').pop()?.startsWith('{')) throw new Error(`${mode} ${dir} failed (${result.status}):\n${result.stderr}`);
  return childLine(schema, result.stdout);
}

/** The re-audit block's lines. */
export function reauditLines(reaudit: NonNullable<BenchRun['scale']['reaudit']>): string[] {
  const repeats = reaudit.result.lines[0]?.runs.length ?? 0;
  return [reauditHeading(reaudit.result, repeats), ...reaudit.result.lines.map((line) => reauditLine(line, reaudit.floorMs)), reauditPeakLine(reaudit.result)];
}

/** The shards' lines: each shard, the merge, and whether the merged report is one run's. */
export function shardLines(shards: NonNullable<BenchRun['scale']['shards']>): string[] {
  const ratio = (ms: number): string => `${seconds(ms)} s (${(ms / shards.floorMs).toFixed(2)}×)`;
  return [
    `three shard processes of main at ${shards.rows.toLocaleString('en-US')} rows (herald audit --shard I/3, one thread each, cached rankings, run one after another), then herald merge; × = ratio to the floor:`,
    ...shards.shards.map((s, i) => `shard ${i}/3: ${ratio(s.ms)}, partial file ${(s.bytes / 1024 / 1024).toFixed(1)} MiB, peak ${Math.round(s.peakMb)} MB`),
    `merge: ${ratio(shards.merge.ms)}, peak ${Math.round(shards.merge.peakMb)} MB; the merged report is ${shards.merge.identical ? 'identical to' : `NOT the one-process report (${shards.merge.difference ?? ''})`}${shards.merge.identical ? ' the one-process report' : ''}`,
  ];
}

/** Fails the process, after its figures are printed and kept, when a re-audit's report was not a from-scratch audit's. */
export function failUnlessIdentical(reaudit: BenchRun['scale']['reaudit'], shards?: BenchRun['scale']['shards']): void {
  if (shards?.merge.identical === false) {
    process.stderr.write(`bench: FAILED: the merged shards' report is not the one-process report: ${shards.merge.difference ?? ''}\n`);
    process.exitCode = 1;
  }
  const differing = reaudit?.result.lines.filter((line) => !line.identical) ?? [];
  for (const line of differing) process.stderr.write(`bench: FAILED: the re-audit after a ${line.change} change (${line.label}) is not a from-scratch audit's report: ${line.difference ?? ''}\n`);
  if (differing.length > 0) process.exitCode = 1;
}

/** Every line the scale part prints, from its figures. */
export function scaleLines(scale: BenchRun['scale'], machine: BenchRun['machine']): string[] {
  const rows = scale.sizes.map(tableRow);
  const widths = tableHeader.map((h, i) => Math.max(h.length, ...rows.map((r) => r[i]!.length)));
  const line = (cells: readonly string[]): string => cells.map((c, i) => (i === 0 ? c.padEnd(widths[i]!) : c.padStart(widths[i]!))).join('  ');
  return [
    `herald audit at scale: ${scale.dir} (corpus ${scale.corpusPassages.toLocaleString('en-US')} passages, ${scale.generated}); node ${machine.node}, ${machine.cores} cores, load ${machine.loadAverage.map((l) => l.toFixed(2)).join(', ')}`,
    '3 attacks (same_final, fake_id, launder with bm25(16)), rewards R0, R_L, R_full; × = ratio to the floor (read + JSON.parse pool and corpus, same run)',
    '',
    line(tableHeader),
    ...rows.map(line),
    '',
    'cold: load, corpus index, candidates, edits, scoring, nothing cached; cold, cached cand.: the same with candidate rankings from the on-disk cache',
    'warm: check and re-score after an edit of an R0 weight (median of 3); lattice: its share of that; k=10: the same attacks under a 10-detector lattice',
    "peak: the process's maximum resident set (the calling thread's and the workers' heaps), with Node's default heap limit",
    '',
    "threads: the cold and cached figures above use the machine's cores; the same two audits on one thread (--workers 1), in a process of their own:",
    ...scale.sizes.map(scalingLine),
    ...(scale.pair === undefined ? [] : [pairLine(scale.pair)]),
    '',
    "stages: where the one-thread audits' time goes (progress messages; medians with BENCH_REPEATS), and the best this design could do on more threads:",
    'the load, the lattice and the scoring stay on the calling thread, every thread that ranks builds its own corpus index, and the rest divides perfectly',
    ...scale.sizes.flatMap(stagesLines),
    ...(scale.reaudit === undefined ? [] : ['', ...reauditLines(scale.reaudit)]),
    ...(scale.shards === undefined ? [] : ['', ...shardLines(scale.shards)]),
    `total ${seconds(scale.totalMs)} s`,
  ];
}

/** Measures every size, then the re-audits at one of them; returns the figures (nothing printed but progress on stderr). */
export function scaleBench(): BenchRun['scale'] {
  const started = performance.now();
  const sizes = sizesOf();
  const repeats = repeatsOf(1);
  const generated = generateScaled({ outDir: benchRoot, seed: '2608', corpusSize: 100_000, sizes });
  const generatedNote = generated.written.length === 0 ? 'reused' : `generated ${generated.written.length} files in ${seconds(performance.now() - started)} s`;
  const measured: ScaleSize[] = [];
  let reaudit: BenchRun['scale']['reaudit'];
  let shards: BenchRun['scale']['shards'];
  let pair: BenchRun['scale']['pair'];
  for (const size of sizes) {
    const dir = path.join(benchRoot, String(size));
    const floor = runScaleChild('floor', dir, childResults.floor);
    const audit = runScaleChild('audit', dir, childResults.audit);
    const oneThread = [runScaleChild('one-thread', dir, childResults.threads)];
    const machineThreads: ThreadsResult[] = [];
    for (let r = 1; r < repeats && threadsFor(audit.rows, audit.workers) >= 2; r++) {
      oneThread.push(runScaleChild('one-thread', dir, childResults.threads));
      machineThreads.push(runScaleChild('machine-threads', dir, childResults.threads));
    }
    measured.push({ floor, audit, oneThread, machineThreads });
    // After the audit mode, whose candidate cache it reads: rankings from disk, as a reopened workspace has them.
    if (size === reauditSizeOf(sizes)) {
      reaudit = { floorMs: floor.ms, result: runScaleChild('reaudit', dir, childResults.reaudit) };
      pair = { rows: audit.rows, result: runScaleChild('pair', dir, childResults.pair) };
      // One after another: each shard's time is its own, as on a machine of its own.
      const shardRuns = [0, 1, 2].map((index) => runScaleChild('shard', dir, childResults.shard, String(index)));
      shards = { floorMs: floor.ms, rows: audit.rows, shards: shardRuns, merge: runScaleChild('merge', dir, childResults.merge) };
    }
    process.stderr.write(`bench: ${size} done\n`);
  }
  return {
    dir: benchRoot, corpusPassages: 100_000, generated: generatedNote, sizes: measured,
    ...(reaudit === undefined ? {} : { reaudit }), ...(pair === undefined ? {} : { pair }), ...(shards === undefined ? {} : { shards }), totalMs: performance.now() - started,
  };
}
