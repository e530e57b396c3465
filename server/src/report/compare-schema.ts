import { z } from 'zod';

// The parts of the paired-comparison report about runs (seeds) per arm; docs/report.md describes them.

export const armSpread = z.object({
  values: z.array(z.number()).describe("each run's cluster-weighted mean, in the arm's run order"),
  sd: z.number().nullable().describe('sample standard deviation (n − 1) of the run values; null with one run: run-level variance is not estimated'),
  range: z.number().nullable().describe('largest − smallest run value; null with one run'),
});

export const cellRuns = z.object({ base: armSpread, treatment: armSpread }).describe('between-run spread of each arm next to the paired difference');

export const comparisonRuns = z.object({
  mode: z.enum(['one', 'logs']).describe("one: each arm is one run (its logs together); logs: each log an arm names is one run (the block's `runs logs`)"),
  base: z.array(z.string()).describe('the base arm\'s runs (log names)'),
  treatment: z.array(z.string()),
  varianceEstimated: z.boolean().describe('false unless both arms have at least two runs: intervals then resample runs too (hierarchical bootstrap)'),
  note: z.string().nullable().describe('why run-level variance is not estimated; null when it is'),
  droppedQuestions: z.number().int().describe('with several runs: question ids some run of either arm lacks, left out of every figure; 0 with one run per arm'),
});

export type ComparisonRuns = z.infer<typeof comparisonRuns>;
export type CellRuns = z.infer<typeof cellRuns>;
