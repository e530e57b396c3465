// `conforms A to B within TOL` (docs/language.md, "Conformance"): A reproduces B on every original
// row of the audit's pools, |A(τ) − B(τ)| ≤ TOL (a boolean is 0 or 1). Both sides are features
// `value:NAME` evaluated on the originals (edits/attack-plan.ts, `values`). A line that does not
// hold marks every figure of each scored reward that is A, derives from A or weighs A in a term:
// those figures are not the figures of the reward the trainer ran.
import type { PreparedEdits } from '../edits/prepare.js';
import type { CompiledReward } from '../reward/compile.js';
import type { LineIndex } from '../problems/line-index.js';
import type { ConformanceReport } from '../report/schema.js';
import type { ConformancePlan } from './plan.js';

/** Rows a conformance report lists, first by row order; the rest are counted. */
export const listedConformanceRows = 10;

/** The file a row is in, as reports name it: its own within a glob pool, else its pool's. */
function rowFile(prepared: PreparedEdits, row: number): string {
  const source = prepared.rows[row]!.source;
  const pool = prepared.inputs.pools.find((p) => p.name === source.pool);
  return pool?.rowFiles?.get(source.file) ?? pool?.file ?? source.file;
}

/** Whether a scored reward's figures depend on `subject`: it is the reward, derives from it, or has a term that weighs it. */
export function rewardReads(reward: CompiledReward, subject: string): boolean {
  return reward.name === subject || reward.terms.some((t) => t.declaredIn === subject || t.key === `decl:${subject}` || t.commands.includes(subject));
}

export function conformanceReports(plan: readonly ConformancePlan[], prepared: PreparedEdits, rewards: readonly CompiledReward[], lines: LineIndex): ConformanceReport[] {
  const { table, originalValues, rows } = prepared;
  const F = table.keys.length;
  return plan.map((line): ConformanceReport => {
    const a = table.index.get(`value:${line.subject}`)!;
    const b = table.index.get(`value:${line.reference}`)!;
    let differing = 0;
    let largest: { difference: number; row: number } | undefined;
    const first: ConformanceReport['first'] = [];
    for (let r = 0; r < rows.length; r++) {
      const subject = originalValues[r * F + a]!;
      const reference = originalValues[r * F + b]!;
      const difference = Math.abs(subject - reference);
      if (!(difference > line.tolerance)) continue;
      differing++;
      if (largest === undefined || difference > largest.difference) largest = { difference, row: r };
      if (first.length < listedConformanceRows) first.push({ trajectory: rows[r]!.id, file: rowFile(prepared, r), line: rows[r]!.source.line, subject, reference });
    }
    const holds = differing === 0;
    return {
      text: line.text, range: lines.range(line.span), subject: line.subject, reference: line.reference, tolerance: line.tolerance,
      rows: rows.length, differing, holds,
      largest: largest === undefined ? null : { difference: largest.difference, trajectory: rows[largest.row]!.id, file: rowFile(prepared, largest.row), line: rows[largest.row]!.source.line },
      first,
      marks: holds ? [] : rewards.filter((r) => rewardReads(r, line.subject)).map((r) => r.name),
    };
  });
}

/** The failing conformance lines whose subject the reward's figures depend on: what its figures are marked with. */
export function notConformingOf(reports: readonly ConformanceReport[], reward: string): string[] {
  return reports.filter((c) => c.marks.includes(reward)).map((c) => c.text);
}
