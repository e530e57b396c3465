import { splitJsonlText } from '../inputs/jsonl.js';
import { candidateKey } from '../inputs/loaders.js';
import { parseCandidateRow, parseCorpusRow, parsePoolRow, type RowResult } from '../pool/schemas.js';
import type { CandidateList, Passage, Trajectory } from '../pool/types.js';

// The rows of a JSONL data file held in an editor, checked as the loaders check the file on disk
// (inputs/loaders.ts, inputs/load-rows.ts): the same line rules, the same zod schemas and reasons,
// the same duplicate rule (the first row of a key is kept, later ones are skipped). A test holds
// the two to the same issues on the same file.

export type DataFileKind = 'pool' | 'corpus' | 'candidates';

export type DataRow =
  | { readonly kind: 'pool'; readonly row: Trajectory }
  | { readonly kind: 'corpus'; readonly passage: Passage }
  | { readonly kind: 'candidates'; readonly list: CandidateList };

export type CheckedRow =
  | { readonly ok: true; readonly line: number; readonly value: DataRow }
  | { readonly ok: false; readonly line: number; readonly reason: string };

/** How one kind of file is read: its schema, the key of its duplicate rule, and how a kept row is named. */
interface Rule<T> {
  parse(value: unknown, line: number): RowResult<T>;
  key(row: T): string;
  duplicate(row: T, first: number): string;
  wrap(row: T): DataRow;
}

const poolRule = (file: string, pool: string): Rule<Trajectory> => ({
  parse: (value, line) => parsePoolRow(value, { pool, file, line }),
  key: (row) => row.id,
  duplicate: (row, first) => `duplicate id '${row.id}' (first on line ${first})`,
  wrap: (row) => ({ kind: 'pool', row }),
});

const corpusRule: Rule<Passage> = {
  parse: (value) => parseCorpusRow(value),
  key: (passage) => passage.id,
  duplicate: (passage, first) => `duplicate passage id '${passage.id}' (first on line ${first})`,
  wrap: (passage) => ({ kind: 'corpus', passage }),
};

const candidatesRule: Rule<CandidateList> = {
  parse: (value) => parseCandidateRow(value),
  key: (list) => candidateKey(list.traj_id, list.citation_index),
  duplicate: (list, first) => `duplicate candidate list for traj_id '${list.traj_id}', citation_index ${list.citation_index} (first on line ${first})`,
  wrap: (list) => ({ kind: 'candidates', list }),
};

/** Longest parser message kept in a reason, as the loader keeps it. */
const maxJsonMessage = 200;

function jsonReason(error: unknown): string {
  const message = error instanceof Error ? error.message : String(error);
  return `invalid JSON: ${message.length > maxJsonMessage ? `${message.slice(0, maxJsonMessage)}…` : message}`;
}

function checkWith<T>(text: string, rule: Rule<T>): CheckedRow[] {
  const firstLineOf = new Map<string, number>();
  const rows = splitJsonlText(text).map(({ line, text: rowText }): CheckedRow => {
    let value: unknown;
    try {
      value = JSON.parse(rowText);
    } catch (error) {
      return { ok: false, line, reason: jsonReason(error) };
    }
    const parsed = rule.parse(value, line);
    if (!parsed.ok) return { ok: false, line, reason: parsed.reason };
    const key = rule.key(parsed.value);
    const first = firstLineOf.get(key);
    if (first !== undefined) return { ok: false, line, reason: rule.duplicate(parsed.value, first) };
    firstLineOf.set(key, line);
    return { ok: true, line, value: rule.wrap(parsed.value) };
  });
  return rows.length === 0 ? [{ ok: false, line: 1, reason: 'the file has no rows' }] : rows;
}

/**
 * Every non-blank line of `text` as a row of a `kind` file, valid or with the reason the loader
 * would skip it; a text without rows is one issue on line 1. `name` is the pool's name in the spec.
 */
export function checkRows(text: string, kind: DataFileKind, file: string, name = ''): CheckedRow[] {
  switch (kind) {
    case 'pool':
      return checkWith(text, poolRule(file, name));
    case 'corpus':
      return checkWith(text, corpusRule);
    case 'candidates':
      return checkWith(text, candidatesRule);
  }
}
