import { z } from 'zod';

// The parts of the paired-comparison report about runs (seeds) per arm; docs/report.md describes them.

export const armSpread = z.object({
  values: z.array(z.number()).describe("each run's cluster-weighted mean, in the arm's run order"),
  sd: z.number().nullable().describe('sample standard deviation (n − 1) of the run values; null with one run: run-level variance is not estimated'),
  range: z.number().nullable().describe('largest − smallest run value; null with one run'),
});

export const cellRuns = z.object({ base: armSpread, treatment: armSpread }).describe('between-run spread of each arm next to the paired difference');

export const cellPower = z.object({
  questions: z.number().int().describe('question clusters of the cell (n)'),
  perQuestion: z.number().describe('trajectories per question and arm (k: samples × runs; the mean when they differ)'),
  baseRate: z.number().describe("the base rate assumed (p₀): the base arm's observed rate, or with no base event the zero-event bound 1 − 0.05^(1/base rows)"),
  rateSource: z.enum(['observed', 'zero-event bound']),
  designEffect: z.number().describe('D = max(1, observed variance of the per-question differences ÷ (p_b(1−p_b) + p_t(1−p_t))/k); 1 without events'),
  level: z.number().describe('two-sided test level (0.05)'),
  power: z.number().describe('target power (0.8)'),
  detectable: z.number().nullable().describe('the smallest reduction from p₀, as a fraction, detected at that level and power: the fixed point of δ = (z₀.₉₇₅ + z₀.₈₀)·√((p₀(1−p₀) + p₁(1−p₁))·D/(k·n)), p₁ = p₀ − δ; null when not even a reduction to zero is'),
  claim: z.number().describe("the claim, as a fraction (the block's claim in points ÷ 100)"),
  questionsNeeded: z.number().int().nullable().describe('questions (at k trajectories each) to detect a reduction by the claim: ⌈(z₀.₉₇₅ + z₀.₈₀)²·(p₀(1−p₀) + p₁(1−p₁))·D/(k·claim²)⌉, p₁ = p₀ − claim; null when the claim exceeds p₀'),
  underpowered: z.boolean().describe('detectable is null or above the claim: this design cannot back a reduction claim of that size'),
}).nullable().describe('rates only (null for other metrics and for a cell without pairs): power and sample size of a reduction, closed form (docs/report.md)');

export const comparisonRuns = z.object({
  mode: z.enum(['one', 'logs']).describe("one: each arm is one run (its logs together); logs: each log an arm names is one run (the block's `runs logs`)"),
  base: z.array(z.string()).describe('the base arm\'s runs (log names)'),
  treatment: z.array(z.string()),
  varianceEstimated: z.boolean().describe('false unless both arms have at least two runs: intervals then resample runs too (hierarchical bootstrap)'),
  note: z.string().nullable().describe('why run-level variance is not estimated; null when it is'),
  droppedQuestions: z.number().int().describe('with several runs: question ids some run of either arm lacks, left out of every figure; 0 with one run per arm'),
});

export const comparisonMatching = z.object({
  baseOnlyQuestions: z.number().int().describe('question ids only the base arm evaluated'),
  treatmentOnlyQuestions: z.number().int(),
  sampleMismatches: z.number().int().describe('shared questions whose sample sets (meta.sample) differ between the arms, or between runs'),
  duplicateSamples: z.number().int().describe('shared questions where one run holds the same meta.sample twice (pairing would pick one silently)'),
  tokenBudget: z.object({ base: z.array(z.string()), treatment: z.array(z.string()) }).nullable().describe('the distinct logged meta.token_budget values of each arm; null when no row logs one'),
  matched: z.boolean().describe('none of the above differ (and each arm logs one token budget, the same, when any is logged); false is the comparison-unmatched finding'),
  examples: z.array(z.string()).describe('up to 3 question ids of the mismatches, in the order above'),
}).describe('whether the arms are matched: computed over all rows, before any greedy split');

export type ComparisonMatching = z.infer<typeof comparisonMatching>;
export type ComparisonRuns = z.infer<typeof comparisonRuns>;
export type CellRuns = z.infer<typeof cellRuns>;
export type CellPower = z.infer<typeof cellPower>;
