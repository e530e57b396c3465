import type { AttackRun } from '../edits/attack-run.js';
import { selectChanges } from '../edits/edit-changes.js';
import { selectReplacements } from '../edits/replacement-ids.js';

/**
 * The same attack run over fewer originals: the units whose row `keep` marks (a pool selection) and,
 * given `clusters`, whose question cluster it marks (the common cluster set). Every estimate, margin
 * and selected edit is then computed by the one scoring path over the smaller run.
 * `edits` keeps the whole run's counts (constructible and eligible are not known per row): the
 * estimates' own `clusters` and `rows` say how many originals a restricted figure is over.
 */
export function restrictRun(run: AttackRun, keep: (row: number, cluster: number) => boolean): AttackRun {
  const { unitRow, unitCluster, unitFirst, unitCount } = run.index;
  const unitsKept: number[] = [];
  const editsKept: number[] = [];
  for (let u = 0; u < unitRow.length; u++) {
    if (!keep(unitRow[u]!, unitCluster[u]!)) continue;
    unitsKept.push(u);
    for (let e = unitFirst[u]!; e < unitFirst[u]! + unitCount[u]!; e++) editsKept.push(e);
  }
  if (unitsKept.length === unitRow.length) return run;
  const changes = selectChanges(run.changes, editsKept);
  // The kept units' edits are laid end to end: each unit's first edit follows the one before's.
  const unitFirstKept = new Int32Array(unitsKept.length);
  for (let k = 1; k < unitsKept.length; k++) unitFirstKept[k] = unitFirstKept[k - 1]! + unitCount[unitsKept[k - 1]!]!;
  return {
    plan: run.plan,
    oracle: run.oracle,
    edits: run.edits,
    eligibility: run.eligibility,
    unrendered: run.unrendered,
    // Of the whole run, as its counts are.
    detectorBits: run.detectorBits,
    changes,
    index: {
      unitRow: Int32Array.from(unitsKept, (u) => unitRow[u]!),
      unitFirst: unitFirstKept,
      unitCount: Int32Array.from(unitsKept, (u) => unitCount[u]!),
      unitCluster: Int32Array.from(unitsKept, (u) => unitCluster[u]!),
      editRow: Int32Array.from(editsKept, (e) => run.index.editRow[e]!),
      editPosition: Int32Array.from(editsKept, (e) => run.index.editPosition[e]!),
      editOrdinal: Int32Array.from(editsKept, (e) => run.index.editOrdinal[e]!),
      editReplacement: selectReplacements(run.index.editReplacement, editsKept),
      ...(run.index.editOrigins === undefined ? {} : { editOrigins: Int32Array.from(editsKept, (e) => run.index.editOrigins![e]!) }),
    },
  };
}
