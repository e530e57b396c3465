// An input file's bytes as JSON records with their line numbers: JSON Lines (ART's older JSONL,
// gold and qrels files) or one JSON document (an rllm episode, a BrowseComp-Plus run file). Read the
// way the pool loader reads (UTF-8, a byte-order mark dropped, CRLF accepted, blank lines counted).
import { Buffer, isUtf8 } from 'node:buffer';
import { jsonFileReason, jsonLineReason } from '../pool/json-error.js';
import type { ImportIssue } from './importer.js';
import { recordNestingReason } from './json-nesting.js';

export type Decoded = { readonly ok: true; readonly text: string } | { readonly ok: false; readonly reason: string };

/** A file's bytes as text, or why not. Checked first and then decoded by Node's SIMD UTF-8 paths: a verl dump runs to gigabytes, and TextDecoder's fatal mode is several times slower. */
export function utf8Text(bytes: Uint8Array): Decoded {
  if (!isUtf8(bytes)) return { ok: false, reason: 'the file is not UTF-8 text' };
  const text = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString('utf8');
  return { ok: true, text: text.startsWith('\uFEFF') ? text.slice(1) : text };
}

export interface JsonRecord {
  readonly line: number;
  readonly value: unknown;
}

/** The non-blank lines of a JSON Lines text as parsed values; a line that is not JSON is an issue (its position and kind, never its text). */
export function jsonLines(file: string, text: string): { readonly records: readonly JsonRecord[]; readonly issues: readonly ImportIssue[] } {
  const records: JsonRecord[] = [];
  const issues: ImportIssue[] = [];
  for (const [i, raw] of text.split('\n').entries()) {
    const line = raw.endsWith('\r') ? raw.slice(0, -1) : raw;
    if (line.trim() === '') continue;
    const read = jsonDocument(line, jsonLineReason);
    if (read.ok) records.push({ line: i + 1, value: read.value });
    else issues.push({ at: { file, line: i + 1 }, reason: read.reason });
  }
  return { records, issues };
}

/** A file that is one JSON document (record 1), or why not: not JSON (`reason` words where), or nested past maxImportNesting. */
export function jsonDocument(text: string, reason: (text: string) => string = jsonFileReason): { readonly ok: true; readonly value: unknown } | { readonly ok: false; readonly reason: string } {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return { ok: false, reason: reason(text) };
  }
  const tooDeep = recordNestingReason(value);
  return tooDeep === undefined ? { ok: true, value } : { ok: false, reason: tooDeep };
}

/** A JSON value as a list of strings: a string is a list of one, numbers are written as text, null is empty. */
export function stringsOf(value: unknown): string[] | undefined {
  if (value === null || value === undefined) return [];
  if (typeof value === 'string') return [value];
  if (typeof value === 'number' && Number.isFinite(value)) return [String(value)];
  if (!Array.isArray(value)) return undefined;
  const out: string[] = [];
  for (const item of value) {
    if (typeof item === 'string') out.push(item);
    else if (typeof item === 'number' && Number.isFinite(item)) out.push(String(item));
    else return undefined;
  }
  return out;
}

/** An id as logs write it: a non-empty string, or a number written as text. */
export function idText(value: unknown): string | undefined {
  if (typeof value === 'string' && value !== '') return value;
  if (typeof value === 'number' && Number.isFinite(value)) return String(value);
  return undefined;
}

/** The file name without folders and extension (`…/0004.parquet` → `0004`): the step a file holds in ART and TRL. */
export function fileStem(path: string): string {
  const base = path.split(/[\\/]/).at(-1) ?? path;
  const dot = base.indexOf('.');
  return dot > 0 ? base.slice(0, dot) : base;
}
