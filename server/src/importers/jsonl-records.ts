// The records of a JSONL log as importers read them: one JSON object per non-blank line, each with
// its file:line, and a reason for every line that is not one (position and kind only: a log may
// hold text its owner would not want quoted in a CI artifact).
import { jsonLineReason } from '../pool/json-error.js';
import { utf8Text } from './chat-records.js';
import type { ImportFile, ImportIssue, RecordAt } from './importer.js';
import { recordNestingReason } from './json-nesting.js';

export interface JsonRecord {
  readonly at: RecordAt;
  readonly value: Readonly<Record<string, unknown>>;
}

export interface JsonlRecords {
  readonly records: readonly JsonRecord[];
  readonly issues: readonly ImportIssue[];
  /** Non-blank lines read: records plus lines refused. */
  readonly read: number;
}

/** A value's JSON kind, for reasons ("got a string"); never the value itself. */
export function jsonKind(value: unknown): string {
  if (value === null) return 'null';
  // `1e999` parses as Infinity: "a number" would read as if any number were refused.
  if (typeof value === 'number' && !Number.isFinite(value)) return `a number that is not finite (${String(value)})`;
  if (Array.isArray(value)) return 'an array';
  return typeof value === 'object' ? 'an object' : `a ${typeof value}`;
}

export function isRecord(value: unknown): value is Readonly<Record<string, unknown>> {
  return value !== null && typeof value === 'object' && !Array.isArray(value);
}

/** Splits a file into its JSON-object lines; a file that is not UTF-8 is one issue on line 1. */
export function jsonlRecords(file: ImportFile): JsonlRecords {
  const decoded = utf8Text(file.bytes);
  if (!decoded.ok) return { records: [], issues: [{ at: { file: file.path, line: 1 }, reason: decoded.reason }], read: 1 };
  const { text } = decoded;
  const records: JsonRecord[] = [];
  const issues: ImportIssue[] = [];
  let read = 0;
  for (const [i, raw] of text.split('\n').entries()) {
    const line = raw.endsWith('\r') ? raw.slice(0, -1) : raw;
    if (line.trim() === '') continue;
    read += 1;
    const at = { file: file.path, line: i + 1 };
    let value: unknown;
    try {
      value = JSON.parse(line);
    } catch {
      issues.push({ at, reason: jsonLineReason(line) });
      continue;
    }
    const tooDeep = recordNestingReason(value);
    if (tooDeep !== undefined) issues.push({ at, reason: tooDeep });
    else if (isRecord(value)) records.push({ at, value });
    else issues.push({ at, reason: `expected a JSON object, got ${jsonKind(value)}` });
  }
  if (read === 0) issues.push({ at: { file: file.path, line: 1 }, reason: 'the file has no records' });
  return { records, issues, read };
}
