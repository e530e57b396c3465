import type { AnalysisInputs } from '../inputs/analysis-inputs.js';
import { splitJsonlText } from '../inputs/jsonl.js';
import { IssueLog } from '../inputs/load-inputs.js';
import { rowChecker, type RowParser } from '../inputs/load-rows.js';
import { candidateRows, corpusRows, poolRows } from '../inputs/loaders.js';
import { joinFiles } from '../inputs/pool-link.js';
import { resolveRows } from '../inputs/resolve-rows.js';
import { withLoggedFields, type FieldReader } from '../edits/logged-field-rows.js';
import { auditEditPlan, planAudit } from '../audit/plan.js';
import { comparisonFieldReader, planComparison } from '../compare/plan.js';
import { planTraining, trainingFieldReader } from '../signal/plan.js';
import type { CandidateList, Corpus, Loaded, Passage, Trajectory } from '../pool/types.js';
import type { SpecModel } from '../semantics/check.js';

// The rows of a JSONL data file held in an editor, checked by the analyses' own rules: the loaders'
// (`rowChecker` with the loaders' parsers: the same reasons and the same duplicate rule), then, for
// a pool read by a spec, its ids resolved against the spec's corpus (`inputs/resolve-rows.ts`) and
// the logged fields the spec declares (`withLoggedFields`), as an analysis reads the file from
// disk. A test holds the two to the same issues on the same file. A file of a glob also meets the
// glob's earlier files (`joinFiles`: an id one of them took is a duplicate); a file of an imported
// pool is read from the pool's import (its records the importer skipped, the rows it made of them).

export type DataFileKind = 'pool' | 'corpus' | 'candidates';

export type DataRow =
  | { readonly kind: 'pool'; readonly row: Trajectory }
  | { readonly kind: 'corpus'; readonly passage: Passage }
  | { readonly kind: 'candidates'; readonly list: CandidateList };

export type CheckedRow =
  | { readonly ok: true; readonly line: number; readonly value: DataRow; readonly unresolved?: string }
  | { readonly ok: false; readonly line: number; readonly reason: string; readonly wholeFile?: true; readonly notChecked?: true };

/** What a spec reads a pool with: the corpus its ids resolve against (when it could be loaded) and the spec, for its declared logged fields. */
export interface PoolReading {
  readonly corpus?: Corpus | undefined;
  readonly model?: SpecModel | undefined;
  /** For a file of a glob: the glob's files before it, as loaded, and the spec's folder (reasons name files relative to it). */
  readonly earlier?: { readonly files: readonly string[]; readonly loads: readonly Loaded<Trajectory>[]; readonly specDir: string } | undefined;
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

/** The loader's verdicts, then a glob's join: a row whose id an earlier file of the glob took is skipped, as `joinFiles` skips it. */
function withoutTaken(rows: readonly CheckedRow[], file: string, earlier: NonNullable<PoolReading['earlier']>): CheckedRow[] {
  const kept = rows.flatMap((r) => (r.ok && r.value.kind === 'pool' ? [r.value.row] : []));
  const joined = joinFiles([...earlier.files, file], [...earlier.loads, { items: kept, issues: [] }], earlier.specDir);
  const taken = new Map(joined.issues.filter((i) => i.file === file).map((i) => [i.line, i.reason]));
  return rows.map((r): CheckedRow => {
    const reason = r.ok ? taken.get(r.line) : undefined;
    return reason === undefined ? r : { ok: false, line: r.line, reason };
  });
}

/**
 * The rows kept so far, then the analyses' verdicts on them: resolution against the corpus, then
 * declared logged fields. Rows are matched by id (unique among kept rows; a line may hold several
 * rows of an imported pool), reasons by line.
 */
function asRead(rows: readonly CheckedRow[], file: string, name: string, reading: PoolReading): CheckedRow[] {
  const kept = rows.flatMap((r) => (r.ok && r.value.kind === 'pool' ? [r.value.row] : []));
  const resolved = reading.corpus === undefined ? { rows: kept, skipped: [], unresolved: [] } : resolveRows(kept, reading.corpus);
  const inputs: AnalysisInputs = {
    corpusName: '', corpus: reading.corpus ?? { file: '', passages: new Map() }, corpusIssues: [], pools: [{ name, file, rows: resolved.rows, issues: [] }],
  };
  const read = reading.model === undefined ? inputs : withLoggedFields(reading.model, inputs, new IssueLog(), poolFieldReader(reading.model, name));
  const skipped = new Map<number, string>();
  for (const list of [resolved.skipped, read.pools[0]?.issues ?? []]) for (const i of list) skipped.set(i.line, i.reason);
  const readRows = new Map((read.pools[0]?.rows ?? []).map((r) => [r.id, r]));
  const unresolved = new Map(resolved.unresolved.map((i) => [i.line, i.reason]));
  return rows.map((r): CheckedRow => {
    if (!r.ok || r.value.kind !== 'pool') return r;
    const row = readRows.get(r.value.row.id);
    if (row === undefined) return { ok: false, line: r.line, reason: skipped.get(r.line) ?? 'the audits skip it' };
    const note = unresolved.get(r.line);
    return { ok: true, line: r.line, value: { kind: 'pool', row }, ...(note === undefined ? {} : { unresolved: note }) };
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
      const checked = checkWith(text, poolRows(file, name), (row) => ({ kind: 'pool', row }));
      const rows = reading?.earlier === undefined ? checked : withoutTaken(checked, file, reading.earlier);
      return reading === undefined ? rows : asRead(rows, file, name, reading);
    }
    case 'corpus':
      return checkWith(text, corpusRows, (passage) => ({ kind: 'corpus', passage }));
    case 'candidates':
      return checkWith(text, candidateRows, (list) => ({ kind: 'candidates', list }));
  }
}

/**
 * The rows of one file of an imported pool, from the pool as its load made it (`loadPoolLink`): each
 * record the importer skipped with its reason, each row it made from a record on the record's
 * line (several on one line when a record holds several trajectories), in line order; then the
 * analyses' verdicts as for a pool file.
 */
export function importedRows(loaded: Loaded<Trajectory>, file: string, name: string, reading?: PoolReading): CheckedRow[] {
  // The pool could not be imported at all (a file unreadable, options refused): said once, on line 1.
  if (loaded.fileError !== undefined) return [{ ok: false, line: 1, reason: loaded.fileError, wholeFile: true }];
  const rows: CheckedRow[] = [];
  for (const i of loaded.issues) if (i.file === file) rows.push({ ok: false, line: i.line, reason: i.reason });
  for (const row of loaded.items) if (row.source.file === file) rows.push({ ok: true, line: row.source.line, value: { kind: 'pool', row } });
  rows.sort((a, b) => a.line - b.line);
  return reading === undefined ? rows : asRead(rows, file, name, reading);
}

/**
 * What the analyses that read pool `pool` read of its rows' logged fields, together: a row is shown
 * skipped when one of them skips it (each requires only the fields it reads).
 */
export function poolFieldReader(model: SpecModel, pool: string): FieldReader {
  const readers: FieldReader[] = [];
  for (const decl of model.spec.decls) {
    if (decl.kind === 'audit') {
      // The expect lines' texts are not needed here: only what the audit evaluates.
      const plan = planAudit(decl, '');
      if (plan?.pools.includes(pool) === true) readers.push(auditEditPlan(plan));
    } else if (decl.kind === 'training') {
      const plan = planTraining(decl);
      if (plan?.logs.includes(pool) === true) readers.push(trainingFieldReader(plan));
    } else if (decl.kind === 'comparison') {
      const plan = planComparison(decl);
      if (plan !== undefined && [...plan.base, ...plan.treatment].includes(pool)) readers.push(comparisonFieldReader(plan));
    }
  }
  return {
    rewards: readers.flatMap((r) => r.rewards), detectors: readers.flatMap((r) => r.detectors),
    attacks: readers.flatMap((r) => r.attacks), fields: readers.flatMap((r) => r.fields ?? []),
  };
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
