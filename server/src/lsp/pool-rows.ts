import type { AnalysisInputs } from '../inputs/analysis-inputs.js';
import { splitJsonlText } from '../inputs/jsonl.js';
import { IssueLog } from '../inputs/load-inputs.js';
import { rowChecker, type RowParser } from '../inputs/load-rows.js';
import { candidateRows, corpusRows, poolRows } from '../inputs/loaders.js';
import { resolveRows } from '../inputs/resolve-rows.js';
import { withLoggedFields } from '../edits/logged-field-rows.js';
import type { CandidateList, Corpus, Passage, Trajectory } from '../pool/types.js';
import type { SpecModel } from '../semantics/check.js';

// The rows of a JSONL data file held in an editor, checked by the analyses' own rules: the loaders'
// (`rowChecker` with the loaders' parsers: the same reasons and the same duplicate rule), then, for
// a pool read by a spec, its ids resolved against the spec's corpus (`inputs/resolve-rows.ts`) and
// the logged fields the spec declares (`withLoggedFields`), as an analysis reads the file from
// disk. A test holds the two to the same issues on the same file.

export type DataFileKind = 'pool' | 'corpus' | 'candidates';

export type DataRow =
  | { readonly kind: 'pool'; readonly row: Trajectory }
  | { readonly kind: 'corpus'; readonly passage: Passage }
  | { readonly kind: 'candidates'; readonly list: CandidateList };

export type CheckedRow =
  | { readonly ok: true; readonly line: number; readonly value: DataRow; readonly unresolved?: string }
  | { readonly ok: false; readonly line: number; readonly reason: string };

/** What a spec reads a pool with: the corpus its ids resolve against (when it could be loaded) and the spec, for its declared logged fields. */
export interface PoolReading {
  readonly corpus?: Corpus | undefined;
  readonly model?: SpecModel | undefined;
}

/** Checks the lines in order with the loader's own rule, and wraps what it keeps. */
function checkWith<T>(text: string, parser: RowParser<T>, wrap: (row: T) => DataRow): CheckedRow[] {
  const check = rowChecker(parser);
  const rows = splitJsonlText(text).map(({ line, text: rowText }): CheckedRow => {
    const result = check(line, rowText);
    return result.ok ? { ok: true, line, value: wrap(result.value) } : { ok: false, line, reason: result.reason };
  });
  return rows.length === 0 ? [{ ok: false, line: 1, reason: 'the file has no rows' }] : rows;
}

/** The loader's verdicts, then the analyses' on the rows it kept: resolution against the corpus, then declared logged fields. */
function asRead(rows: readonly CheckedRow[], file: string, name: string, reading: PoolReading): CheckedRow[] {
  const kept = rows.flatMap((r) => (r.ok && r.value.kind === 'pool' ? [r.value.row] : []));
  const resolved = reading.corpus === undefined ? { rows: kept, skipped: [], unresolved: [] } : resolveRows(kept, reading.corpus);
  const inputs: AnalysisInputs = {
    corpusName: '', corpus: reading.corpus ?? { file: '', passages: new Map() }, corpusIssues: [], pools: [{ name, file, rows: resolved.rows, issues: [] }],
  };
  const read = reading.model === undefined ? inputs : withLoggedFields(reading.model, inputs, new IssueLog());
  const skipped = new Map([...resolved.skipped, ...(read.pools[0]?.issues ?? [])].map((i) => [i.line, i.reason]));
  const rowAt = new Map((read.pools[0]?.rows ?? []).map((r) => [r.source.line, r]));
  const unresolved = new Map(resolved.unresolved.map((i) => [i.line, i.reason]));
  return rows.map((r): CheckedRow => {
    if (!r.ok || r.value.kind !== 'pool') return r;
    const reason = skipped.get(r.line);
    if (reason !== undefined) return { ok: false, line: r.line, reason };
    const note = unresolved.get(r.line);
    return { ok: true, line: r.line, value: { kind: 'pool', row: rowAt.get(r.line) ?? r.value.row }, ...(note === undefined ? {} : { unresolved: note }) };
  });
}

/**
 * Every non-blank line of `text` as a row of a `kind` file, valid or with the reason the analyses
 * would skip it; a text without rows is one issue on line 1. `name` is the pool's name in the spec;
 * `reading`, how the spec reads the pool (without it, the loader's rule alone).
 */
export function checkRows(text: string, kind: DataFileKind, file: string, name = '', reading?: PoolReading): CheckedRow[] {
  switch (kind) {
    case 'pool': {
      const rows = checkWith(text, poolRows(file, name), (row) => ({ kind: 'pool', row }));
      return reading === undefined ? rows : asRead(rows, file, name, reading);
    }
    case 'corpus':
      return checkWith(text, corpusRows, (passage) => ({ kind: 'corpus', passage }));
    case 'candidates':
      return checkWith(text, candidateRows, (list) => ({ kind: 'candidates', list }));
  }
}

/**
 * The corpus a spec reads a pool against: that of the first audit, training or comparison block
 * that reads it, else the spec's only corpus; undefined when neither says.
 */
export function corpusOfPool(model: SpecModel, pool: string): string | undefined {
  for (const decl of model.spec.decls) {
    if (decl.kind !== 'audit' && decl.kind !== 'training' && decl.kind !== 'comparison') continue;
    const corpusItem = decl.items.find((i) => i.kind === 'audit-corpus');
    const corpus = corpusItem?.kind === 'audit-corpus' ? corpusItem.corpus?.text : undefined;
    const reads = decl.items.some((i) => (i.kind === 'audit-pools' && i.pools.some((p) => p.text === pool))
      || (i.kind === 'option' && ['log', 'base', 'treatment'].includes(i.key.text) && i.values.some((v) => v.kind === 'name' && v.name.text === pool)));
    if (reads && corpus !== undefined) return corpus;
  }
  const corpora = model.spec.decls.filter((d) => d.kind === 'corpus');
  return corpora.length === 1 ? corpora[0]!.name?.text : undefined;
}
