import type { AttackRun, AttackUnit, EditRecord } from '../edits/attack-run.js';

/**
 * The same attack run over fewer originals: the units whose row `keep` marks (a pool selection) and,
 * given `clusters`, whose question cluster it marks (the common cluster set). Every estimate, margin
 * and selected edit is then computed by the one scoring path over the smaller run.
 * `edits` keeps the whole run's counts (constructible and eligible are not known per row): the
 * estimates' own `clusters` and `rows` say how many originals a restricted figure is over.
 */
export function restrictRun(run: AttackRun, F: number, keep: (row: number, cluster: number) => boolean): AttackRun {
  const { unitRow, unitCluster, unitFirst, unitCount } = run.index;
  const units: AttackUnit[] = [];
  const records: EditRecord[] = [];
  const editsKept: number[] = [];
  for (let u = 0; u < unitRow.length; u++) {
    if (!keep(unitRow[u]!, unitCluster[u]!)) continue;
    units.push({ row: unitRow[u]!, cluster: unitCluster[u]!, firstEdit: records.length, editCount: unitCount[u]! });
    for (let e = unitFirst[u]!; e < unitFirst[u]! + unitCount[u]!; e++) {
      records.push(run.editRecords[e]!);
      editsKept.push(e);
    }
  }
  if (units.length === run.units.length) return run;
  const editValues = new Float64Array(editsKept.length * F);
  editsKept.forEach((e, i) => editValues.set(run.editValues.subarray(e * F, (e + 1) * F), i * F));
  const changes = run.changes.map((column) => Float64Array.from(editsKept, (e) => column[e]!));
  return {
    plan: run.plan,
    oracle: run.oracle,
    edits: run.edits,
    units,
    editRecords: records,
    editValues,
    changes,
    index: {
      unitRow: Int32Array.from(units, (u) => u.row),
      unitFirst: Int32Array.from(units, (u) => u.firstEdit),
      unitCount: Int32Array.from(units, (u) => u.editCount),
      unitCluster: Int32Array.from(units, (u) => u.cluster),
      editRow: Int32Array.from(records, (r) => r.row),
    },
  };
}
