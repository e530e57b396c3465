import { LRUCache } from 'lru-cache';
import type { EvalEnv } from '../language/eval-env.js';
import type { TrajectoryView } from '../language/view.js';
import { bootstrapMemo, type BootstrapMemo } from '../stats/bootstrap.js';
import type { Selection } from './attack-plan.js';
import type { AttackRun } from './attack-run.js';

/** A value of one original that reads no weights, such as a side statistic's input. */
export type OriginalFunction = (view: TrajectoryView, env: EvalEnv) => number;

/**
 * What scoring one prepared edits remembers from one scoring to the next: made with the prepared
 * edits and dropped with them, so a weight edit re-scores without redoing what an earlier scoring
 * did. Every part is bounded; a hit is always the same computation, so results never depend on it.
 */
export interface ScoringMemo {
  /**
   * Margins by run and weight vector (`marginsKey`), the most recently used first kept, up to
   * `marginBytes` in all. The attack table, the lattice, the sweep, the per-pool table,
   * cancellation, the certificate and the histograms ask for margins under the same few weight
   * vectors (a sweep point at scale 0 is the audited reward, a repair is a lattice subset); a weight
   * edit makes new ones and the old ones age out. Bounded in bytes, not in arrays: an array holds a
   * margin per edit, so a bound in arrays grew with the edits.
   */
  readonly margins: LRUCache<string, Float64Array>;
  /** A number per run, for the keys of `margins`. */
  readonly runKey: (run: AttackRun) => number;
  /** The selected edits of each margins array, by selection; they go when their margins go. */
  readonly selections: WeakMap<Float64Array, Partial<Record<Selection, Int32Array>>>;
  /**
   * Per run and detector column, the edits that trigger the detector (flip it 0 → 1): they read no
   * weights, and the certificates ask for them under every weight edit (audit/certificate.ts).
   */
  readonly triggering: WeakMap<AttackRun, Map<number, Int32Array>>;
  /** Columns over the originals by the function that computes them (see `originalColumn`). */
  readonly originalColumns: LRUCache<OriginalFunction, Float64Array>;
  readonly bootstrap: BootstrapMemo;
}

/**
 * What the margins memo holds at most: a paper-sized audit keeps every array it makes, and a
 * 58,368-row one the few dozen of a scoring pass; past that, margins are computed again (one pass
 * over the changes columns, tens of milliseconds a million edits), giving the same doubles.
 */
export const marginBytes = 64 * 1024 * 1024;
// Analyses ask for a handful of columns; the bound only matters if one passed fresh functions.
const originalColumnsKept = 32;

export function scoringMemo(maxMarginBytes = marginBytes): ScoringMemo {
  const runKeys = new WeakMap<AttackRun, number>();
  let runs = 0;
  return {
    runKey: (run) => {
      let key = runKeys.get(run);
      if (key === undefined) runKeys.set(run, (key = runs++));
      return key;
    },
    margins: new LRUCache({ maxSize: maxMarginBytes, sizeCalculation: (margins) => Math.max(1, margins.byteLength) }),
    selections: new WeakMap(),
    triggering: new WeakMap(),
    originalColumns: new LRUCache({ max: originalColumnsKept }),
    bootstrap: bootstrapMemo(),
  };
}

/** The key of a run's margins under `weights`: every double spelled in full (String round-trips), so equal keys are equal weights. */
export function marginsKey(memo: ScoringMemo, run: AttackRun, weights: Float64Array): string {
  return `${memo.runKey(run)}:${Array.from(weights, String).join(',')}`;
}

/**
 * `of` evaluated on every original, once per memo: pass a function defined once (at module level),
 * since the function itself is the key.
 */
export function originalColumn(memo: ScoringMemo, views: readonly TrajectoryView[], env: EvalEnv, of: OriginalFunction): Float64Array {
  let column = memo.originalColumns.get(of);
  if (column === undefined) memo.originalColumns.set(of, (column = Float64Array.from(views, (view) => of(view, env))));
  return column;
}
