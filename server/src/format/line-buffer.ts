/** One output line: its indentation, its code, and the comment that ends it (or is all of it). */
interface OutputLine {
  indent: number;
  code: string;
  comment: string | undefined;
}

/** Columns between code and a trailing comment (PEP 8's two spaces read well next to `#`). */
const commentGap = 2;

/**
 * The formatter's output, built line by line. Trailing comments are kept apart from the code so
 * that comments on consecutive lines can be aligned once every line is known.
 */
export class LineBuffer {
  private readonly lines: OutputLine[] = [];
  private current: OutputLine = { indent: 0, code: '', comment: undefined };

  /** The column the next written text starts at. */
  get column(): number {
    return this.current.indent + this.current.code.length;
  }

  get lineIndent(): number {
    return this.current.indent;
  }

  get lineHasCode(): boolean {
    return this.current.code !== '';
  }

  private get isEmpty(): boolean {
    return this.lines.length === 0 && this.current.code === '' && this.current.comment === undefined;
  }

  write(text: string): void {
    this.current.code += text;
  }

  /** Ends the current line with a comment; the next thing written must start a new line. */
  trailingComment(text: string): void {
    this.current.comment = text;
  }

  /** A line that holds only a comment. */
  commentLine(indent: number, blankBefore: boolean, text: string): void {
    this.newline(indent, blankBefore);
    this.current.comment = text;
  }

  /** Starts a new line. At the very start there is no line to end, and no blank line to keep. */
  newline(indent: number, blankBefore: boolean): void {
    if (this.isEmpty) {
      this.current.indent = indent;
      return;
    }
    this.lines.push(this.current);
    if (blankBefore) this.lines.push({ indent: 0, code: '', comment: undefined });
    this.current = { indent, code: '', comment: undefined };
  }

  /** The text, every line ended by `eol`; trailing comments of consecutive lines share a column. */
  render(eol: string): string {
    const lines = this.isEmpty ? [] : [...this.lines, this.current];
    const width = (line: OutputLine): number => line.indent + line.code.length;
    const hasTrailingComment = (line: OutputLine | undefined): boolean => line !== undefined && line.code !== '' && line.comment !== undefined;
    const rendered: string[] = [];
    let commentColumn = 0;
    lines.forEach((line, i) => {
      if (hasTrailingComment(line) && !hasTrailingComment(lines[i - 1])) {
        commentColumn = 0;
        for (let j = i; hasTrailingComment(lines[j]); j++) commentColumn = Math.max(commentColumn, width(lines[j]!) + commentGap);
      }
      if (line.code === '' && line.comment === undefined) rendered.push('');
      else if (line.code === '') rendered.push(' '.repeat(line.indent) + line.comment);
      else if (line.comment === undefined) rendered.push(' '.repeat(line.indent) + line.code);
      else rendered.push(' '.repeat(line.indent) + line.code + ' '.repeat(commentColumn - width(line)) + line.comment);
    });
    return rendered.length === 0 ? '' : rendered.join(eol) + eol;
  }
}
