// The floor every audit benchmark divides by: reading the same files and JSON.parse of every line,
// measured in the same run, so a ratio survives a busy machine better than seconds do.
import { closeSync, openSync, readSync } from 'node:fs';
import { performance } from 'node:perf_hooks';
import { StringDecoder } from 'node:string_decoder';

export const median = (xs: readonly number[]): number => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;

// Read in chunks, not as one string: V8 refuses a string past 512 MiB, and a million-row pool is more.
const chunkBytes = 16 * 1024 * 1024;

/** Reads and parses `files` once; the milliseconds it took and how many lines it parsed. */
export function parseFloor(files: readonly string[]): { ms: number; lines: number } {
  const start = performance.now();
  let lines = 0;
  const parse = (line: string): void => {
    if (line.length === 0) return;
    JSON.parse(line);
    lines++;
  };
  const buffer = Buffer.allocUnsafe(chunkBytes);
  for (const file of files) {
    const fd = openSync(file, 'r');
    try {
      const decoder = new StringDecoder('utf8');
      let rest = '';
      for (let read = readSync(fd, buffer); read > 0; read = readSync(fd, buffer)) {
        const parts = (rest + decoder.write(buffer.subarray(0, read))).split('\n');
        rest = parts.pop()!;
        for (const line of parts) parse(line);
      }
      parse(rest + decoder.end());
    } finally {
      closeSync(fd);
    }
  }
  return { ms: performance.now() - start, lines };
}
