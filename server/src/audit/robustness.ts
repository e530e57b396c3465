import type { Scorer } from '../edits/features.js';
import type { PreparedEdits } from '../edits/prepare.js';
import { scoreAttack, selectionLabel } from '../scoring/scoring.js';
import type { RobustnessEntry } from '../report/selection-schema.js';
import type { PoolSelection } from '../semantics/audit-options.js';
import type { EstimateOptions } from '../stats/estimands.js';
import { selectRows } from './pool-selection.js';
import { scopedRuns, selectedRowsReport } from './selection-scope.js';

/**
 * The pool-selection robustness table: every attack rerun under each selection, scored by the
 * audit's one scoring path (scoreAttack) over the selection's rows. A figure is an oracle upper
 * bound when its pool selection or its edit selection reads gold.
 */
export function robustnessTable(
  prepared: PreparedEdits, selections: readonly PoolSelection[], common: boolean, scorers: readonly Scorer[], estimates: EstimateOptions,
): RobustnessEntry[] {
  return selections.map((selection) => {
    const scoped = scopedRuns(prepared, selection, common, scorers);
    // `all` keeps every row; its groups are still counted, so each table row says what it picked from.
    const rows = selectedRowsReport(selection, scoped.selected ?? selectRows(prepared, selection, scorers), scorers);
    const oracleRows = rows.visibility === 'oracle';
    return {
      ...rows,
      commonClusters: scoped.commonClusters ?? null,
      results: scoped.runs.flatMap((run) => scorers.flatMap((scorer) =>
        scoreAttack(run, scorer, estimates, prepared.memo).map((r) => ({
          attack: run.plan.name, reward: scorer.name, selection: r.selection,
          label: oracleRows ? ('oracle upper bound' as const) : selectionLabel(r.selection, scorer, run), estimate: r.estimate,
        })))),
    };
  });
}
