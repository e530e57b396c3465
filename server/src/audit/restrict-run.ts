import { runIndex, type AttackRun, type AttackUnit } from '../edits/attack-run.js';

/**
 * The same attack run over fewer originals: the units whose row `keep` marks (a pool selection) and,
 * given `clusters`, whose question cluster it marks (the common cluster set). Every estimate, margin
 * and selected edit is then computed by the one scoring path over the smaller run.
 * `edits` keeps the whole run's counts (constructible and eligible are not known per row): the
 * estimates' own `clusters` and `rows` say how many originals a restricted figure is over.
 */
export function restrictRun(run: AttackRun, keep: (row: number, cluster: number) => boolean): AttackRun {
  const { unitRow, unitCluster, unitFirst, unitCount } = run.index;
  const units: AttackUnit[] = [];
  const editsKept: number[] = [];
  for (let u = 0; u < unitRow.length; u++) {
    if (!keep(unitRow[u]!, unitCluster[u]!)) continue;
    units.push({ row: unitRow[u]!, cluster: unitCluster[u]!, firstEdit: editsKept.length, editCount: unitCount[u]! });
    for (let e = unitFirst[u]!; e < unitFirst[u]! + unitCount[u]!; e++) editsKept.push(e);
  }
  if (units.length === run.units.length) return run;
  // The column of zeros that features the attack cannot change share stays one column.
  const restricted = new Map<Float64Array, Float64Array>();
  const changes = run.changes.map((column) => {
    let kept = restricted.get(column);
    if (kept === undefined) restricted.set(column, (kept = Float64Array.from(editsKept, (e) => column[e]!)));
    return kept;
  });
  return {
    plan: run.plan,
    oracle: run.oracle,
    edits: run.edits,
    units,
    changes,
    index: runIndex(units, {
      editRow: Int32Array.from(editsKept, (e) => run.index.editRow[e]!),
      editPosition: Int32Array.from(editsKept, (e) => run.index.editPosition[e]!),
      editReplacement: editsKept.map((e) => run.index.editReplacement[e]),
      ...(run.index.editOrigins === undefined ? {} : { editOrigins: Int32Array.from(editsKept, (e) => run.index.editOrigins![e]!) }),
    }),
  };
}
