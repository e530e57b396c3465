import { LRUCache } from 'lru-cache';
import { bootstrapMemo, type BootstrapMemo } from '../stats/bootstrap.js';
import type { Selection } from './attack-plan.js';
import type { PoolProfile } from '../pool/profile.js';
import type { Trajectory } from '../pool/types.js';
import type { AttackRun } from './attack-run.js';
import type { RateEstimate } from '../stats/estimands.js';

// The memo is made with the prepared edits (`PreparedEdits.memo`), so it and the values it keeps
// live with the edit engine; scoring/scoring.ts computes them.

/**
 * Paired margins M(τ) = R(A(τ)) − R(τ) of every isolated-eligible edit of a run under one scorer:
 * a margin per distinct change vector and each edit's vector (edits/edit-changes.ts), so no array
 * holds a margin per edit. `at(e)` is edit e's margin.
 */
export class EditMargins {
  constructor(
    readonly byVector: Float64Array,
    readonly vectorOf: Int32Array,
  ) {}

  at(edit: number): number {
    return this.byVector[this.vectorOf[edit]!]!;
  }
}

/** What a selection picks under one set of margins: an edit per unit, in unit order, and its margin. */
export interface Selected {
  readonly edits: Int32Array;
  readonly margins: Float64Array;
  /** Its estimates, by resamples and seed (`estimateSelection`). */
  readonly estimates: Map<string, RateEstimate>;
}

/**
 * Each unit's distinct change vectors, each with the unit's first edit that has it, in edit order:
 * unit u's pairs are [unitStart[u], unitStart[u + 1]). Weight-free, so made once per run; an
 * oracle-worst selection then compares a unit's few vectors instead of its every edit.
 */
export interface UnitVectors {
  readonly unitStart: Int32Array;
  readonly vector: Int32Array;
  readonly firstEdit: Int32Array;
}

/**
 * What scoring one prepared edits remembers from one scoring to the next: made with the prepared
 * edits and dropped with them, so a weight edit re-scores without redoing what an earlier scoring
 * did. Every part is bounded; a hit is always the same computation, so results never depend on it.
 */
export interface ScoringMemo {
  /**
   * Margins by run and weight vector (`marginsKey`), the most recently used first kept, up to
   * `marginBytes` in all, counting the selections each keeps alive (`editMargins` sizes them). The
   * attack table, the lattice, the sweep, the per-pool table, cancellation, the certificate and the
   * histograms ask for margins under the same few weight vectors (a sweep point at scale 0 is the
   * audited reward, a repair is a lattice subset); a weight edit makes new ones and the old ones age
   * out.
   */
  readonly margins: LRUCache<string, EditMargins>;
  /** A number per run, for the keys of `margins`. */
  readonly runKey: (run: AttackRun) => number;
  /** What each selection picks under each margins; it goes when its margins go. */
  readonly selections: WeakMap<EditMargins, Partial<Record<Selection, Selected>>>;
  /**
   * Per run and detector column, the edits that trigger the detector (flip it 0 → 1): they read no
   * weights, and the certificates ask for them under every weight edit (audit/certificate.ts).
   */
  readonly triggering: WeakMap<AttackRun, Map<number, Int32Array>>;
  /** Per run, each unit's distinct change vectors (weight-free; `selected` reads them). */
  readonly unitVectors: WeakMap<AttackRun, UnitVectors>;
  /** Per pool's rows, what the report says of them (questions, profile): weight-free, and as long as the rows. */
  readonly pools: WeakMap<readonly Trajectory[], PoolSummary>;
  readonly bootstrap: BootstrapMemo;
}

/** What a report says of one pool's rows, whatever the weights. */
export interface PoolSummary {
  readonly questions: number;
  readonly profile: PoolProfile;
}

/**
 * What the margins memo holds at most. An entry is a margin per change vector (bytes) and the
 * selections it keeps alive (an edit index and a margin per unit and selection: 2 MB at 200,000 rows), so a
 * 200,000-row audit keeps about thirty weight vectors, more than a scoring pass asks for; past that,
 * margins are computed again (a sum per change vector), giving the same doubles.
 */
export const marginBytes = 64 * 1024 * 1024;

export function scoringMemo(maxMarginBytes = marginBytes): ScoringMemo {
  const runKeys = new WeakMap<AttackRun, number>();
  let runs = 0;
  return {
    runKey: (run) => {
      let key = runKeys.get(run);
      if (key === undefined) runKeys.set(run, (key = runs++));
      return key;
    },
    margins: new LRUCache({ maxSize: maxMarginBytes }),
    selections: new WeakMap(),
    triggering: new WeakMap(),
    unitVectors: new WeakMap(),
    pools: new WeakMap(),
    bootstrap: bootstrapMemo(),
  };
}

/** The key of a run's margins under `weights`: every double spelled in full (String round-trips), so equal keys are equal weights. */
export function marginsKey(memo: ScoringMemo, run: AttackRun, weights: Float64Array): string {
  return `${memo.runKey(run)}:${Array.from(weights, String).join(',')}`;
}
