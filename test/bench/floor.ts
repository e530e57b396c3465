// The floor every audit benchmark divides by: reading the same files and JSON.parse of every line,
// measured in the same run, so a ratio survives a busy machine better than seconds do.
import { readFileSync } from 'node:fs';
import { performance } from 'node:perf_hooks';

export const median = (xs: readonly number[]): number => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;

/** Reads and parses `files` once; the milliseconds it took and how many lines it parsed. */
export function parseFloor(files: readonly string[]): { ms: number; lines: number } {
  const start = performance.now();
  let lines = 0;
  for (const file of files) {
    for (const line of readFileSync(file, 'utf8').split('\n')) {
      if (line.length === 0) continue;
      JSON.parse(line);
      lines++;
    }
  }
  return { ms: performance.now() - start, lines };
}
