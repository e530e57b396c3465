// The loop every fixture loader shares: stream the lines, parse each as JSON, validate it, drop
// duplicates, and turn every failure into a row issue or a file error instead of an exception.
import { jsonLineReason } from '../pool/json-error.js';
import { describeFileError, streamJsonlLines, type StreamOptions } from './jsonl.js';
import { linkedFileAccess } from './open-input.js';
import type { WorkspaceTrust } from './trust.js';
import type { RowResult } from '../pool/schemas.js';
import type { Loaded, RowIssue } from '../pool/types.js';

export interface RowParser<T> {
  parse(value: unknown, line: number): RowResult<T>;
  /** Rows with equal keys are duplicates: the first is kept, later ones become issues. */
  readonly key?: (item: T) => string;
  readonly duplicateReason?: (key: string, firstLine: number) => string;
}

/**
 * The per-line rule of `loadRows`, for rows that come from elsewhere too (an editor's text): parse
 * the line as JSON, validate it, and refuse a later duplicate of a key. Call it on the lines in order.
 */
export function rowChecker<T>(parser: RowParser<T>): (line: number, text: string) => RowResult<T> {
  const firstLineOf = new Map<string, number>();
  return (line, text) => {
    let value: unknown;
    try {
      value = JSON.parse(text);
    } catch {
      // Position and kind only: V8's message quotes the line, and a linked file may hold secrets.
      return { ok: false, reason: jsonLineReason(text) };
    }
    const result = parser.parse(value, line);
    if (!result.ok || parser.key === undefined) return result;
    const key = parser.key(result.value);
    const first = firstLineOf.get(key);
    if (first !== undefined) return { ok: false, reason: parser.duplicateReason?.(key, first) ?? `duplicate key '${key}' (first on line ${first})` };
    firstLineOf.set(key, line);
    return result;
  };
}

/**
 * Loads every valid row of a JSONL file. A file with no rows at all (empty or only blank lines)
 * loads as no items and one issue on line 1, so a linked-but-empty fixture never passes silently.
 * A file that cannot be opened or read (see `openInput`), or whose encoding is wrong, sets
 * `fileError`; a failure part-way keeps the rows read so far.
 */
export async function loadRows<T>(file: string, parser: RowParser<T>, trust: WorkspaceTrust, options: StreamOptions = {}): Promise<Loaded<T>> {
  const items: T[] = [];
  const issues: RowIssue[] = [];
  const check = rowChecker(parser);
  let rows = 0;
  try {
    for await (const { line, text } of streamJsonlLines(file, linkedFileAccess(trust), options)) {
      rows += 1;
      const result = check(line, text);
      if (result.ok) items.push(result.value);
      else issues.push({ file, line, reason: result.reason });
    }
  } catch (error) {
    return { items, issues, fileError: describeFileError(file, error) };
  }
  if (rows === 0) issues.push({ file, line: 1, reason: 'the file has no rows' });
  return { items, issues };
}
