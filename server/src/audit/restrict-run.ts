import { runIndex, type AttackRun, type AttackUnit } from '../edits/attack-run.js';
import { selectChanges } from '../edits/edit-changes.js';

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
  const changes = selectChanges(run.changes, editsKept);
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
