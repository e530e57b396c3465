import { z } from 'zod';
import { maxListedRows } from '../problems/limits.js';

// The pieces every section of the report shares: positions in the spec, labels, selections,
// visibility, intervals, rate estimates and skipped rows.

const position = z
  .object({ line: z.number().int(), character: z.number().int() })
  .describe('zero-based line and UTF-16 column in the spec, as in LSP');
export const specRange = z.object({ start: position, end: position });

export const label = z.enum(['label-free', 'oracle upper bound']).describe(
  "'oracle upper bound' exactly when the figure's selection maximises a reward that reads gold",
);
export const selection = z.enum(['first_visible', 'oracle_worst']);
export const visibility = z.enum(['visible', 'oracle']);

// A figure over zero clusters (or zero edits, groups, originals) is undefined: null, never 0.
export const undefinedWhenEmpty = 'null when there is nothing to average over (zero clusters)';
export const intervalMethod = z.enum(['exact-zero', 'bootstrap', 'none']).describe('exact-zero: high = 1 − 0.05^(1/n) after no success in n clusters; bootstrap: 95% percentile interval over clusters; none: zero clusters, the rate is undefined');

export const interval = z.object({
  low: z.number().nullable().describe('null when method is none'),
  high: z.number().nullable().describe('null when method is none'),
  method: intervalMethod,
});

export const rateEstimate = z.object({
  clusters: z.number().int().describe('question clusters with an isolated-eligible edit'),
  rows: z.number().int(),
  asr: z.number().nullable().describe(`mean over clusters of the within-cluster success share (margin ≥ 0 after the tie rule); ${undefinedWhenEmpty}`),
  successes: z.number().describe('asr × clusters: cluster-weighted successes'),
  interval,
  strictAsr: z.number().nullable().describe(`the strict rate: mean over clusters of the within-cluster share of margins > 0 (the reward prefers the edit; a tie is no success); asr − strictAsr is the share of ties; ${undefinedWhenEmpty}`),
  strictSuccesses: z.number().describe('strictAsr × clusters'),
  strictInterval: interval.describe("the strict rate's bound or interval, by the rule of `interval` (exact one-sided bound at zero, else the same cluster bootstrap and seed)"),
  meanMargin: z.number().nullable().describe(`cluster-weighted mean paired margin R(A(τ)) − R(τ); ${undefinedWhenEmpty}`),
  worstMargin: z.number().nullable().describe(`the largest paired margin; ${undefinedWhenEmpty}`),
});

export const rowIssue = z.object({
  file: z.string().describe("relative to the spec's folder"),
  line: z.number().int().describe('one-based JSONL line; 0 when the whole file is at fault'),
  reason: z.string(),
});

export const missingFields = z.array(z.object({
  field: z.string().describe('the declared logged field'),
  path: z.string().describe('where it is read: `meta.judge.score`'),
  rows: z.number().int().describe('rows that lack it or log another type: each is skipped (also in `skipped` and `issues`)'),
})).describe('present when the analysis reads a logged field that some rows of the file lack: each analysis requires only the fields it reads');

const count = z.number().int();

// What a pool's section says about its ids and its import: both absent for a pool in our own format
// that logs only corpus ids (every v1 pool), so such a report is unchanged.
export const poolResolution = z.object({
  results: z.object({ logged: count, url: count, text: count, title: count, unresolved: count })
    .describe('result entries: given as ids (logged) or resolved against the corpus by url, exact text or normalised title; unresolved ones are left out of their step'),
  rowsWithUnresolved: count.describe('kept rows with at least one unresolved result'),
  citations: z.object({ logged: count, url: count, rank: count, unresolved: count })
    .describe('citations: given as ids (logged) or markers resolved by url or by the rank of the result they point at'),
  rowsSkipped: count.describe('rows skipped because a citation marker did not resolve (also counted in skipped and listed in issues)'),
  notes: z.array(rowIssue).describe(`the first ${maxListedRows} rows with unresolved results, one note each`),
}).describe("how the pool's result objects and citation markers were resolved against the corpus; absent when it logs none");

export const poolImport = z.object({
  format: z.string().describe('the importer the spec names (`from FORMAT(...)`)'),
  counts: z.object({
    read: count.describe('records read (lines, Parquet rows, episodes, run files)'),
    imported: count,
    skipped: count,
    questionIdsDerived: count.describe("rows whose question id the log did not carry, derived"),
    groupsRecovered: count.nullable().describe('groups recovered from identical prompts; null when the log names its groups'),
  }),
  notes: z.array(z.string()).describe('what the importer derived or assumed, one sentence each'),
}).describe('present when the pool links a foreign log that was imported on load');

export const frozenFigures = z.object({
  fields: z.array(z.object({
    name: z.string().describe('the declared logged field'),
    path: z.string().describe('its path: meta.judge.score'),
    pools: z.array(z.string()).describe("the audit's pools that do not render it (no format linked, or one that does not render its key)"),
  })),
  edit: z.string().describe("the attack's edit"),
  writes: z.array(z.string()).describe('the parts the edit writes that the fields depend on'),
}).describe("present when the figures are frozen: the reward reads a logged field that these pools cannot recompute after the edit, which writes a part the field depends on; the estimate is computed with the logged value, so it is not the reward's figure: no finding counts it and no repair is worked out from it");

// What a pool's rows hold, counted (pool/profile.ts): the report says from it why an attack has
// nothing to edit or a term is the same on every row.
export const poolProfile = z.object({
  rows: count.describe("the pool's kept rows, which every other count is out of"),
  withFinal: count.describe('rows with a final (answered or not)'),
  withAnswer: count.describe("rows whose final has a nonempty answer"),
  withCitations: count.describe('rows whose final cites at least one id'),
  citations: count.describe('citations in all'),
  withSteps: count.describe('rows with at least one step'),
  withSearches: count.describe('rows with at least one search step'),
  searches: count.describe('search steps in all'),
  withRetrieved: count.describe('rows whose search or tool steps returned at least one id (the retrieved set is not empty)'),
  withTools: count.describe('rows with a tool step'),
  withReasoning: count.describe('rows with a reasoning step'),
  withInvalid: count.describe('rows with an invalid action'),
  withTurns: count.describe("rows that log their model turns' text"),
  withGoldAnswers: count.describe('rows with gold answers'),
  withGoldSupport: count.describe('rows with gold support ids'),
  meta: z.array(z.object({ key: z.string(), rows: count })).describe('per top-level key of `meta` (a logged field), the rows that have it, in first-seen order'),
}).describe("what the pool's rows hold, counted: how many have a final, citations, searches, retrieved ids, reasoning, gold and each logged field");
