import { splitJsonlText } from '../inputs/jsonl.js';
import { rowChecker, type RowParser } from '../inputs/load-rows.js';
import { candidateRows, corpusRows, poolRows } from '../inputs/loaders.js';
import type { CandidateList, Passage, Trajectory } from '../pool/types.js';

// The rows of a JSONL data file held in an editor, checked by the loaders' own rule
// (`rowChecker` with the loaders' parsers): the same reasons and the same duplicate rule. A test
// holds the two to the same issues on the same file.

export type DataFileKind = 'pool' | 'corpus' | 'candidates';

export type DataRow =
  | { readonly kind: 'pool'; readonly row: Trajectory }
  | { readonly kind: 'corpus'; readonly passage: Passage }
  | { readonly kind: 'candidates'; readonly list: CandidateList };

export type CheckedRow =
  | { readonly ok: true; readonly line: number; readonly value: DataRow }
  | { readonly ok: false; readonly line: number; readonly reason: string };

/** Checks the lines in order with the loader's own rule, and wraps what it keeps. */
function checkWith<T>(text: string, parser: RowParser<T>, wrap: (row: T) => DataRow): CheckedRow[] {
  const check = rowChecker(parser);
  const rows = splitJsonlText(text).map(({ line, text: rowText }): CheckedRow => {
    const result = check(line, rowText);
    return result.ok ? { ok: true, line, value: wrap(result.value) } : { ok: false, line, reason: result.reason };
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
      return checkWith(text, poolRows(file, name), (row) => ({ kind: 'pool', row }));
    case 'corpus':
      return checkWith(text, corpusRows, (passage) => ({ kind: 'corpus', passage }));
    case 'candidates':
      return checkWith(text, candidateRows, (list) => ({ kind: 'candidates', list }));
  }
}
