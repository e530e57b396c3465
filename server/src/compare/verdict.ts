import { zeroEventUpperBound } from '../stats/estimands.js';
import type { ComparisonCell } from '../report/training-schema.js';

/** Below this many events in the two arms together a rate difference is a rare-event result. */
export const rareEvents = 10;

export type Verdict = ComparisonCell['verdict'];

export interface VerdictInput {
  readonly better: 'higher' | 'lower';
  readonly rate: boolean;
  /** Null when nothing was paired: no verdict can be read from it. */
  readonly low: number | null;
  readonly high: number | null;
  /** Trajectories with the event in each arm (rates only). */
  readonly baseEvents: number;
  readonly treatmentEvents: number;
  readonly clusters: number;
  /** The smallest change a claim would state, as a fraction (1 point = 0.01). */
  readonly claim: number;
}

/**
 * A rate difference rests on rare events when the two arms have fewer than `rareEvents` events
 * together, or when one arm has none and its exact zero-event bound 1 − 0.05^(1/n) is larger than
 * the claimed effect (that arm's rate is not resolved finely enough to back the claim).
 */
export function isRare(input: Pick<VerdictInput, 'baseEvents' | 'treatmentEvents' | 'clusters' | 'claim'>): boolean {
  if (input.baseEvents + input.treatmentEvents < rareEvents) return true;
  return Math.min(input.baseEvents, input.treatmentEvents) === 0 && zeroEventUpperBound(input.clusters) > input.claim;
}

/**
 * What an interval allows one to say. An interval on the better side of zero improves, on the worse
 * side worsens. A rare-event rate whose interval includes no change "blocks a reduction claim": the
 * data show no reduction but cannot establish equal rates either. Only a rate with enough events
 * whose interval lies within ±claim is "within claim"; anything else is inconclusive.
 */
export function verdictOf(input: VerdictInput): Verdict {
  if (input.low === null || input.high === null) return 'inconclusive';
  const sign = input.better === 'higher' ? 1 : -1;
  const low = sign > 0 ? input.low : -input.high;
  const high = sign > 0 ? input.high : -input.low;
  if (low > 0) return 'improves';
  if (high < 0) return 'worsens';
  if (!input.rate) return 'inconclusive';
  if (isRare(input)) return 'blocks a reduction claim';
  return input.low >= -input.claim && input.high <= input.claim ? 'within claim' : 'inconclusive';
}
