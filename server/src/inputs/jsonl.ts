// Reads JSONL fixtures line by line. Pools and corpora can be far larger than is pleasant to hold
// as one string, so the loaders stream; the in-memory splitter shares the same line rules so an
// editor buffer and a file on disk number their lines alike. Lines are split on bytes and each
// decoded whole, so a wrong encoding is found once, with its line, instead of garbling every row.
import { isUtf8 } from 'node:buffer';
import * as fs from 'node:fs';
import { firstLineEncoding, type NotText } from '../problems/text-encoding.js';
import { formatBytes } from './input-limits.js';
import { describeError, openInput, UnreadableInput, type InputAccess } from './open-input.js';

/** One non-blank line of a JSONL file, without its line ending (and without a leading BOM). */
export interface JsonlLine {
  /** One-based, counting every line of the file, blank ones included. */
  readonly line: number;
  readonly text: string;
}

const newline = 0x0a;
const carriageReturn = 0x0d;
const utf8Mark = [0xef, 0xbb, 0xbf];

function startsWith(bytes: Uint8Array, prefix: readonly number[]): boolean {
  return bytes.length >= prefix.length && prefix.every((b, i) => bytes[i] === b);
}

const notTextReasons: Record<NotText, string> = {
  'utf-16': 'UTF-16 text: save it as UTF-8',
  binary: 'a NUL byte on line 1: binary content, not UTF-8 JSON Lines',
};

/** How much of line 1 is kept to tell UTF-16 from binary content once a NUL is seen on it. */
const firstLineSample = 256;

/**
 * Splits bytes pushed in arbitrary pieces into lines. A line ends at "\n"; a "\r" before it is
 * dropped (CRLF files); a UTF-8 BOM at the very start is dropped; blank lines are counted but not
 * returned, since a trailing or separating empty line is not a row. Line 1 decides the encoding
 * (problems/text-encoding.ts): UTF-16 or binary content there, and invalid UTF-8 on any line, stop
 * the split with an `UnreadableInput` naming the line. A NUL byte on a later line is valid UTF-8
 * and that line's problem alone: its row is skipped with the reason (pool/json-error.ts).
 */
class LineSplitter {
  private pending: Buffer[] = [];
  private lineNumber = 0;
  /** The first bytes of line 1 while it is read, and whether a NUL was among its bytes. */
  private firstLine = { head: Buffer.alloc(0), nul: false };

  push(piece: Buffer): JsonlLine[] {
    if (this.lineNumber === 0) this.watchFirstLine(piece);
    const out: JsonlLine[] = [];
    let from = 0;
    let end = piece.indexOf(newline);
    while (end >= 0) {
      const head = piece.subarray(from, end);
      const bytes = this.pending.length > 0 ? Buffer.concat([...this.pending, head]) : head;
      this.pending = [];
      this.emit(bytes, out);
      from = end + 1;
      end = piece.indexOf(newline, from);
    }
    if (from < piece.length) this.pending.push(piece.subarray(from));
    return out;
  }

  /** The last line, when the file does not end with a newline. */
  end(): JsonlLine[] {
    if (this.lineNumber === 0 && this.firstLine.nul) this.refuseFirstLine();
    const out: JsonlLine[] = [];
    if (this.pending.length > 0) this.emit(Buffer.concat(this.pending), out);
    this.pending = [];
    return out;
  }

  /**
   * Stops a file whose line 1 holds a NUL as soon as enough of that line is read to tell UTF-16
   * from binary content, so a binary file is refused on its first bytes, not after all of them.
   */
  private watchFirstLine(piece: Buffer): void {
    const end = piece.indexOf(newline);
    const part = end < 0 ? piece : piece.subarray(0, end);
    const { head } = this.firstLine;
    if (head.length < firstLineSample) this.firstLine.head = Buffer.concat([head, part.subarray(0, firstLineSample - head.length)]);
    if (part.includes(0)) this.firstLine.nul = true;
    if (this.firstLine.nul && (end >= 0 || this.firstLine.head.length >= firstLineSample)) this.refuseFirstLine();
  }

  private refuseFirstLine(): never {
    // The NUL may lie past the sample: that is no UTF-16 of ASCII text.
    throw new UnreadableInput(notTextReasons[firstLineEncoding(this.firstLine.head) ?? 'binary']);
  }

  private emit(raw: Buffer, out: JsonlLine[]): void {
    this.lineNumber += 1;
    let bytes = raw;
    if (this.lineNumber === 1) {
      const encoding = firstLineEncoding(bytes);
      if (encoding !== undefined) throw new UnreadableInput(notTextReasons[encoding]);
      if (startsWith(bytes, utf8Mark)) bytes = bytes.subarray(utf8Mark.length);
    }
    if (bytes.length > 0 && bytes[bytes.length - 1] === carriageReturn) bytes = bytes.subarray(0, -1);
    if (!isUtf8(bytes)) throw new UnreadableInput(`invalid UTF-8 on line ${this.lineNumber}: save the file as UTF-8`);
    const text = bytes.toString('utf8');
    if (text.trim().length > 0) out.push({ line: this.lineNumber, text });
  }
}

/** The non-blank lines of a JSONL text already in memory (a small file or an editor buffer). */
export function splitJsonlText(text: string): JsonlLine[] {
  const splitter = new LineSplitter();
  return [...splitter.push(Buffer.from(text, 'utf8')), ...splitter.end()];
}

export interface StreamOptions {
  /** Bytes read at a time; small values exist for tests of chunk boundaries. */
  readonly chunkSize?: number;
}

function readChunk(fd: number, size: number): Promise<Buffer> {
  const buffer = Buffer.allocUnsafe(size);
  return new Promise((resolve, reject) => {
    fs.read(fd, buffer, 0, size, null, (error, read) => (error === null ? resolve(buffer.subarray(0, read)) : reject(error)));
  });
}

/**
 * Streams the non-blank lines of a JSONL file, opened through `openInput` (trust, kind and size
 * checked on the descriptor that is then read). A refusal, a read failure, an encoding problem or
 * a file that grows past its limit rejects the iteration: with an `UnreadableInput` saying why,
 * or Node's error; `describeFileError` turns either into a message. The loaders catch it, so
 * nothing throws across the stage.
 */
export async function* streamJsonlLines(file: string, access: InputAccess, options: StreamOptions = {}): AsyncGenerator<JsonlLine> {
  const opened = openInput(file, access);
  if (!opened.ok) throw new UnreadableInput(opened.reason);
  const chunkSize = options.chunkSize ?? 1 << 16;
  const splitter = new LineSplitter();
  let total = 0;
  try {
    for (;;) {
      const chunk = await readChunk(opened.fd, chunkSize);
      if (chunk.length === 0) break;
      total += chunk.length;
      if (total > access.maxBytes) throw new UnreadableInput(`grew past the ${formatBytes(access.maxBytes)} limit ${access.limitName} while it was read`);
      yield* splitter.push(chunk);
    }
    yield* splitter.end();
  } finally {
    fs.closeSync(opened.fd);
  }
}

/** A short, user-facing message for a file that could not be read as a whole: `FILE: cannot read: why`. */
export function describeFileError(file: string, error: unknown): string {
  return `${file}: cannot read: ${error instanceof UnreadableInput ? error.reason : describeError(error)}`;
}
