import { z } from 'zod';

// The shape of a spec's baseline: the accepted figures of its audits, committed beside it as
// `<spec>.baseline.json` (written by `herald audit --update-baseline`).

// asr and upper are null when the attack had no isolated-eligible cluster (undefined, never 0).
export const baselineFigure = z.object({ asr: z.number().nullable(), upper: z.number().nullable(), clusters: z.number().int() });
export const baselineSchema = z.object({
  version: z.literal(1),
  audits: z.record(
    z.string(),
    z.object({
      /** Each reward's own terms and weights, so a regression can point at what changed. */
      weights: z.record(z.string(), z.record(z.string(), z.number())),
      /** Keyed `attack / reward / selection`. */
      figures: z.record(z.string(), baselineFigure),
    }),
  ),
});
export type Baseline = z.infer<typeof baselineSchema>;
export type BaselineFigure = z.infer<typeof baselineFigure>;

