import type { CertificateEntry, WorkedPair } from '../report/schema.js';
import type { AttackRun } from './attack-run.js';
import type { Scorer } from './features.js';
import type { LatticePenalty } from './lattice.js';
import { editMargins, runIndex } from './scoring.js';

/**
 * The finite-set certificate: R_{j} rejects every audited edit that triggers detector j when
 * λ_j exceeds the largest base-reward gain among those edits. It covers only the edits audited.
 */
export function certify(
  runs: readonly AttackRun[],
  originalValues: Float64Array,
  base: Scorer,
  penalties: readonly LatticePenalty[],
  workedPair: (run: AttackRun, edit: number) => WorkedPair,
): CertificateEntry[] {
  const F = base.weights.length;
  const gains = runs.map((run) => editMargins(run, originalValues, base.weights));
  return penalties.map((p) => {
    let edits = 0;
    let best: { run: AttackRun; edit: number; gain: number } | undefined;
    runs.forEach((run, r) => {
      const { editRow } = runIndex(run);
      const runGains = gains[r]!;
      for (let e = 0; e < editRow.length; e++) {
        const before = originalValues[editRow[e]! * F + p.column]!;
        const after = run.editValues[e * F + p.column]!;
        if (before !== 0 || after !== 1) continue;
        edits++;
        const gain = runGains[e]!;
        if (best === undefined || gain > best.gain) best = { run, edit: e, gain };
      }
    });
    const found = best as { run: AttackRun; edit: number; gain: number } | undefined;
    return {
      detector: p.name,
      lambda: p.lambda,
      edits,
      maxGain: found?.gain ?? null,
      certified: found === undefined || p.lambda > found.gain,
      example: found === undefined ? null : workedPair(found.run, found.edit),
    };
  });
}
