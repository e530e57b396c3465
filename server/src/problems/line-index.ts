import type { Span } from './span.js';

export interface Position {
  /** Zero-based line. */
  readonly line: number;
  /** Zero-based UTF-16 column. */
  readonly character: number;
}

export interface Range {
  readonly start: Position;
  readonly end: Position;
}

/** Converts offsets to line/column and back. The only place where positions are computed. */
export class LineIndex {
  private readonly lineStarts: number[] = [0];

  constructor(private readonly text: string) {
    for (let i = 0; i < text.length; i++) {
      const ch = text.charCodeAt(i);
      // \r\n, \r and \n each end a line, as in the LSP specification.
      if (ch === 13) {
        if (text.charCodeAt(i + 1) === 10) i++;
        this.lineStarts.push(i + 1);
      } else if (ch === 10) {
        this.lineStarts.push(i + 1);
      }
    }
  }

  get lineCount(): number {
    return this.lineStarts.length;
  }

  position(offset: number): Position {
    const clamped = Math.max(0, Math.min(offset, this.text.length));
    let low = 0;
    let high = this.lineStarts.length - 1;
    while (low < high) {
      const mid = (low + high + 1) >> 1;
      if (this.lineStarts[mid]! <= clamped) low = mid;
      else high = mid - 1;
    }
    return { line: low, character: clamped - this.lineStarts[low]! };
  }

  range(span: Span): Range {
    return { start: this.position(span.start), end: this.position(span.end) };
  }

  /** The offset of a position; a column past the end of its line stops at the line's end, as LSP says. */
  offset(position: Position): number {
    if (position.line >= this.lineStarts.length) return this.text.length;
    const lineStart = this.lineStarts[Math.max(0, position.line)]!;
    let lineEnd = this.lineStarts[position.line + 1] ?? this.text.length;
    if (lineEnd > lineStart && this.text.charCodeAt(lineEnd - 1) === 10) lineEnd--;
    if (lineEnd > lineStart && this.text.charCodeAt(lineEnd - 1) === 13) lineEnd--;
    return Math.min(lineStart + Math.max(0, position.character), lineEnd);
  }
}
