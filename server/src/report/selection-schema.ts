import { z } from 'zod';
import { frozenFigures, label, rateEstimate, selection, visibility } from './schema-parts.js';

// The report's pool-selection parts (issue 16): which samples an audit attacked, the common
// cluster set, and the robustness table. Each appears only when the audit asks for it, so a spec
// without `select`, `clusters` or `robustness` reports exactly as before.

const selectedRows = {
  selection: z.string().describe('the rule as written: stored, first, hash_random, all, best(R) or gold_informed'),
  visibility: visibility.describe("'oracle' when the rule reads gold: gold_informed always, best(R) exactly when R reads gold (by taint)"),
  groups: z.number().int().describe('sample groups (one pool\'s rows of one question) the rule picked from'),
  rows: z.number().int().describe('rows the rule keeps'),
  unselected: z.number().int().describe('groups for which the rule names no row (stored: none or several marked `meta.stored`)'),
};

export const poolSelectionReport = z.object(selectedRows)
  .describe('present when the audit sets `select` other than all: every attack figure, the lattice and the side statistics on attacks are over these rows; counts stay those of every row');

export const clusterSetReport = z.object({
  rule: z.literal('common'),
  clusters: z.number().int().describe('question clusters isolated-eligible for every attack of the audit (under its pool selection): the n of every attack figure'),
}).describe('present with `clusters common`');

const robustnessResult = z.object({
  attack: z.string(),
  reward: z.string(),
  selection,
  label: label.describe("'oracle upper bound' when the pool selection reads gold, or the edit selection is oracle_worst under a reward that reads gold"),
  estimate: rateEstimate,
  frozen: frozenFigures.optional(),
});

export const robustnessEntry = z.object({
  ...selectedRows,
  commonClusters: z.number().int().nullable().describe('with `clusters common`: the common clusters under this selection; null otherwise'),
  results: z.array(robustnessResult).describe('per attack × audited and compared reward × first_visible / oracle_worst'),
});

export type PoolSelectionReport = z.infer<typeof poolSelectionReport>;
export type ClusterSetReport = z.infer<typeof clusterSetReport>;
export type RobustnessEntry = z.infer<typeof robustnessEntry>;
