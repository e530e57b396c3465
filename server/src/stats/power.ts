import { zeroEventUpperBound } from './estimands.js';

// Power and sample size for a paired reduction of a rate, closed form (docs/report.md, "Power").
// Two-sided level 5% and power 80% are fixed: z₀.₉₇₅ + z₀.₈₀ = 1.95996 + 0.84162.

export const powerLevel = 0.05;
export const powerTarget = 0.8;
const zAlpha = 1.959963984540054;
const zPower = 0.8416212335729143;
export const zSum = zAlpha + zPower;

/** What the design is: questions (clusters), trajectories per question and arm, and the observed events. */
export interface PowerDesign {
  readonly questions: number;
  /** Trajectories per question and arm (samples × runs), the mean when they differ. */
  readonly perQuestion: number;
  readonly baseEvents: number;
  readonly baseRows: number;
  readonly treatmentEvents: number;
  readonly treatmentRows: number;
  /** The observed per-question paired differences, for the design effect; may be empty. */
  readonly differences: readonly number[];
}

export interface PowerFigures {
  /** The base rate p₀ the figures assume: observed, or with no base event the zero-event bound over the base rows. */
  readonly baseRate: number;
  readonly rateSource: 'observed' | 'zero-event bound';
  /** max(1, observed variance of the per-question differences ÷ the variance independent trajectories would give). */
  readonly designEffect: number;
  /** The smallest reduction (fraction) detected with 80% power at two-sided 5%; null when not even a reduction to zero is. */
  readonly detectable: number | null;
  /** Questions needed (at the same trajectories per question) to detect a reduction by `claim`; null when the claim exceeds p₀. */
  readonly questionsNeeded: number | null;
}

const bernoulli = (p: number): number => p * (1 - p);

function sampleVariance(xs: readonly number[]): number | undefined {
  if (xs.length < 2) return undefined;
  const mean = xs.reduce((s, x) => s + x, 0) / xs.length;
  return xs.reduce((s, x) => s + (x - mean) * (x - mean), 0) / (xs.length - 1);
}

/**
 * A reduction δ from the base rate p₀ to p₀ − δ, n questions with k trajectories per arm, design
 * effect D: δ is detected with 80% power when δ ≥ (z₀.₉₇₅ + z₀.₈₀)·√((p₀(1−p₀) + p₁(1−p₁))·D/(k·n)),
 * p₁ = p₀ − δ. The smallest such δ is the fixed point of that map (it decreases from the pooled
 * start, since p(1−p) falls with p below ½); when it is at least p₀ not even a reduction to zero is
 * detected, and it is null. The questions a claim c ≤ p₀ needs:
 * n_c = ⌈(z₀.₉₇₅ + z₀.₈₀)²·(p₀(1−p₀) + (p₀−c)(1−p₀+c))·D/(k·c²)⌉.
 */
export function reductionPower(design: PowerDesign, claim: number): PowerFigures | undefined {
  const { questions, perQuestion } = design;
  if (questions === 0 || perQuestion === 0 || design.baseRows === 0 || design.treatmentRows === 0) return undefined;
  const observed = design.baseEvents > 0;
  const p0 = observed ? design.baseEvents / design.baseRows : zeroEventUpperBound(design.baseRows);
  const treatmentRate = design.treatmentEvents / design.treatmentRows;
  const independent = (bernoulli(p0) + bernoulli(treatmentRate)) / perQuestion;
  const variance = design.baseEvents + design.treatmentEvents > 0 ? sampleVariance(design.differences) : undefined;
  const designEffect = variance === undefined || independent === 0 ? 1 : Math.max(1, variance / independent);
  const spread = (p1: number): number => zSum * Math.sqrt(((bernoulli(p0) + bernoulli(Math.max(0, p1))) * designEffect) / (perQuestion * questions));
  let delta = spread(p0);
  for (let i = 0; i < 100; i++) {
    const next = spread(p0 - delta);
    if (Math.abs(next - delta) < 1e-12) break;
    delta = next;
  }
  return {
    baseRate: p0, rateSource: observed ? 'observed' : 'zero-event bound', designEffect,
    detectable: delta < p0 ? delta : null,
    questionsNeeded: claim > 0 && claim <= p0 ? Math.ceil((zSum * zSum * (bernoulli(p0) + bernoulli(p0 - claim)) * designEffect) / (perQuestion * claim * claim)) : null,
  };
}
