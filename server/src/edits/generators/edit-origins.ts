// Which generator produced each laundering edit, kept beside the merged candidate lists so the
// certificate can be stated per generator (audit/generator-certificate.ts). Keyed by the edit's
// record, which restricted runs (audit/restrict-run.ts) share with the full run.
import type { AttackRun, EditRecord } from '../attack-run.js';
import type { CandidateSource } from '../prepare.js';
import type { Trajectory } from '../../pool/types.js';

/**
 * The generators (bit g: plan.generators[g]) behind every edit of the launder attacks that merge
 * several generators; an attack with one generator needs no map (every edit is its generator's).
 */
export function editOrigins(runs: readonly AttackRun[], source: CandidateSource, rows: readonly Trajectory[], exclusionsOf: (row: number) => ReadonlySet<string>): Map<EditRecord, number> {
  const origins = new Map<EditRecord, number>();
  if (source.origins === undefined) return origins;
  for (const run of runs) {
    if (run.plan.kind !== 'launder' || run.plan.generators.length < 2) continue;
    // Edits of one row and position are contiguous: ask once per (row, position).
    let at: { row: number; position: number; ids: ReadonlyMap<string, number> } | undefined;
    for (const record of run.editRecords) {
      if (record.position === undefined || record.replacement === undefined) continue;
      if (at?.row !== record.row || at.position !== record.position) {
        at = { row: record.row, position: record.position, ids: source.origins(run.plan, rows[record.row]!, record.position, exclusionsOf(record.row)) };
      }
      origins.set(record, at.ids.get(record.replacement) ?? 0);
    }
  }
  return origins;
}
