/**
 * Streams JSON lines to a file. Lines are buffered up to about a megabyte and written synchronously,
 * so a 200,000-row pool never exists as one string and no backpressure bookkeeping is needed.
 */
import { closeSync, openSync, writeSync } from 'node:fs';

export interface LineWriter {
  write(value: unknown): void;
  /** Flushes, closes the file and returns what was written. */
  close(): { lines: number; bytes: number };
}

const FLUSH_AT = 1 << 20;

export function openLineWriter(path: string): LineWriter {
  const fd = openSync(path, 'w');
  let chunks: string[] = [];
  let pending = 0;
  let lines = 0;
  let bytes = 0;
  const flush = (): void => {
    if (chunks.length === 0) return;
    const buffer = Buffer.from(chunks.join(''), 'utf8');
    for (let offset = 0; offset < buffer.length; ) offset += writeSync(fd, buffer, offset);
    bytes += buffer.length;
    chunks = [];
    pending = 0;
  };
  return {
    write: (value) => {
      const line = `${JSON.stringify(value)}\n`;
      chunks.push(line);
      pending += line.length;
      lines++;
      if (pending >= FLUSH_AT) flush();
    },
    close: () => {
      flush();
      closeSync(fd);
      return { lines, bytes };
    },
  };
}
