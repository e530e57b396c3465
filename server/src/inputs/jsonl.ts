// Reads JSONL fixtures line by line. Pools and corpora can be far larger than is pleasant to hold
// as one string, so the loaders stream; the in-memory splitter shares the same line rules so an
// editor buffer and a file on disk number their lines alike.
import * as fs from 'node:fs';

/** One non-blank line of a JSONL file, without its line ending (and without a leading BOM). */
export interface JsonlLine {
  /** One-based, counting every line of the file, blank ones included. */
  readonly line: number;
  readonly text: string;
}

const byteOrderMark = '\uFEFF';

/**
 * Splits text pushed in arbitrary pieces into lines. A line ends at "\n"; a "\r" before it is
 * dropped (CRLF files); a BOM at the very start is dropped; blank lines are counted but not
 * returned, since a trailing or separating empty line is not a row.
 */
class LineSplitter {
  private pending = '';
  private lineNumber = 0;
  private started = false;

  push(piece: string): JsonlLine[] {
    if (!this.started && piece.length > 0) {
      this.started = true;
      if (piece.startsWith(byteOrderMark)) piece = piece.slice(1);
    }
    const out: JsonlLine[] = [];
    let from = 0;
    let newline = piece.indexOf('\n');
    while (newline >= 0) {
      const head = piece.slice(from, newline);
      const text = this.pending.length > 0 ? this.pending + head : head;
      this.pending = '';
      this.emit(text, out);
      from = newline + 1;
      newline = piece.indexOf('\n', from);
    }
    if (from < piece.length) this.pending += piece.slice(from);
    return out;
  }

  /** The last line, when the file does not end with a newline. */
  end(): JsonlLine[] {
    const out: JsonlLine[] = [];
    if (this.pending.length > 0) this.emit(this.pending, out);
    this.pending = '';
    return out;
  }

  private emit(raw: string, out: JsonlLine[]): void {
    this.lineNumber += 1;
    const text = raw.endsWith('\r') ? raw.slice(0, -1) : raw;
    if (text.trim().length > 0) out.push({ line: this.lineNumber, text });
  }
}

/** The non-blank lines of a JSONL text already in memory (a small file or an editor buffer). */
export function splitJsonlText(text: string): JsonlLine[] {
  const splitter = new LineSplitter();
  return [...splitter.push(text), ...splitter.end()];
}

export interface StreamOptions {
  /** Bytes read at a time; small values exist for tests of chunk boundaries. */
  readonly chunkSize?: number;
}

/**
 * Streams the non-blank lines of a JSONL file, opened read-only. File system failures (missing
 * file, a folder, no permission) reject the iteration with Node's error; `describeFileError`
 * turns one into a message. The loaders catch it, so nothing throws across the stage.
 */
export async function* streamJsonlLines(file: string, options: StreamOptions = {}): AsyncGenerator<JsonlLine> {
  // The 'utf8' encoding makes the stream decode across chunk edges, so a multi-byte character
  // split between two reads arrives whole.
  const stream = fs.createReadStream(file, { flags: 'r', encoding: 'utf8', highWaterMark: options.chunkSize ?? 1 << 16 });
  const splitter = new LineSplitter();
  try {
    for await (const chunk of stream) {
      yield* splitter.push(chunk as string);
    }
    yield* splitter.end();
  } finally {
    stream.destroy();
  }
}

/** A short, user-facing message for a file that could not be read as a whole. */
export function describeFileError(file: string, error: unknown): string {
  const code = (error as NodeJS.ErrnoException | undefined)?.code;
  switch (code) {
    case 'ENOENT':
      return `${file}: file not found`;
    case 'EISDIR':
      return `${file}: is a folder, not a JSONL file`;
    case 'EACCES':
    case 'EPERM':
      return `${file}: permission denied`;
    case 'ENOTDIR':
      return `${file}: a part of the path is not a folder`;
    default:
      return `${file}: cannot read: ${error instanceof Error ? error.message : String(error)}`;
  }
}
