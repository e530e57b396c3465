// `npm run bench`: the audit at training-log sizes, as ratios to the floor measured in the same
// run (reading the pool and corpus files and JSON.parse of every line). Pools of 1,000, 10,000,
// 58,368 and 200,000 trajectories over a 100,000-passage corpus are generated outside the repo
// (${TMPDIR:-/tmp}/herald-bench, reused while their parameters match) and each size is measured
// in its own process, so peak memory is per size. Prints one table, then per size the threads
// line and the stages lines (where one thread's time goes, and the best more threads could do);
// asserts nothing.
// BENCH_SIZES=1000,10000 limits the sizes. BENCH_REPEATS=N measures the threads line N times, one
// thread and the machine's threads alternated in processes of their own, and gives medians with
// the range of the per-pair speedups: on a small, shared machine one pair varies by more than the
// change it is meant to show (docs/performance.md, Threads).
import { spawnSync } from 'node:child_process';
import * as os from 'node:os';
import * as path from 'node:path';
import { performance } from 'node:perf_hooks';
import { generateScaled } from '../../samples/generator/scaled.js';
import type { AuditResult, FloorResult, Stages, ThreadsResult } from './scale-child.js';
import { minRowsPerWorker, threadsFor } from '../../server/src/threads/parallel-prepare.js';
import { median } from './floor.js';

const sizes = (process.env['BENCH_SIZES'] ?? '1000,10000,58368,200000').split(',').map(Number);
const repeats = Math.max(1, Math.floor(Number(process.env['BENCH_REPEATS'] ?? '1')) || 1);
const root = path.join(os.tmpdir(), 'herald-bench');
const child = path.join(__dirname, 'scale-child.js');

// Every size runs with Node's default heap limit, as the editor's audit worker and the CLI do (a
// roomier limit only lets the collector wait longer, which inflates peak memory).
function run<T>(mode: 'floor' | 'audit' | 'one-thread' | 'machine-threads', dir: string): T {
  const result = spawnSync(process.execPath, [child, mode, dir], { encoding: 'utf8', maxBuffer: 1 << 24 });
  const line = result.stdout.trim().split('\n').pop() ?? '';
  if (result.status !== 0 || !line.startsWith('{')) throw new Error(`${mode} ${dir} failed (${result.status}):\n${result.stderr}`);
  return JSON.parse(line) as T;
}

const seconds = (ms: number): string => (ms / 1000).toFixed(ms < 10_000 ? 2 : 1);
const ratio = (ms: number, floor: number): string => `${(ms / floor).toFixed(ms / floor < 10 ? 2 : 1)}×`;
const cell = (ms: number, floor: number): string => `${seconds(ms)} (${ratio(ms, floor)})`;

/** The cold and cached figures of one run, on one thread or on the machine's. */
type Timing = Pick<ThreadsResult, 'coldMs' | 'coldCachedMs'>;

/**
 * The speedup from one thread to N, the parallel fraction p that Amdahl's law gives for it
 * (speedup = 1 / ((1 − p) + p / N)), and the time that fraction projects for 32 cores; and the
 * one-thread runs' peak memory. With several runs of each (alternated), the times are medians, the
 * speedup is theirs, and the range is that of the speedups of the runs paired in order.
 */
function scalingLine(audit: AuditResult, ones: readonly ThreadsResult[], manys: readonly Timing[]): string {
  const n = threadsFor(audit.rows, audit.workers);
  const size = audit.rows.toLocaleString('en-US');
  const peak = Math.max(...ones.map((o) => o.peakMb)).toFixed(0);
  if (n < 2) return `${size}: one thread either way (fewer than ${(2 * minRowsPerWorker).toLocaleString('en-US')} rows); peak ${peak} MB`;
  const describe = (label: string, of: (t: Timing) => number): string => {
    const oneMs = median(ones.map(of));
    const manyMs = median(manys.map(of));
    const speedup = oneMs / manyMs;
    const p = (1 - 1 / speedup) / (1 - 1 / n);
    const pairs = ones.map((o, i) => of(o) / of(manys[i]!));
    const range = pairs.length < 2 ? '' : ` (medians of ${pairs.length} runs each, alternated; pairs ${Math.min(...pairs).toFixed(2)}–${Math.max(...pairs).toFixed(2)}×)`;
    return `${label} ${seconds(oneMs)} s on 1 thread, ${seconds(manyMs)} s on ${n}: ${speedup.toFixed(2)}×${range}, parallel fraction ${p.toFixed(2)}, projected on 32 cores ${seconds(oneMs * ((1 - p) + p / 32))} s`;
  };
  return `${size}: ${describe('cold', (t) => t.coldMs)}; ${describe('cached candidates', (t) => t.coldCachedMs)}; one-thread peak ${peak} MB`;
}

/**
 * Where one thread's time goes (medians of the one-thread runs), and the best the machine's threads
 * and 32 could do with this design: the load, the lattice and the scoring run on the calling
 * thread; every thread that ranks builds its own corpus index; everything else divides perfectly.
 */
function stagesLines(audit: AuditResult, ones: readonly ThreadsResult[], floorMs: number): string[] {
  const size = audit.rows.toLocaleString('en-US');
  const stage = (which: 'coldStages' | 'cachedStages', key: keyof Stages): number => median(ones.map((r) => r[which][key]));
  const indexMs = median(ones.map((r) => r.indexMs ?? 0));
  const serial = (which: 'coldStages' | 'cachedStages'): number => stage(which, 'loadMs') + stage(which, 'latticeMs') + stage(which, 'scoringMs');
  const cachedAt = (n: number): number => serial('cachedStages') + stage('cachedStages', 'editsMs') / n;
  const coldAt = (n: number): number => serial('coldStages') + indexMs + (stage('coldStages', 'editsMs') - indexMs) / n;
  const n = Math.max(2, threadsFor(audit.rows, audit.workers));
  const describe = (which: 'coldStages' | 'cachedStages'): string =>
    `load ${seconds(stage(which, 'loadMs'))} s, features and edits ${seconds(stage(which, 'editsMs'))} s, lattice ${seconds(stage(which, 'latticeMs'))} s, scoring ${seconds(stage(which, 'scoringMs'))} s`;
  return [
    `${size}, one thread, cached candidates: ${describe('cachedStages')}`,
    `${size}, one thread, cold: ${describe('coldStages')}; the corpus index alone ${seconds(indexMs)} s`,
    `${size}, at best on ${n} threads: cached ${cell(cachedAt(n), floorMs)}, cold ${cell(coldAt(n), floorMs)}; on 32: cached ${cell(cachedAt(32), floorMs)}, cold ${cell(coldAt(32), floorMs)}`,
  ];
}

function main(): void {
  const started = performance.now();
  const load = os.loadavg().map((l) => l.toFixed(2)).join(', ');
  const generated = generateScaled({ outDir: root, seed: '2608', corpusSize: 100_000, sizes });
  const generatedNote = generated.written.length === 0 ? 'reused' : `generated ${generated.written.length} files in ${seconds(performance.now() - started)} s`;

  const header = ['trajectories', 'edits', 'floor s', 'cold s', 'cold, cached cand. s', 'warm s', 'lattice k=3 ms', 'warm k=10 s', 'lattice k=10 ms', 'peak MB k=3', 'peak MB k=10'];
  const rows: string[][] = [];
  const scaling: string[] = [];
  const stages: string[] = [];
  for (const size of sizes) {
    const dir = path.join(root, String(size));
    const floor = run<FloorResult>('floor', dir);
    const audit = run<AuditResult>('audit', dir);
    const ones = [run<ThreadsResult>('one-thread', dir)];
    const manys: Timing[] = [audit];
    for (let r = 1; r < repeats && threadsFor(audit.rows, audit.workers) >= 2; r++) {
      ones.push(run<ThreadsResult>('one-thread', dir));
      manys.push(run<ThreadsResult>('machine-threads', dir));
    }
    rows.push([
      audit.rows.toLocaleString('en-US'), audit.edits.toLocaleString('en-US'), seconds(floor.ms),
      cell(audit.coldMs, floor.ms), cell(audit.coldCachedMs, floor.ms), cell(audit.warmMs, floor.ms), audit.latticeMs.toFixed(0),
      cell(audit.wideWarmMs, floor.ms), audit.wideLatticeMs.toFixed(0), audit.peakMb.toFixed(0), audit.widePeakMb.toFixed(0),
    ]);
    scaling.push(scalingLine(audit, ones, manys));
    stages.push(...stagesLines(audit, ones, floor.ms));
    process.stderr.write(`bench: ${size} done\n`);
  }
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((r) => r[i]!.length)));
  const line = (cells: readonly string[]): string => cells.map((c, i) => (i === 0 ? c.padEnd(widths[i]!) : c.padStart(widths[i]!))).join('  ');
  console.log(`herald audit at scale: ${root} (corpus 100,000 passages, ${generatedNote}); node ${process.version}, ${os.cpus().length} cores, load ${load}`);
  console.log('3 attacks (same_final, fake_id, launder with bm25(16)), rewards R0, R_L, R_full; × = ratio to the floor (read + JSON.parse pool and corpus, same run)');
  console.log('');
  console.log(line(header));
  for (const row of rows) console.log(line(row));
  console.log('');
  console.log('cold: load, corpus index, candidates, edits, scoring, nothing cached; cold, cached cand.: the same with candidate rankings from the on-disk cache');
  console.log('warm: check and re-score after an edit of an R0 weight (median of 3); lattice: its share of that; k=10: the same attacks under a 10-detector lattice');
  console.log("peak: the process's maximum resident set (the calling thread's and the workers' heaps), with Node's default heap limit");
  console.log('');
  console.log('threads: the cold and cached figures above use the machine\'s cores; the same two audits on one thread (--workers 1), in a process of their own:');
  for (const line of scaling) console.log(line);
  console.log('');
  console.log('stages: where the one-thread audits\' time goes (progress messages; medians with BENCH_REPEATS), and the best this design could do on more threads:');
  console.log('the load, the lattice and the scoring stay on the calling thread, every thread that ranks builds its own corpus index, and the rest divides perfectly');
  for (const line of stages) console.log(line);
  console.log(`total ${seconds(performance.now() - started)} s`);
}

main();
