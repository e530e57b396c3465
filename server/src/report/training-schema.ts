import { z } from 'zod';
import { cellPower, cellRuns, comparisonMatching, comparisonRuns } from './compare-schema.js';
import { missingFields, poolImport, poolResolution, rowIssue, specRange, undefinedWhenEmpty, visibility } from './schema-parts.js';

// The training-signal (`herald signal`) and paired-comparison (`herald compare`) sections of the
// report; docs/report.md describes them.

export const logReport = z.object({
  name: z.string(),
  file: z.string().describe('as the spec links it, or as given on the command line'),
  rows: z.number().int(),
  skipped: z.number().int(),
  issues: z.array(rowIssue),
  resolution: poolResolution.optional(),
  import: poolImport.optional(),
  missingFields: missingFields.optional(),
});

const groupExample = z.object({
  group: z.string().describe('meta.group'),
  step: z.number().nullable().describe('meta.step; null when the rows name none'),
  size: z.number().int(),
  firing: z.number().int().describe('samples of the group on which the detector fires'),
  shift: z.number().describe('max_i |A_i(R) − A_i(R + λ·f)|: how far the penalty moves the advantages'),
});

const signalDetector = z.object({
  name: z.string(),
  lambda: z.number().describe('the penalty: the reward has the term −λ·f'),
  firingRows: z.number().int(),
  firingGroups: z.number().int(),
  mixedGroups: z.number().int().describe('groups where it fires on some samples but not all'),
  allFiringGroups: z.number().int().describe('groups where it fires on every sample: the group mean absorbs the penalty'),
  changedGroups: z.number().int().describe('firing groups whose normalised advantages differ with and without the penalty (by more than 1e-9): the groups through which it reaches the optimizer'),
  cancelledGroups: z.number().int().describe('firing groups whose normalised advantages are the same with and without it (exactly cancelled)'),
  largestShift: z.number().describe('the largest advantage shift over the changed groups'),
  reachesOptimizer: z.boolean().describe('changedGroups ≥ minGroups'),
  changedExample: groupExample.nullable(),
  cancelledExample: groupExample.nullable(),
});

const stepExposure = z.object({
  step: z.number(),
  rows: z.number().int(),
  groups: z.number().int(),
  detectors: z.array(z.object({ name: z.string(), firingRows: z.number().int(), firingGroups: z.number().int(), changedGroups: z.number().int() })),
});

export const signalReport = z.object({
  name: z.string(),
  range: specRange.nullable().describe("the training block's name in the spec; null when the command line described the analysis"),
  reward: z.object({ name: z.string(), visibility }),
  normalization: z.enum(['std', 'mean']).describe('std: A_i = (r_i − r̄_g)/s_g (sample deviation; zero when s_g = 0); mean: A_i = r_i − r̄_g'),
  minGroups: z.number().int(),
  logs: z.array(logReport),
  rows: z.number().int(),
  groups: z.number().int().describe('distinct meta.group values; a row without one is a group of its own'),
  ungroupedRows: z.number().int(),
  flatGroups: z.number().int().describe('groups whose advantages are all zero under the full reward (no gradient at all)'),
  detectors: z.array(signalDetector).describe("one entry per detector term of the reward"),
  steps: z.array(stepExposure).describe('per meta.step, ascending: the exposure curve'),
});

const comparisonCell = z.object({
  benchmark: z.string().describe("meta.benchmark (else the log's name); 'equal-suite' averages the benchmarks, resampling questions within each"),
  clusters: z.number().int().describe('question ids with at least one pair'),
  pairs: z.number().int(),
  base: z.number().nullable().describe(`cluster-weighted mean in the base arm; ${undefinedWhenEmpty}`),
  treatment: z.number().nullable(),
  difference: z.number().nullable().describe(`treatment − base, cluster-weighted; ${undefinedWhenEmpty}`),
  interval: z.object({
    low: z.number().nullable(),
    high: z.number().nullable(),
    method: z.enum(['bootstrap', 'exact-zero', 'none', 'hierarchical-bootstrap']).describe('bootstrap: 95% percentile interval over question clusters; hierarchical-bootstrap: several runs per arm, runs resampled within each arm then questions (docs/report.md); exact-zero: no event in either arm, ±(1 − 0.05^(1/n)); none: no pair, both ends null'),
  }),
  runs: cellRuns,
  baseEvents: z.number().int().nullable().describe('for rates: rows with the event in the base arm'),
  treatmentEvents: z.number().int().nullable(),
  verdict: z.enum(['improves', 'worsens', 'within claim', 'inconclusive', 'blocks a reduction claim']).describe(
    "'blocks a reduction claim': a rare event whose interval includes no change; the data neither show a reduction nor establish equal rates",
  ),
  power: cellPower,
});

const comparisonMetric = z.object({
  key: z.string().describe('em, f1, citation_precision, support_recall, unsupported_citation, incidence:D, attackability:A (first-visible), attackability_oracle_worst:A'),
  label: z.string(),
  better: z.enum(['higher', 'lower']),
  rate: z.boolean().describe('a 0/1 event per trajectory (rare-event rules apply)'),
  visibility: visibility.describe('oracle when it reads gold'),
  cells: z.array(comparisonCell),
});

/** What a comparison reports over some rows of both arms: all of them, or a split's. */
const comparisonBody = z.object({
  pairs: z.number().int().describe('rows paired by (question_id, meta.sample); with several runs per arm, the base rows used'),
  runs: comparisonRuns,
  unpairedBase: z.number().int(),
  unpairedTreatment: z.number().int(),
  benchmarks: z.array(z.string()),
  metrics: z.array(comparisonMetric),
  nonInferiority: z.object({
    margin: z.number().describe('points: the paired lower bound of the EM difference must exceed −margin on each benchmark'),
    benchmarks: z.array(z.object({ benchmark: z.string(), lower: z.number().nullable().describe('null without pairs (the gate then fails)'), passed: z.boolean() })),
    passed: z.boolean(),
  }),
});

export const comparisonReport = z.object({
  name: z.string(),
  range: specRange.nullable(),
  scorer: z.object({ name: z.string(), visibility }).describe('the fixed reward that scores the targeted attacks in both arms'),
  base: z.array(logReport),
  treatment: z.array(logReport),
  ...comparisonBody.shape,
  matching: comparisonMatching,
  splits: z.array(comparisonBody.extend({ split: z.enum(['greedy', 'sampled']) })).nullable().describe("with `greedy`: the same figures over the greedy rows, then the sampled ones (the top level holds all rows together); null without `greedy`"),
  settings: z.object({ seed: z.number(), bootstrap: z.number().int(), margin: z.number(), claim: z.number().describe('points') }),
});

export type SignalReport = z.infer<typeof signalReport>;
export type ComparisonReport = z.infer<typeof comparisonReport>;
export type ComparisonBody = z.infer<typeof comparisonBody>;
export type ComparisonCell = z.infer<typeof comparisonCell>;
export type ComparisonMetric = z.infer<typeof comparisonMetric>;
export type LogReport = z.infer<typeof logReport>;
