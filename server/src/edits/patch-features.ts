import { corpusEnv } from '../language/eval-env.js';
import { viewOf } from '../language/view.js';
import { evaluateColumns, type AttackRun } from './attack-run.js';
import { AuditError } from './audit-error.js';
import { ChangeVectorSet, type EditChanges } from './edit-changes.js';
import type { FeatureTable } from './features.js';
import type { CompiledSetup, PreparedEdits } from './prepare.js';
import { scoringMemo } from './scoring-memo.js';

/**
 * The prepared edits of a plan whose features differ from those `prepared` was made with only in
 * features no edit can change (a reward term over parts no attack writes, a term added or removed):
 * the kept columns are laid out in the new table's order, each new feature is evaluated on the
 * originals alone, and every edit keeps its change vector without the columns the new table drops.
 * The result is what `prepareEdits` would compute from scratch, bit for bit: the same table, the same
 * values, and the same distinct change vectors numbered in the order the edits meet them.
 *
 * `kept(key)` says whether the feature of that key is unchanged since `prepared` (its content hash is
 * the same). Undefined when the plan cannot be patched: a new feature some attack's edit can change,
 * or one that reads a command term, needs the edits themselves (a preparation); a new feature that
 * fails or is not finite on some row is left to the preparation too, which reports it as it always does.
 */
export function patchFeatures(prepared: PreparedEdits, compiled: CompiledSetup, kept: (key: string) => boolean): PreparedEdits | undefined {
  const { table, plan } = compiled;
  const before = prepared.table;
  const source = table.keys.map((key) => (kept(key) ? before.index.get(key) ?? -1 : -1));
  const fresh = Int32Array.from(source.flatMap((from, k) => (from < 0 ? [k] : [])));
  for (const k of fresh) {
    if (table.commands[k]!.length > 0) return undefined;
    for (const attack of plan.attacks) if (readsWhatItWrites(table, k, compiled.edits.get(attack.name)!.writes)) return undefined;
  }
  const originalValues = laidOut(prepared, table, source, fresh);
  if (originalValues === undefined) return undefined;
  const newIndex = new Int32Array(before.keys.length).fill(-1);
  source.forEach((from, k) => {
    if (from >= 0) newIndex[from] = k;
  });
  const runs = prepared.runs.map((run): AttackRun => {
    const changes = remapped(run.changes, newIndex);
    return changes === run.changes ? run : { ...run, changes };
  });
  // What the scoring memo keeps is keyed by run and weights, and by detector column: while every run
  // and every detector column is the same, it holds for the new table too (a margin depends only on
  // the weights and the change vectors), so the margins of a term no edit changes are not summed again.
  const sameColumns = [...compiled.detectorColumns].every(([name, k]) => prepared.detectorColumns.get(name) === k);
  const memo = sameColumns && runs.every((run, a) => run === prepared.runs[a]) ? prepared.memo : scoringMemo();
  return { ...prepared, table, originalValues, runs, detectorNames: compiled.detectorNames, detectorColumns: compiled.detectorColumns, memo };
}

function readsWhatItWrites(table: FeatureTable, k: number, writes: ReadonlySet<string>): boolean {
  for (const part of table.reads[k]!) if (writes.has(part)) return true;
  return false;
}

/** The originals' values in the new table's columns: kept ones copied, new ones evaluated. */
function laidOut(prepared: PreparedEdits, table: FeatureTable, source: readonly number[], fresh: Int32Array): Float64Array | undefined {
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
  const env = corpusEnv(prepared.inputs.corpus, undefined);
  try {
    for (let r = 0; r < rows.length; r++) {
      evaluateColumns(table, fresh, viewOf(rows[r]!), env, values, r * F, r);
      for (const k of fresh) if (!Number.isFinite(values[r * F + k]!)) return undefined;
    }
  } catch (error) {
    if (error instanceof AuditError) return undefined;
    throw error;
  }
  return values;
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
