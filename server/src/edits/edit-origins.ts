// Which generator produced each laundering edit, kept beside the merged candidate lists so the
// certificate can be stated per generator (audit/generator-certificate.ts). Kept per edit in the
// run's index (RunIndex.editOrigins), which restricted runs (audit/restrict-run.ts) restrict too.
import type { RunPart } from './attack-run.js';
import { replacementAt } from './replacement-ids.js';
import type { AttackPlan } from './attack-plan.js';
import type { CandidateSource } from './prepare.js';
import type { Trajectory } from '../pool/types.js';

/**
 * The generators (bit g: plan.generators[g]) behind every edit of one attack's part (−1 for an edit
 * that puts no passage in); undefined when the attack is not a launder merging several generators
 * (each edit is then its one generator's).
 */
export function partOrigins(plan: AttackPlan, part: RunPart, source: CandidateSource, rows: readonly Trajectory[], exclusionsOf: (row: number) => ReadonlySet<string>): Int32Array | undefined {
  if (source.origins === undefined || plan.kind !== 'launder' || plan.generators.length < 2) return undefined;
  const origins = new Int32Array(part.editRow.length).fill(-1);
  // Edits of one row and position are contiguous: ask once per (row, position).
  let at: { row: number; position: number; ids: ReadonlyMap<string, number> } | undefined;
  for (let e = 0; e < origins.length; e++) {
    const row = part.editRow[e]!;
    const position = part.editPosition[e]!;
    const replacement = replacementAt(part.editReplacement, e);
    if (position < 0 || replacement === undefined) continue;
    if (at?.row !== row || at.position !== position) at = { row, position, ids: source.origins(plan, rows[row]!, position, exclusionsOf(row)) };
    origins[e] = at.ids.get(replacement) ?? 0;
  }
  return origins;
}
