import type { Trajectory } from '../pool/types.js';
import type { EvalEnv } from '../language/eval-env.js';
import { EvaluationError } from '../language/eval-error.js';
import type { TrajectoryView } from '../language/view.js';
import type { TrajectoryPart } from '../language/types.js';
import { AuditError, featureName } from './audit-error.js';
import type { FeatureTable } from './features.js';
import type { CompiledEdit } from '../reward/compile-edit.js';
import { editVariants, swapRebuilder, type Edit } from './edit-program.js';
import type { AttackPlan } from './attack-plan.js';
import { ChangeVectorSet, joinChanges, withRoom, type EditChanges } from './edit-changes.js';
import { renderedView, UnrenderedEdit } from './rendered-view.js';
import { JoinedReplacementIds, ReplacementIdsBuilder, replacementAt, type ReplacementIds } from './replacement-ids.js';

export interface Counts {
  readonly constructible: number;
  readonly eligible: number;
  readonly isolatedEligible: number;
}

export interface EditRecord {
  readonly row: number;
  readonly position: number | undefined;
  readonly replacement: string | undefined;
}

/**
 * An attack's units and edits as flat arrays, for loops over a million edits. A unit is an original
 * with isolated-eligible edits: its edits are contiguous, in generation order (the first is
 * first-visible), and units are in row order.
 */
export interface RunIndex {
  /** The original row of each unit. */
  readonly unitRow: Int32Array;
  /** The index of each unit's first edit. */
  readonly unitFirst: Int32Array;
  /** How many edits each unit has. */
  readonly unitCount: Int32Array;
  /** The question cluster of each unit. */
  readonly unitCluster: Int32Array;
  /** The original row of each edit. */
  readonly editRow: Int32Array;
  /** The citation position each edit changes, or −1 for an edit of no one position. */
  readonly editPosition: Int32Array;
  /**
   * Each edit's place among every edit its original's attack builds, kept or not, in generation
   * order: what building the row's edits again finds it by (edits/patch-features.ts).
   */
  readonly editOrdinal: Int32Array;
  /** The passage id each edit puts in, when it puts one in (`replacementAt`). */
  readonly editReplacement: ReplacementIds;
  /**
   * Of a launder attack that merges several generators: which of them proposed each edit's passage
   * (bit g: plan.generators[g]; edits/edit-origins.ts); −1 where the edit has none.
   */
  readonly editOrigins?: Int32Array;
}

/** One edit of a run as a record: its original's row, and the position and passage it changes. */
export function editRecord(run: AttackRun, edit: number): EditRecord {
  const position = run.index.editPosition[edit]!;
  return { row: run.index.editRow[edit]!, position: position < 0 ? undefined : position, replacement: replacementAt(run.index.editReplacement, edit) };
}

/** Edits a format could not write back (edits/rendered-view.ts): not counted, since the reward would read a text no trainer saw. */
export interface Unrendered {
  readonly edits: number;
  /** Why the first of them could not be written, with its row. */
  readonly first?: { readonly row: number; readonly reason: string };
}

/**
 * Why an attack's edits are or are not eligible and isolated, counted in rows with at least one
 * edit: per target, the rows where it is already active on the original (it cannot flip 0 → 1) and
 * the rows where some edit flips it 0 → 1; per other audit detector, the rows where some eligible
 * edit changes it (the edit is not isolated). What a finding says when an attack has nothing to test.
 */
export interface Eligibility {
  readonly targets: readonly { readonly detector: string; readonly active: number; readonly flips: number }[];
  readonly others: readonly { readonly detector: string; readonly changes: number }[];
}

export interface AttackRun {
  readonly plan: AttackPlan;
  readonly eligibility: Eligibility;
  readonly unrendered: Unrendered;
  /** Its edit reads gold or an oracle field: every figure of the attack is an oracle upper bound. */
  readonly oracle: boolean;
  readonly edits: { readonly rows: Counts; readonly clusters: Counts; readonly edits: Counts };
  /** Its units and edits, in typed arrays (`editRecord` reads one edit). */
  readonly index: RunIndex;
  /**
   * What each edit changes, feature by feature (d_k(e) = f_k(A(τ)) − f_k(τ)), the only per-edit
   * values kept, as distinct vectors and each edit's (edits/edit-changes.ts). An edit's value of a
   * 0/1 detector is its original's plus its change, exactly.
   */
  readonly changes: EditChanges;
  /**
   * Per constructible edit, in row order and each row's in generation order: bit i set when the
   * audit's detector i (`detectorColumns` order) is 1 on it, or the top bit alone for an edit its
   * format could not write back. Empty when the audit has more than `maxRecordedDetectors` detectors.
   */
  readonly detectorBits: Uint32Array;
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

/** What building a row's edits reads: the rows, the compiled edits, the candidates, the corpus. */
export interface EditSource {
  readonly env: EvalEnv;
  readonly rows: readonly Trajectory[];
  /** The compiled edit of each attack. */
  readonly editOf: (plan: AttackPlan) => CompiledEdit;
  /** Candidate ids for a laundering edit of one citation position. */
  readonly candidatesFor: (plan: AttackPlan, row: number, position: number) => readonly string[];
  readonly isCancelled: () => boolean;
}

export interface AttackContext extends EditSource {
  readonly table: FeatureTable;
  readonly views: readonly TrajectoryView[];
  /** originalValues[r * F + k] */
  readonly originalValues: Float64Array;
  /** Feature indices of the audit's detectors (the lattice and every attack's targets). */
  readonly detectorColumns: ReadonlyMap<string, number>;
}

/** The attack's edits of one original (`view` is its row's), built as they are read (edits/edit-program.ts). */
function editsOf(plan: AttackPlan, ctx: EditSource, row: number, view: TrajectoryView): Iterable<Edit> {
  return editVariants(ctx.editOf(plan), view, {
    trajectoryId: ctx.rows[row]!.id,
    env: ctx.env,
    candidatesAt: (position) => ctx.candidatesFor(plan, row, position),
    row,
  });
}

/**
 * The order in which an edit's changeable features are evaluated. Eligibility and isolation read
 * the audit's detectors alone, so the other features are evaluated only on the edits kept
 * (`keptEdits`): an edit that fails them costs its detectors only. Two kinds are evaluated on every
 * edit (`everyEdit`), as the detectors are: a feature that reads a logged field, since whether the
 * format can write the edit back decides whether it is counted at all (edits/rendered-view.ts), and
 * one that reads a command term, whose program answers for every edited trajectory
 * (edits/command-terms.ts).
 */
export function evaluationOrder(table: FeatureTable, changeable: Int32Array, detectorColumns: ReadonlyMap<string, number>): { everyEdit: Int32Array; keptEdits: Int32Array } {
  const detectors = new Set(detectorColumns.values());
  const onEveryEdit = (k: number): boolean => detectors.has(k) || table.reads[k]!.has('meta') || table.commands[k]!.length > 0;
  return { everyEdit: changeable.filter(onEveryEdit), keptEdits: changeable.filter((k) => !onEveryEdit(k)) };
}

/**
 * Thrown when a row's edits built again are not those a kept preparation built (which the same
 * plan, rows and candidates rule out): the kept preparation is not used, and the audit prepares.
 */
export class EditsBuiltAgainDiffer extends Error {}

/**
 * Builds the edits of each unit's original again, as `runAttackRows` built them, and hands `visit`
 * every kept edit (found by its ordinal) with its view, rendered when `rendered`: what evaluating a
 * new feature on the kept edits alone needs. `views(row)` is the row's view. An edit that is one
 * citation swap is rebuilt from the position and id the run kept (`swapRebuilder`), the row's other
 * variants not built. False when cancelled.
 */
export function revisitKeptEdits(plan: AttackPlan, source: EditSource, index: RunIndex, rendered: boolean, views: (row: number) => TrajectoryView, visit: (edit: number, view: TrajectoryView) => void): boolean {
  const rebuild = swapRebuilder(source.editOf(plan));
  if (rebuild !== undefined) {
    for (let u = 0; u < index.unitRow.length; u++) {
      if (u % 256 === 0 && source.isCancelled()) return false;
      const row = index.unitRow[u]!;
      const original = views(row);
      for (let e = index.unitFirst[u]!, end = e + index.unitCount[u]!; e < end; e++) {
        const replacement = replacementAt(index.editReplacement, e);
        if (replacement === undefined) throw new EditsBuiltAgainDiffer(`attack '${plan.name}': a kept edit of row ${row} swapped no citation`);
        const edit = rebuild(original, index.editPosition[e]!, replacement);
        visit(e, rendered ? renderedView(source.rows[row]!, edit) : edit.view);
      }
    }
    return true;
  }
  for (let u = 0; u < index.unitRow.length; u++) {
    if (u % 256 === 0 && source.isCancelled()) return false;
    const row = index.unitRow[u]!;
    let e = index.unitFirst[u]!;
    const end = e + index.unitCount[u]!;
    let ordinal = -1;
    for (const edit of editsOf(plan, source, row, views(row))) {
      if (++ordinal !== index.editOrdinal[e]) continue;
      visit(e, rendered ? renderedView(source.rows[row]!, edit) : edit.view);
      if (++e === end) break;
    }
    if (e !== end) throw new EditsBuiltAgainDiffer(`attack '${plan.name}': the edits of row ${row} built again are fewer than those kept`);
  }
  return true;
}

/** Row flags of a part: the row has an edit, an eligible edit, an isolated-eligible edit. */
const hasEdit = 1;
const hasEligible = 2;
const hasIsolated = 4;

/**
 * One attack over a range of rows, in typed arrays so a worker thread can hand it back without a
 * copy (threads/parallel-prepare.ts). Rows and edits are numbered from the part's first row and edit;
 * `joinRunParts` lays parts of consecutive ranges end to end into the `AttackRun` one pass over
 * every row builds.
 */
export interface RunPart {
  /** hasEdit | hasEligible | hasIsolated, per row of the range. */
  readonly rowFlags: Uint8Array;
  readonly constructible: number;
  readonly eligible: number;
  /** Per isolated-eligible edit: its row, citation position (−1: none) and replacement id. */
  readonly editRow: Int32Array;
  readonly editPosition: Int32Array;
  readonly editOrdinal: Int32Array;
  readonly editReplacement: ReplacementIds;
  /** Set by `preparePart`: the generators behind each edit (RunIndex.editOrigins), when the attack merges several. */
  readonly editOrigins?: Int32Array;
  /** What each edit changes (AttackRun.changes), over the features the attack can change. */
  readonly changes: EditChanges;
  /** AttackRun.detectorBits over the range's edits. */
  readonly detectorBits: Uint32Array;
  /** Edits whose row's format could not write them back (rows numbered from the range's first). */
  readonly unrendered: Unrendered;
  /** AttackRun.eligibility over the range: per target (plan order) rows active and rows flipped, per other detector rows changed. */
  readonly targetActive: readonly number[];
  readonly targetFlips: readonly number[];
  readonly otherChanges: readonly number[];
}

/**
 * What a kept preparation knows of one attack's edits over the same rows, so that building them
 * again evaluates only what changed (edits/patch-features.ts): each edit's detectors, whether its
 * format wrote it back, and each kept edit's change vector.
 */
export interface KnownEdits {
  /** The kept run of this attack, over every row of the pool (its rows numbered from the first). */
  readonly run: AttackRun;
  /** Per feature of the new table: its slot in the kept run's change vectors, or −1 (evaluate it). */
  readonly slots: Int32Array;
  /** Per audit detector, in `detectorColumns` order: its bit in the kept run's `detectorBits`, or −1 (evaluate it). */
  readonly bits: Int32Array;
  /** The next edit's entries in the kept run: the rows are visited in order, range after range. */
  readonly cursor: { constructible: number; kept: number };
}

/** The detectors `AttackRun.detectorBits` records: one bit each, and the top bit marks an edit not written back. */
export const maxRecordedDetectors = 31;
const unrenderedMark = 0x80000000;

/**
 * Builds every edit of one attack on rows [from, to) and keeps the isolated-eligible ones: eligible
 * when every target detector flips 0 → 1, isolated when every other audit detector keeps its value.
 * Given `known` (rows numbered from `known.from` in its run), what it knows is taken instead of
 * evaluated. Undefined when cancelled.
 */
export function runAttackRows(plan: AttackPlan, ctx: AttackContext, from: number, to: number, known?: { readonly from: number; readonly edits: KnownEdits }): RunPart | undefined {
  const F = ctx.table.keys.length;
  const targets = plan.targets.map((t) => ctx.detectorColumns.get(t)!);
  const others = [...ctx.detectorColumns.entries()].filter(([name]) => !plan.targets.includes(name)).map(([, column]) => column);
  const targetActive = targets.map(() => 0);
  const targetFlips = targets.map(() => 0);
  const otherChanges = others.map(() => 0);
  // Per row: which targets some edit flips, which other detectors some eligible edit changes.
  const flipped = new Uint8Array(targets.length);
  const changedOther = new Uint8Array(others.length);
  const rowFlags = new Uint8Array(to - from);
  let constructible = 0;
  let eligibleCount = 0;
  const editRow: number[] = [];
  const editPosition: number[] = [];
  const editOrdinal: number[] = [];
  const editReplacement = new ReplacementIdsBuilder(ctx.env.corpusOrder());
  const scratch = new Float64Array(F);
  // An edit leaves every feature that reads nothing it writes as it was on the original: only the
  // others are evaluated (the read sets come from the checker: semantics/read-set.ts), and only
  // their changes are kept, as the index of the edit's change vector among the distinct ones.
  const changeable = changeableColumns(ctx.table, ctx.editOf(plan).writes);
  const { everyEdit, keptEdits } = evaluationOrder(ctx.table, changeable, ctx.detectorColumns);
  const vectors = new ChangeVectorSet(changeable.length);
  let vectorOf = new Int32Array(1024);
  // A term that reads what the row logged is evaluated on the edited rollout's rendered text.
  const readsLogged = Array.from(changeable).some((k) => ctx.table.reads[k]!.has('meta'));
  let unrenderedEdits = 0;
  let firstUnrendered: Unrendered['first'];
  // Each edit's detectors, as bits, so a kept preparation can decide eligibility and isolation again
  // after one detector changes without evaluating the others (`KnownEdits`).
  const detectors = Int32Array.from(ctx.detectorColumns.values());
  const recordsBits = detectors.length <= maxRecordedDetectors;
  let detectorBits = new Uint32Array(recordsBits ? 1024 : 0);
  const record = (bits: number): void => {
    if (!recordsBits) return;
    if (constructible > detectorBits.length) {
      const grown = new Uint32Array(detectorBits.length * 2);
      grown.set(detectorBits);
      detectorBits = grown;
    }
    detectorBits[constructible - 1] = bits;
  };
  const knownRun = known?.edits.run;
  const cursor = known?.edits.cursor;
  // Known: the detectors to evaluate (the others are read from the kept bits), and on an edit kept
  // before, the features its kept vector does not hold.
  const evaluatedOnEvery = known === undefined ? everyEdit : everyEdit.filter((k) => !detectors.includes(k) || known.edits.bits[detectors.indexOf(k)]! < 0);
  const evaluatedOnKeptBefore = known === undefined ? keptEdits : keptEdits.filter((k) => known.edits.slots[k]! < 0);
  const isDetector = new Uint8Array(F);
  for (const k of detectors) isDetector[k] = 1;

  for (let row = from; row < to; row++) {
    if (row % 256 === 0 && ctx.isCancelled()) return undefined;
    const base = row * F;
    // Every edit of the row starts from the original's values: one view of them per row, not per edit.
    const originalRow = ctx.originalValues.subarray(base, base + F);
    let flags = 0;
    let ordinal = -1;
    flipped.fill(0);
    changedOther.fill(0);
    for (const edit of editsOf(plan, ctx, row, ctx.views[row]!)) {
      ordinal++;
      flags |= hasEdit;
      // One row may have many variants (`delete each s in steps` over a long run is steps²): the
      // editor's cancel must still reach it.
      if (++constructible % 4096 === 0 && ctx.isCancelled()) return undefined;
      scratch.set(originalRow);
      const view = readsLogged ? renderedView(ctx.rows[row]!, edit) : edit.view;
      // The edit's entries in the kept run: its detectors, and its place among the kept edits.
      let knownBits = 0;
      let wasKept = -1;
      if (knownRun !== undefined && cursor !== undefined) {
        knownBits = knownRun.detectorBits[cursor.constructible++]!;
        const k = cursor.kept;
        if (k < knownRun.index.editRow.length && knownRun.index.editRow[k] === known!.from + row && knownRun.index.editOrdinal[k] === ordinal) wasKept = cursor.kept++;
        if (knownBits === unrenderedMark) {
          unrenderedEdits++;
          firstUnrendered ??= { row: row - from, reason: knownRun.unrendered.first!.reason };
          record(unrenderedMark);
          continue;
        }
        for (let i = 0; i < detectors.length; i++) {
          const bit = known!.edits.bits[i]!;
          if (bit >= 0) scratch[detectors[i]!] = (knownBits >>> bit) & 1;
        }
      }
      try {
        evaluateColumns(ctx.table, evaluatedOnEvery, view, ctx.env, scratch, 0, row);
      } catch (error) {
        if (!(error instanceof UnrenderedEdit)) throw error;
        unrenderedEdits++;
        firstUnrendered ??= { row: row - from, reason: error.reason };
        record(unrenderedMark);
        continue;
      }
      if (recordsBits) {
        let bits = 0;
        for (let i = 0; i < detectors.length; i++) if (scratch[detectors[i]!] !== 0) bits |= 1 << i;
        record(bits);
      }
      let eligible = true;
      for (let t = 0; t < targets.length; t++) {
        const c = targets[t]!;
        if (ctx.originalValues[base + c] === 0 && scratch[c] === 1) flipped[t] = 1;
        else eligible = false;
      }
      if (!eligible) continue;
      eligibleCount++;
      flags |= hasEligible;
      if (!others.every((c) => ctx.originalValues[base + c] === scratch[c])) {
        for (let o = 0; o < others.length; o++) if (ctx.originalValues[base + others[o]!] !== scratch[others[o]!]) changedOther[o] = 1;
        continue;
      }
      flags |= hasIsolated;
      evaluateColumns(ctx.table, wasKept < 0 ? keptEdits : evaluatedOnKeptBefore, view, ctx.env, scratch, 0, row);
      let bad = 0;
      while (bad < F && Number.isFinite(scratch[bad]!)) bad++;
      if (bad < F) throw new AuditError(`attack '${plan.name}': term '${featureName(ctx.table.keys[bad]!)}' is ${scratch[bad]} on an edit; every term must be a finite number`, row);
      const e = editRow.length;
      vectorOf = withRoom(vectorOf, e + 1);
      const old = wasKept < 0 ? -1 : knownRun!.changes.vectorOf[wasKept]! * knownRun!.changes.columns.length;
      for (let i = 0; i < changeable.length; i++) {
        const k = changeable[i]!;
        const slot = old < 0 || isDetector[k] === 1 ? -1 : known!.edits.slots[k]!;
        vectors.vector[i] = slot < 0 ? scratch[k]! - ctx.originalValues[base + k]! : knownRun!.changes.vectors[old + slot]!;
      }
      vectorOf[e] = vectors.index();
      editRow.push(row - from);
      editPosition.push(edit.position ?? -1);
      editOrdinal.push(ordinal);
      editReplacement.push(edit.replacement);
    }
    rowFlags[row - from] = flags;
    if ((flags & hasEdit) === 0) continue;
    for (let t = 0; t < targets.length; t++) {
      if (ctx.originalValues[base + targets[t]!] !== 0) targetActive[t]!++;
      else if (flipped[t] === 1) targetFlips[t]!++;
    }
    for (let o = 0; o < others.length; o++) if (changedOther[o] === 1) otherChanges[o]!++;
  }
  const changes: EditChanges = { columns: changeable, vectors: vectors.finish(), vectorOf: vectorOf.slice(0, editRow.length) };
  return {
    rowFlags, constructible, eligible: eligibleCount,
    editRow: Int32Array.from(editRow), editPosition: Int32Array.from(editPosition), editOrdinal: Int32Array.from(editOrdinal), editReplacement: editReplacement.finish(), changes,
    detectorBits: detectorBits.slice(0, recordsBits ? constructible : 0),
    unrendered: { edits: unrenderedEdits, ...(firstUnrendered === undefined ? {} : { first: firstUnrendered }) },
    targetActive, targetFlips, otherChanges,
  };
}

/** The detectors other than the attack's targets, in the order `runAttackRows` counts them. */
function otherDetectors(plan: AttackPlan, detectorColumns: ReadonlyMap<string, number>): string[] {
  return [...detectorColumns.keys()].filter((name) => !plan.targets.includes(name));
}

/** The eligibility counts of a run from its parts' (rows of disjoint ranges add up). */
function joinEligibility(plan: AttackPlan, detectorColumns: ReadonlyMap<string, number>, parts: readonly { readonly part: RunPart }[]): Eligibility {
  const sum = (pick: (part: RunPart) => readonly number[], i: number): number => parts.reduce((total, { part }) => total + (pick(part)[i] ?? 0), 0);
  return {
    targets: plan.targets.map((detector, t) => ({ detector, active: sum((p) => p.targetActive, t), flips: sum((p) => p.targetFlips, t) })),
    others: otherDetectors(plan, detectorColumns).map((detector, o) => ({ detector, changes: sum((p) => p.otherChanges, o) })),
  };
}

/**
 * The run of one attack from its parts over consecutive row ranges, in row order: the same counts,
 * units, records and values, bit for bit, as one pass over every row.
 */
export function joinRunParts(plan: AttackPlan, oracle: boolean, parts: readonly { readonly from: number; readonly part: RunPart }[], clusterOf: readonly number[], detectorColumns: ReadonlyMap<string, number>): AttackRun {
  const rowCounts = { constructible: 0, eligible: 0, isolatedEligible: 0 };
  const clusterSets = { constructible: new Set<number>(), eligible: new Set<number>(), isolatedEligible: new Set<number>() };
  let constructible = 0;
  let eligible = 0;
  let unrenderedEdits = 0;
  let firstUnrendered: Unrendered['first'];
  let total = 0;
  let unitTotal = 0;
  for (const { part } of parts) {
    total += part.editRow.length;
    for (const flags of part.rowFlags) if ((flags & hasIsolated) !== 0) unitTotal++;
  }
  const unitRow = new Int32Array(unitTotal);
  const unitFirst = new Int32Array(unitTotal);
  const unitCount = new Int32Array(unitTotal);
  const unitCluster = new Int32Array(unitTotal);
  let u = 0;
  const editRow = new Int32Array(total);
  const editPosition = new Int32Array(total);
  const editOrdinal = new Int32Array(total);
  const editReplacement = new JoinedReplacementIds(total, parts[0]?.part.editReplacement.corpusIds ?? []);
  const editOrigins = parts.some(({ part }) => part.editOrigins !== undefined) ? new Int32Array(total) : undefined;
  let at = 0;
  for (const { from, part } of parts) {
    constructible += part.constructible;
    eligible += part.eligible;
    unrenderedEdits += part.unrendered.edits;
    if (firstUnrendered === undefined && part.unrendered.first !== undefined) firstUnrendered = { row: from + part.unrendered.first.row, reason: part.unrendered.first.reason };
    let e = 0;
    for (let i = 0; i < part.rowFlags.length; i++) {
      const flags = part.rowFlags[i]!;
      if ((flags & hasEdit) === 0) continue;
      const row = from + i;
      const cluster = clusterOf[row]!;
      rowCounts.constructible++;
      clusterSets.constructible.add(cluster);
      if ((flags & hasEligible) !== 0) {
        rowCounts.eligible++;
        clusterSets.eligible.add(cluster);
      }
      if ((flags & hasIsolated) === 0) continue;
      rowCounts.isolatedEligible++;
      clusterSets.isolatedEligible.add(cluster);
      while (e < part.editRow.length && part.editRow[e]! < i) e++;
      const firstEdit = at;
      for (; e < part.editRow.length && part.editRow[e] === i; e++, at++) {
        editRow[at] = row;
        editPosition[at] = part.editPosition[e]!;
        editOrdinal[at] = part.editOrdinal[e]!;
        editReplacement.set(at, part.editReplacement, e);
        if (editOrigins !== undefined) editOrigins[at] = part.editOrigins?.[e] ?? -1;
      }
      unitRow[u] = row;
      unitFirst[u] = firstEdit;
      unitCount[u] = at - firstEdit;
      unitCluster[u] = cluster;
      u++;
    }
  }
  const index: RunIndex = { unitRow, unitFirst, unitCount, unitCluster, editRow, editPosition, editOrdinal, editReplacement: editReplacement.finish(), ...(editOrigins === undefined ? {} : { editOrigins }) };
  const detectorBits = new Uint32Array(parts.reduce((sum, { part }) => sum + part.detectorBits.length, 0));
  let bitsAt = 0;
  for (const { part } of parts) {
    detectorBits.set(part.detectorBits, bitsAt);
    bitsAt += part.detectorBits.length;
  }
  // Every part has the same changeable features (one plan).
  const changes = joinChanges(parts[0]?.part.changes.columns ?? new Int32Array(0), parts.map(({ part }) => part.changes));
  return {
    plan,
    oracle,
    eligibility: joinEligibility(plan, detectorColumns, parts),
    unrendered: { edits: unrenderedEdits, ...(firstUnrendered === undefined ? {} : { first: firstUnrendered }) },
    edits: {
      rows: rowCounts,
      clusters: { constructible: clusterSets.constructible.size, eligible: clusterSets.eligible.size, isolatedEligible: clusterSets.isolatedEligible.size },
      edits: { constructible, eligible, isolatedEligible: total },
    },
    index,
    changes,
    detectorBits,
  };
}
