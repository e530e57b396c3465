/** How a GRPO-style update turns a group's rewards into advantages. */
export type Normalization = 'std' | 'mean';

/**
 * Group-normalised advantages: A_i = (r_i − r̄_g), divided by the group's standard deviation for
 * `std`. The deviation is the sample one (n − 1, as torch.std computes it); a group whose rewards
 * are all equal, or a group of one, gets zero advantages. Implementations add a small ε to the
 * divisor instead; leaving it out keeps "exactly cancelled" exact.
 */
export function groupAdvantages(rewards: readonly number[], normalization: Normalization): number[] {
  const n = rewards.length;
  if (n === 0) return [];
  let sum = 0;
  for (const r of rewards) sum += r;
  const mean = sum / n;
  const centred = rewards.map((r) => r - mean);
  if (normalization === 'mean') return centred;
  if (n < 2) return centred.map(() => 0);
  let squares = 0;
  for (const c of centred) squares += c * c;
  const std = Math.sqrt(squares / (n - 1));
  return std <= spreadTolerance * (1 + Math.abs(mean)) ? centred.map(() => 0) : centred.map((c) => c / std);
}

/** Rewards that differ by less than this (relative) are equal: float sums of the same terms wobble. */
export const spreadTolerance = 1e-12;

/** Advantages that differ by at most this much are the same update: the detector was cancelled. */
export const advantageTolerance = 1e-9;

/** The largest |A_i − B_i|. */
export function largestShift(a: readonly number[], b: readonly number[]): number {
  let largest = 0;
  for (let i = 0; i < a.length; i++) largest = Math.max(largest, Math.abs(a[i]! - b[i]!));
  return largest;
}
