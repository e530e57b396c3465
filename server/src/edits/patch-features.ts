import { corpusEnv, type EvalEnv } from '../language/eval-env.js';
import { viewOf, type TrajectoryView } from '../language/view.js';
import { changeableColumns, EditsBuiltAgainDiffer, evaluateColumns, evaluationOrder, maxRecordedDetectors, revisitKeptEdits, type AttackRun, type EditSource, type KnownEdits } from './attack-run.js';
import { AuditError } from './audit-error.js';
import { ChangeVectorSet, slotOf, type EditChanges } from './edit-changes.js';
import type { FeatureTable } from './features.js';
import { assemblePrepared, candidatesExcluded, consecutiveRanges, maxRowsPerRange, rangePreparer, setupRows, type CandidateSource, type CompiledSetup, type PreparedEdits, type PreparedPart } from './prepare.js';
import { metricsOfRange } from './original-metrics.js';
import { UnrenderedEdit } from './rendered-view.js';
import { scoringMemo } from './scoring-memo.js';
import type { CompiledEdit } from '../reward/compile-edit.js';
import type { AttackPlan } from './attack-plan.js';

/**
 * The prepared edits of a plan whose features differ from those `prepared` was made with only in
 * features that are not detectors (a reward term changed, added or removed): the kept columns are
 * laid out in the new table's order and each new feature is evaluated on the originals. An attack
 * whose edits can change a new feature builds its kept edits again (`revisitKeptEdits`) and
 * evaluates the new features on them alone: eligibility and isolation read the detectors, which are
 * the same, so the kept edits are too. Every edit keeps its change vector without the columns the new
 * table drops. The result is what `prepareEdits` would compute from scratch, bit for bit: the same
 * table, the same values, and the same distinct change vectors numbered in the order the edits meet
 * them.
 *
 * `kept(key)` says whether the feature of that key is unchanged since `prepared` (its content hash is
 * the same). Undefined when the plan cannot be patched: a new feature that reads a command term, or
 * one some attack's edit changes when no `candidates` are given or its evaluation decides which edits
 * count (it reads a logged field the format renders); a new feature that fails or is not finite on an
 * original or a kept edit is left to the preparation too, which reports it as it always does.
 */
export function patchFeatures(prepared: PreparedEdits, compiled: CompiledSetup, kept: (key: string) => boolean, candidates?: CandidateSource, isCancelled: () => boolean = () => false): PreparedEdits | undefined {
  const { table, plan } = compiled;
  const before = prepared.table;
  const source = table.keys.map((key) => (kept(key) ? before.index.get(key) ?? -1 : -1));
  const fresh = Int32Array.from(source.flatMap((from, k) => (from < 0 ? [k] : [])));
  for (const k of fresh) if (table.commands[k]!.length > 0) return undefined;
  const newIndex = new Int32Array(before.keys.length).fill(-1);
  source.forEach((from, k) => {
    if (from >= 0) newIndex[from] = k;
  });
  // Which columns are evaluated on every edit decides which edits count (an edit its format cannot
  // write back is not): besides the detectors, it must be the same columns, unchanged, under both
  // tables.
  const isDetector = (detectors: ReadonlyMap<string, number>): ((k: number) => boolean) => {
    const columns = new Set(detectors.values());
    return (k) => columns.has(k);
  };
  const detectorNow = isDetector(compiled.detectorColumns);
  const detectorBefore = isDetector(prepared.detectorColumns);
  const attacks = prepared.runs.map((run, a) => {
    const changeable = changeableColumns(table, compiled.edits.get(plan.attacks[a]!.name)!.writes);
    const everyEdit = evaluationOrder(table, changeable, compiled.detectorColumns).everyEdit.filter((k) => !detectorNow(k));
    const keptEveryEdit = Array.from(evaluationOrder(before, run.changes.columns, prepared.detectorColumns).everyEdit.filter((k) => !detectorBefore(k)), (k) => before.keys[k]!);
    const same = everyEdit.every((k) => source[k]! >= 0) && sameKeys(Array.from(everyEdit, (k) => table.keys[k]!), keptEveryEdit);
    return { changeable, same, logged: everyEdit.length > 0, newFeatures: changeable.filter((k) => source[k]! < 0) };
  });
  if (attacks.some((a) => !a.same)) return undefined;
  if (candidates === undefined && attacks.some((a) => a.newFeatures.length > 0)) return undefined;
  const newDetectors = [...compiled.detectorColumns.values()].filter((k) => source[k]! < 0);
  const env = corpusEnv(prepared.inputs.corpus, undefined);
  try {
    const originalValues = laidOut(prepared, table, source, fresh, env);
    if (originalValues === undefined) return undefined;
    if (newDetectors.length > 0) {
      // Eligibility and isolation change with a detector: every edit is built again (edits/attack-run.ts, `KnownEdits`).
      const readsLogged = (t: FeatureTable, k: number | undefined): boolean => k !== undefined && (t.reads[k]!.has('meta') || t.commands[k]!.length > 0);
      const plain = newDetectors.every((k) => !readsLogged(table, k) && !readsLogged(before, before.index.get(table.keys[k]!)));
      if (candidates === undefined || !plain || attacks.some((a) => a.logged)) return undefined;
      return knownPreparation(prepared, compiled, source, originalValues, env, candidates, isCancelled);
    }
    const runs: AttackRun[] = [];
    for (const [a, run] of prepared.runs.entries()) {
      const { changeable, newFeatures } = attacks[a]!;
      let changes: EditChanges | undefined;
      if (newFeatures.length === 0) changes = remapped(run.changes, newIndex);
      else {
        const revisit: Revisit = { run, table, changeable, newFeatures, source, originalValues, env, candidates: candidates!, isCancelled, rows: prepared.rows, edit: compiled.edits.get(run.plan.name)! };
        changes = revisitedChanges(revisit);
      }
      if (changes === undefined) return undefined;
      runs.push(changes === run.changes ? run : { ...run, changes });
    }
    // What the scoring memo keeps is keyed by run and weights, and by detector column: while every run
    // and every detector column is the same, it holds for the new table too (a margin depends only on
    // the weights and the change vectors), so the margins of a term no edit changes are not summed again.
    const sameColumns = [...compiled.detectorColumns].every(([name, k]) => prepared.detectorColumns.get(name) === k);
    const memo = sameColumns && runs.every((run, a) => run === prepared.runs[a]) ? prepared.memo : scoringMemo();
    return { ...prepared, table, originalValues, runs, detectorNames: compiled.detectorNames, detectorColumns: compiled.detectorColumns, memo };
  } catch (error) {
    if (error instanceof AuditError || error instanceof UnrenderedEdit || error instanceof EditsBuiltAgainDiffer) return undefined;
    throw error;
  }
}

/**
 * The preparation of a plan whose detectors differ from the kept one's, from what it knows: every
 * edit is built again, range by range as a preparation builds them, and only the new detectors are
 * evaluated on it (the others' values are the kept bits), the other new features on the kept edits
 * alone, and an edit kept before keeps its vector's other changes (`runAttackRows` given `known`).
 * Undefined when the kept runs did not record their detectors or a range is cancelled.
 */
function knownPreparation(prepared: PreparedEdits, compiled: CompiledSetup, source: readonly number[], originalValues: Float64Array, env: EvalEnv, candidates: CandidateSource, isCancelled: () => boolean): PreparedEdits | undefined {
  const { table } = compiled;
  const names = [...compiled.detectorColumns.keys()];
  if (names.length > maxRecordedDetectors || !sameKeys(names, [...prepared.detectorColumns.keys()])) return undefined;
  if (prepared.runs.some((run) => run.detectorBits.length !== run.edits.edits.constructible)) return undefined;
  const bits = Int32Array.from(names, (name, i) => (source[compiled.detectorColumns.get(name)!]! < 0 ? -1 : i));
  const known = prepared.runs.map((run): KnownEdits => ({
    run, bits, cursor: { constructible: 0, kept: 0 },
    slots: Int32Array.from(table.keys, (_, k) => (source[k]! < 0 ? -1 : slotOf(run.changes, source[k]!))),
  }));
  const rows = prepared.rows;
  const F = table.keys.length;
  const prepareRange = rangePreparer(compiled, env, candidates, isCancelled);
  const parts: { from: number; part: PreparedPart }[] = [];
  for (const { from, to } of consecutiveRanges(rows.length, maxRowsPerRange)) {
    const part = prepareRange(rows.slice(from, to), {
      from, originalValues: originalValues.slice(from * F, to * F), originalMetrics: metricsOfRange(prepared.originalMetrics, rows.length, from, to), runs: known,
    });
    if (part === undefined) return undefined;
    parts.push({ from, part });
  }
  if (known.some(({ run, cursor }) => cursor.constructible !== run.detectorBits.length || cursor.kept !== run.index.editRow.length)) {
    throw new EditsBuiltAgainDiffer('the edits built again are not those the kept preparation built');
  }
  const assembled = assemblePrepared(setupRows(compiled, rows, env), prepared.inputs, candidates, parts);
  return prepared.commandTerms === undefined ? assembled : { ...assembled, commandTerms: prepared.commandTerms };
}

const sameKeys = (a: readonly string[], b: readonly string[]): boolean => a.length === b.length && a.every((key, i) => key === b[i]);

/** The originals' values in the new table's columns: kept ones copied, new ones evaluated. */
function laidOut(prepared: PreparedEdits, table: FeatureTable, source: readonly number[], fresh: Int32Array, env: EvalEnv): Float64Array | undefined {
  const F = table.keys.length;
  const G = prepared.table.keys.length;
  const rows = prepared.rows;
  const values = new Float64Array(rows.length * F);
  for (let r = 0; r < rows.length; r++) {
    for (let k = 0; k < F; k++) {
      const from = source[k]!;
      if (from >= 0) values[r * F + k] = prepared.originalValues[r * G + from]!;
    }
  }
  if (fresh.length === 0) return values;
  for (let r = 0; r < rows.length; r++) {
    evaluateColumns(table, fresh, viewOf(rows[r]!), env, values, r * F, r);
    for (const k of fresh) if (!Number.isFinite(values[r * F + k]!)) return undefined;
  }
  return values;
}

interface Revisit {
  readonly run: AttackRun;
  readonly edit: CompiledEdit;
  readonly table: FeatureTable;
  /** The features the attack's edits can change under the new table, ascending. */
  readonly changeable: Int32Array;
  /** Those of them the kept preparation has no column for. */
  readonly newFeatures: Int32Array;
  /** Per new column, the kept column it is (−1: new). */
  readonly source: readonly number[];
  /** The originals' values under the new table. */
  readonly originalValues: Float64Array;
  readonly rows: PreparedEdits['rows'];
  readonly env: EvalEnv;
  readonly candidates: CandidateSource;
  readonly isCancelled: () => boolean;
}

/**
 * A run's change vectors over the new table when some new feature is one its edits can change: the
 * kept edits are built again and the new features evaluated on each, the kept columns' changes
 * copied from its old vector. Undefined when cancelled or a new feature is not finite on an edit.
 */
function revisitedChanges(r: Revisit): EditChanges | undefined {
  const { run, table, changeable, source, originalValues } = r;
  const F = table.keys.length;
  const oldWidth = run.changes.columns.length;
  const oldSlots = Array.from(changeable, (k) => (source[k]! < 0 ? -1 : slotOf(run.changes, source[k]!)));
  if (oldSlots.some((slot, i) => slot < 0 && source[changeable[i]!]! >= 0)) return undefined;
  const set = new ChangeVectorSet(changeable.length);
  const vectorOf = new Int32Array(run.index.editRow.length);
  const scratch = new Float64Array(F);
  let finite = true;
  // One row's view and, once its candidates are asked for (a rebuilt swap never asks), the ids they
  // may not be, for as long as its edits are built.
  let current: { row: number; view: TrajectoryView; excluded?: ReadonlySet<string> } | undefined;
  const rowOf = (row: number): NonNullable<typeof current> => {
    if (current?.row !== row) current = { row, view: viewOf(r.rows[row]!) };
    return current;
  };
  const excludedOf = (row: number): ReadonlySet<string> => {
    const of = rowOf(row);
    return (of.excluded ??= candidatesExcluded(of.view));
  };
  const editSource: EditSource = {
    env: r.env, rows: r.rows, isCancelled: r.isCancelled, editOf: () => r.edit,
    candidatesFor: (plan: AttackPlan, row: number, position: number) => r.candidates.candidatesFor(plan, r.rows[row]!, position, excludedOf(row)),
  };
  // A term that reads what the row logged is evaluated on the edited rollout's rendered text, as the preparation evaluated it.
  const rendered = Array.from(changeable).some((k) => table.reads[k]!.has('meta'));
  const complete = revisitKeptEdits(run.plan, editSource, run.index, rendered, (row) => rowOf(row).view, (e, view) => {
    const row = run.index.editRow[e]!;
    const base = row * F;
    evaluateColumns(table, r.newFeatures, view, r.env, scratch, 0, row);
    const v = run.changes.vectorOf[e]!;
    for (let i = 0; i < changeable.length; i++) {
      const slot = oldSlots[i]!;
      const k = changeable[i]!;
      if (slot < 0) finite &&= Number.isFinite(scratch[k]!);
      set.vector[i] = slot < 0 ? scratch[k]! - originalValues[base + k]! : run.changes.vectors[v * oldWidth + slot]!;
    }
    vectorOf[e] = set.index();
  });
  return complete && finite ? { columns: changeable, vectors: set.finish(), vectorOf } : undefined;
}

/**
 * A run's change vectors over the new table: each kept column under its new index (ascending), the
 * dropped ones left out, and the vectors that become equal merged, numbered as the edits first meet
 * them, as a preparation numbers them.
 */
function remapped(changes: EditChanges, newIndex: Int32Array): EditChanges {
  const width = changes.columns.length;
  const slots = [...changes.columns.keys()].filter((slot) => newIndex[changes.columns[slot]!]! >= 0)
    .sort((a, b) => newIndex[changes.columns[a]!]! - newIndex[changes.columns[b]!]!);
  const columns = Int32Array.from(slots, (slot) => newIndex[changes.columns[slot]!]!);
  const identity = slots.length === width && slots.every((slot, i) => slot === i) && columns.every((k, i) => k === changes.columns[i]);
  if (identity) return changes;
  const set = new ChangeVectorSet(columns.length);
  const known = new Map<number, number>();
  const vectorOf = new Int32Array(changes.vectorOf.length);
  for (let e = 0; e < vectorOf.length; e++) {
    const old = changes.vectorOf[e]!;
    let v = known.get(old);
    if (v === undefined) {
      slots.forEach((slot, i) => {
        set.vector[i] = changes.vectors[old * width + slot]!;
      });
      v = set.index();
      known.set(old, v);
    }
    vectorOf[e] = v;
  }
  return { columns, vectors: set.finish(), vectorOf };
}
