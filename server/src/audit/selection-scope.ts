import type { AttackRun } from '../edits/attack-run.js';
import type { Scorer } from '../edits/features.js';
import type { PreparedEdits } from '../edits/prepare.js';
import type { PoolSelection } from '../semantics/audit-options.js';
import { selectRows, selectionText, selectionVisibility, type SelectedRows } from './pool-selection.js';
import { restrictRun } from './restrict-run.js';

/** The attack runs an audit's figures are over: its pool selection, then (with `clusters common`) the common cluster set. */
export interface ScopedRuns {
  readonly runs: readonly AttackRun[];
  /** Undefined under `all`, which keeps every row. */
  readonly selected: SelectedRows | undefined;
  /** With `clusters common`: how many clusters every attack has an isolated-eligible unit in. */
  readonly commonClusters: number | undefined;
}

/** The clusters in which every run has at least one isolated-eligible unit. */
export function commonClusterSet(runs: readonly AttackRun[]): Set<number> {
  const [first, ...rest] = runs;
  const common = new Set(first?.index.unitCluster ?? []);
  for (const run of rest) {
    const own = new Set(run.index.unitCluster);
    for (const cluster of common) if (!own.has(cluster)) common.delete(cluster);
  }
  return common;
}

export function scopedRuns(prepared: PreparedEdits, selection: PoolSelection, common: boolean, scorers: readonly Scorer[]): ScopedRuns {
  const selected = selection.rule === 'all' ? undefined : selectRows(prepared, selection, scorers);
  const keep = selected?.keep;
  let runs = keep === undefined ? prepared.runs : prepared.runs.map((run) => restrictRun(run, (row) => keep[row] === 1));
  if (!common) return { runs, selected, commonClusters: undefined };
  const clusters = commonClusterSet(runs);
  runs = runs.map((run) => restrictRun(run, (_row, cluster) => clusters.has(cluster)));
  return { runs, selected, commonClusters: clusters.size };
}

/** The report's words for a selection's rows. */
export function selectedRowsReport(selection: PoolSelection, selected: SelectedRows, scorers: readonly Scorer[]) {
  return {
    selection: selectionText(selection), visibility: selectionVisibility(selection, scorers),
    groups: selected.groups, rows: selected.rows, unselected: selected.unselected,
  };
}
