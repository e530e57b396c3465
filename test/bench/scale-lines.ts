// How the scale bench's figures read, as it prints them and as docs/performance.md's generated
// tables show them (test/bench/bench-tables.ts): one place, so the docs say what the bench said.
import { minRowsPerWorker, threadsFor } from '../../server/src/threads/parallel-prepare.js';
import { median } from './floor.js';
import type { PairResult, ReauditLine, ReauditResult, ScaleSize, Stages, ThreadsResult } from './run-record.js';

export const seconds = (ms: number): string => (ms / 1000).toFixed(ms < 10_000 ? 2 : 1);
export const ratio = (ms: number, floor: number): string => `${(ms / floor).toFixed(ms / floor < 10 ? 2 : 1)}×`;
export const cell = (ms: number, floor: number): string => `${seconds(ms)} (${ratio(ms, floor)})`;
export const count = (n: number): string => n.toLocaleString('en-US');

/** The cold and cached figures of one run, on one thread or on the machine's. */
type Timing = Pick<ThreadsResult, 'coldMs' | 'coldCachedMs'>;

export const tableHeader = ['trajectories', 'edits', 'floor s', 'cold s', 'cold, cached cand. s', 'warm s', 'lattice k=3 ms', 'warm k=10 s', 'lattice k=10 ms', 'peak MB k=3', 'peak MB k=10'] as const;

/** One row of the table, in the header's order. */
export function tableRow({ floor, audit }: ScaleSize): string[] {
  return [
    count(audit.rows), count(audit.edits), seconds(floor.ms),
    cell(audit.coldMs, floor.ms), cell(audit.coldCachedMs, floor.ms), cell(audit.warmMs, floor.ms), audit.latticeMs.toFixed(0),
    cell(audit.wideWarmMs, floor.ms), audit.wideLatticeMs.toFixed(0), audit.peakMb.toFixed(0), audit.widePeakMb.toFixed(0),
  ];
}

/** The runs on the machine's threads: the audit's, then the repeats'. */
const manyRuns = (size: ScaleSize): Timing[] => [size.audit, ...size.machineThreads];

/**
 * The speedup from one thread to N, the parallel fraction p that Amdahl's law gives for it
 * (speedup = 1 / ((1 − p) + p / N)), and the time that fraction projects for 32 cores; and the
 * one-thread runs' peak memory. With several runs of each (alternated), the times are medians, the
 * speedup is theirs, and the range is that of the speedups of the runs paired in order.
 */
export function scalingLine(size: ScaleSize): string {
  const { audit, oneThread: ones } = size;
  const manys = manyRuns(size);
  const n = threadsFor(audit.rows, audit.workers);
  const rows = count(audit.rows);
  const peak = Math.max(...ones.map((o) => o.peakMb)).toFixed(0);
  if (n < 2) return `${rows}: one thread either way (fewer than ${count(2 * minRowsPerWorker)} rows); peak ${peak} MB`;
  const describe = (label: string, of: (t: Timing) => number): string => {
    const oneMs = median(ones.map(of));
    const manyMs = median(manys.map(of));
    const speedup = oneMs / manyMs;
    const p = (1 - 1 / speedup) / (1 - 1 / n);
    const pairs = ones.map((o, i) => of(o) / of(manys[i]!));
    const range = pairs.length < 2 ? '' : ` (medians of ${pairs.length} runs each, alternated; pairs ${Math.min(...pairs).toFixed(2)}–${Math.max(...pairs).toFixed(2)}×)`;
    return `${label} ${seconds(oneMs)} s on 1 thread, ${seconds(manyMs)} s on ${n}: ${speedup.toFixed(2)}×${range}, parallel fraction ${p.toFixed(2)}, projected on 32 cores ${seconds(oneMs * ((1 - p) + p / 32))} s`;
  };
  return `${rows}: ${describe('cold', (t) => t.coldMs)}; ${describe('cached candidates', (t) => t.coldCachedMs)}; one-thread peak ${peak} MB`;
}

/**
 * What two copies of the same work cost this machine: the cached one-thread audit alone, and two of
 * it at once in processes of their own. Two threads that split the work and slow each other as much
 * give about 2 × alone / together: the figure the threads line's speedup is to be read against.
 */
export function pairLine({ rows, result }: { readonly rows: number; readonly result: PairResult }): string {
  const slowest = Math.max(...result.togetherMs);
  return `${count(rows)}, the machine itself: the cached one-thread audit took ${seconds(result.aloneMs)} s alone and ${result.togetherMs.map(seconds).join(' s and ')} s as two processes at once `
    + `(${(slowest / result.aloneMs).toFixed(2)}× slower); two threads that split this work and slow each other as much give about ${((2 * result.aloneMs) / slowest).toFixed(2)}×`;
}

/**
 * Where one thread's time goes (medians of the one-thread runs), and the best the machine's threads
 * and 32 could do with this design: the load, the lattice and the scoring run on the calling
 * thread; every thread that ranks builds its own corpus index; everything else divides perfectly.
 */
export function stagesLines({ audit, oneThread: ones, floor }: ScaleSize): string[] {
  const rows = count(audit.rows);
  const stage = (which: 'coldStages' | 'cachedStages', key: keyof Stages): number => median(ones.map((r) => r[which][key]));
  const indexMs = median(ones.map((r) => r.indexMs ?? 0));
  const serial = (which: 'coldStages' | 'cachedStages'): number => stage(which, 'loadMs') + stage(which, 'latticeMs') + stage(which, 'scoringMs');
  const cachedAt = (n: number): number => serial('cachedStages') + stage('cachedStages', 'editsMs') / n;
  const coldAt = (n: number): number => serial('coldStages') + indexMs + (stage('coldStages', 'editsMs') - indexMs) / n;
  const n = Math.max(2, threadsFor(audit.rows, audit.workers));
  const describe = (which: 'coldStages' | 'cachedStages'): string =>
    `load ${seconds(stage(which, 'loadMs'))} s, features and edits ${seconds(stage(which, 'editsMs'))} s, lattice ${seconds(stage(which, 'latticeMs'))} s, scoring ${seconds(stage(which, 'scoringMs'))} s`;
  return [
    `${rows}, one thread, cached candidates: ${describe('cachedStages')}`,
    `${rows}, one thread, cold: ${describe('coldStages')}; the corpus index alone ${seconds(indexMs)} s`,
    `${rows}, at best on ${n} threads: cached ${cell(cachedAt(n), floor.ms)}, cold ${cell(coldAt(n), floor.ms)}; on 32: cached ${cell(cachedAt(32), floor.ms)}, cold ${cell(coldAt(32), floor.ms)}`,
  ];
}

const changeWords: Record<ReauditLine['change'], string> = {
  detector: 'a detector change',
  term: 'a reward term change',
  comment: 'a comment change',
  weight: 'a weight change',
};

/** What the re-audit lines measured, printed above them. */
export function reauditHeading(result: ReauditResult, repeats: number): string {
  return `re-audit of ${result.audit} at ${count(result.rows)} rows, the audit prepared and kept in memory as the editor keeps it; each change from the same prepared state, median of ${repeats}; × = ratio to the floor; each compared with a from-scratch audit of the edited spec:`;
}

export function reauditLine(line: ReauditLine, floorMs: number): string {
  const same = line.identical ? 'identical' : `NOT IDENTICAL to a from-scratch audit, ${line.difference ?? 'no difference recorded'}`;
  return `re-audit after ${changeWords[line.change]} (${line.label}): ${seconds(line.ms)} s (${ratio(line.ms, floorMs)}), ${same}`;
}

/** The peak of the process that kept one prepared audit and made the from-scratch audits beside it. */
export const reauditPeakLine = (result: ReauditResult): string => `re-audit process peak ${result.peakMb.toFixed(0)} MB (the kept audit and one from-scratch audit beside it)`;
