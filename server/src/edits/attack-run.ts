import type { Trajectory } from '../pool/types.js';
import type { EvalEnv } from '../language/eval-env.js';
import { EvaluationError } from '../language/eval-error.js';
import type { TrajectoryView } from '../language/view.js';
import type { TrajectoryPart } from '../language/types.js';
import { AuditError, featureName } from './audit-error.js';
import type { FeatureTable } from './features.js';
import type { CompiledEdit } from '../reward/compile-edit.js';
import { editVariants, type Edit } from './edit-program.js';
import type { AttackPlan } from './attack-plan.js';

export interface Counts {
  readonly constructible: number;
  readonly eligible: number;
  readonly isolatedEligible: number;
}

/** The isolated-eligible edits of one original, in generation order (the first is first-visible). */
export interface AttackUnit {
  readonly row: number;
  readonly cluster: number;
  /** Index of the unit's first edit in `AttackRun.edits`; its edits are contiguous. */
  readonly firstEdit: number;
  readonly editCount: number;
}

export interface EditRecord {
  readonly row: number;
  readonly position: number | undefined;
  readonly replacement: string | undefined;
}

/** An attack's units and edits as flat arrays, for loops over a million edits. */
export interface RunIndex {
  readonly unitRow: Int32Array;
  readonly unitFirst: Int32Array;
  readonly unitCount: Int32Array;
  /** The question cluster of each unit. */
  readonly unitCluster: Int32Array;
  /** The original row of each edit. */
  readonly editRow: Int32Array;
}

export interface AttackRun {
  readonly plan: AttackPlan;
  /** Its edit reads gold or an oracle field: every figure of the attack is an oracle upper bound. */
  readonly oracle: boolean;
  readonly edits: { readonly rows: Counts; readonly clusters: Counts; readonly edits: Counts };
  readonly units: readonly AttackUnit[];
  readonly editRecords: readonly EditRecord[];
  /** Feature values of every isolated-eligible edit: editValues[e * F + k]. */
  readonly editValues: Float64Array;
  readonly index: RunIndex;
  /**
   * What each edit changes, feature by feature: changes[k][e] = f_k(A(τ)) − f_k(τ). Every margin
   * pass reads the columns of its nonzero weights front to back instead of striding through rows.
   */
  readonly changes: readonly Float64Array[];
}

/**
 * Evaluates every feature on one trajectory view into `out` at `offset`. A value past the engine's
 * bounds (language/eval-error.ts) stops the analysis, naming the term and, given `row`, the row.
 */
export function evaluateFeatures(table: FeatureTable, view: TrajectoryView, env: EvalEnv, out: Float64Array, offset: number, row?: number): void {
  let k = 0;
  try {
    for (; k < table.features.length; k++) out[offset + k] = table.features[k]!(view, env);
  } catch (error) {
    if (!(error instanceof EvaluationError)) throw error;
    throw new AuditError(`term '${featureName(table.keys[k]!)}': ${error.message}`, row);
  }
}

/**
 * Evaluates only the features at `columns` into `out` at `offset` (the others hold the original's
 * values already): the features an edit can change. Errors as in `evaluateFeatures`.
 */
export function evaluateColumns(table: FeatureTable, columns: Int32Array, view: TrajectoryView, env: EvalEnv, out: Float64Array, offset: number, row?: number): void {
  let i = 0;
  try {
    for (; i < columns.length; i++) out[offset + columns[i]!] = table.features[columns[i]!]!(view, env);
  } catch (error) {
    if (!(error instanceof EvaluationError)) throw error;
    throw new AuditError(`term '${featureName(table.keys[columns[i]!]!)}': ${error.message}`, row);
  }
}

/** The features whose read set meets the edit's write set: the only ones an edit can change. */
export function changeableColumns(table: FeatureTable, writes: ReadonlySet<TrajectoryPart>): Int32Array {
  const columns: number[] = [];
  table.reads.forEach((reads, k) => {
    for (const part of reads) {
      if (writes.has(part)) {
        columns.push(k);
        return;
      }
    }
  });
  return Int32Array.from(columns);
}

export interface AttackContext {
  readonly table: FeatureTable;
  readonly env: EvalEnv;
  readonly rows: readonly Trajectory[];
  readonly views: readonly TrajectoryView[];
  readonly clusterOf: readonly number[];
  /** originalValues[r * F + k] */
  readonly originalValues: Float64Array;
  /** Feature indices of the audit's detectors (the lattice and every attack's targets). */
  readonly detectorColumns: ReadonlyMap<string, number>;
  /** The compiled edit of each attack. */
  readonly editOf: (plan: AttackPlan) => CompiledEdit;
  /** Candidate ids for a laundering edit of one citation position. */
  readonly candidatesFor: (plan: AttackPlan, row: number, position: number) => readonly string[];
  readonly isCancelled: () => boolean;
}

/** The attack's edits of one original, built as they are read (edits/edit-program.ts). */
function editsOf(plan: AttackPlan, ctx: AttackContext, row: number): Iterable<Edit> {
  return editVariants(ctx.editOf(plan), ctx.views[row]!, {
    trajectoryId: ctx.rows[row]!.id,
    env: ctx.env,
    candidatesAt: (position) => ctx.candidatesFor(plan, row, position),
  });
}

class Counter {
  constructible = 0;
  eligible = 0;
  isolatedEligible = 0;
  freeze(): Counts {
    return { constructible: this.constructible, eligible: this.eligible, isolatedEligible: this.isolatedEligible };
  }
}

/**
 * Builds every edit of one attack and keeps the isolated-eligible ones: eligible when every target
 * detector flips 0 → 1, isolated when every other audit detector keeps its value.
 */
export function runAttack(plan: AttackPlan, ctx: AttackContext): AttackRun | undefined {
  const F = ctx.table.keys.length;
  const targets = plan.targets.map((t) => ctx.detectorColumns.get(t)!);
  const others = [...ctx.detectorColumns.entries()].filter(([name]) => !plan.targets.includes(name)).map(([, column]) => column);
  const editCounter = new Counter();
  const rowCounter = new Counter();
  const clusterSets = { constructible: new Set<number>(), eligible: new Set<number>(), isolatedEligible: new Set<number>() };
  const units: AttackUnit[] = [];
  const editRecords: EditRecord[] = [];
  let editValues = new Float64Array(F * 1024);
  const scratch = new Float64Array(F);
  // An edit leaves every feature that reads nothing it writes as it was on the original: only the
  // others are evaluated (the read sets come from the checker: semantics/read-set.ts).
  const changeable = changeableColumns(ctx.table, ctx.editOf(plan).writes);

  for (let row = 0; row < ctx.rows.length; row++) {
    if (row % 256 === 0 && ctx.isCancelled()) return undefined;
    const base = row * F;
    const cluster = ctx.clusterOf[row]!;
    let anyEdit = false;
    let anyEligible = false;
    const firstEdit = editRecords.length;
    for (const edit of editsOf(plan, ctx, row)) {
      anyEdit = true;
      // One row may have many variants (`delete each s in steps` over a long run is steps²): the
      // editor's cancel must still reach it.
      if (++editCounter.constructible % 4096 === 0 && ctx.isCancelled()) return undefined;
      scratch.set(ctx.originalValues.subarray(base, base + F));
      evaluateColumns(ctx.table, changeable, edit.view, ctx.env, scratch, 0, row);
      const eligible = targets.every((c) => ctx.originalValues[base + c] === 0 && scratch[c] === 1);
      if (!eligible) continue;
      editCounter.eligible++;
      anyEligible = true;
      if (!others.every((c) => ctx.originalValues[base + c] === scratch[c])) continue;
      editCounter.isolatedEligible++;
      const bad = scratch.findIndex((v) => !Number.isFinite(v));
      if (bad >= 0) throw new AuditError(`attack '${plan.name}': term '${featureName(ctx.table.keys[bad]!)}' is ${scratch[bad]} on an edit; every term must be a finite number`, row);
      if ((editRecords.length + 1) * F > editValues.length) {
        const grown = new Float64Array(editValues.length * 2);
        grown.set(editValues);
        editValues = grown;
      }
      editValues.set(scratch, editRecords.length * F);
      editRecords.push({ row, position: edit.position, replacement: edit.replacement });
    }
    if (!anyEdit) continue;
    rowCounter.constructible++;
    clusterSets.constructible.add(cluster);
    if (anyEligible) {
      rowCounter.eligible++;
      clusterSets.eligible.add(cluster);
    }
    const editCount = editRecords.length - firstEdit;
    if (editCount > 0) {
      rowCounter.isolatedEligible++;
      clusterSets.isolatedEligible.add(cluster);
      units.push({ row, cluster, firstEdit, editCount });
    }
  }
  const values = editValues.subarray(0, editRecords.length * F);
  const index = runIndex(units, editRecords);
  return {
    plan,
    oracle: ctx.editOf(plan).visibility === 'oracle',
    edits: {
      rows: rowCounter.freeze(),
      clusters: { constructible: clusterSets.constructible.size, eligible: clusterSets.eligible.size, isolatedEligible: clusterSets.isolatedEligible.size },
      edits: editCounter.freeze(),
    },
    units,
    editRecords,
    editValues: values,
    index,
    changes: changeColumns(values, index.editRow, ctx.originalValues, F),
  };
}

function runIndex(units: readonly AttackUnit[], editRecords: readonly EditRecord[]): RunIndex {
  return {
    unitRow: Int32Array.from(units, (u) => u.row),
    unitFirst: Int32Array.from(units, (u) => u.firstEdit),
    unitCount: Int32Array.from(units, (u) => u.editCount),
    unitCluster: Int32Array.from(units, (u) => u.cluster),
    editRow: Int32Array.from(editRecords, (r) => r.row),
  };
}

function changeColumns(editValues: Float64Array, editRow: Int32Array, originalValues: Float64Array, F: number): Float64Array[] {
  const edits = editRow.length;
  const columns = Array.from({ length: F }, () => new Float64Array(edits));
  for (let e = 0; e < edits; e++) {
    const at = editRow[e]! * F;
    for (let k = 0; k < F; k++) columns[k]![e] = editValues[e * F + k]! - originalValues[at + k]!;
  }
  return columns;
}
