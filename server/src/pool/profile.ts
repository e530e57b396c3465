import { traceOf, type Trajectory } from './types.js';

// What a pool's rows hold, counted: how many have a final, an answer, citations, searches, results
// with ids, tool calls, reasoning, invalid actions, turns, gold, and each key of `meta`. It says
// from the data why an attack has nothing to edit or a term is the same on every row (a log with no
// citations: no detector over citations can fire, no citation can be laundered), for the report,
// the pool's hover, `herald import` and the starter spec (issue 37).

export interface PoolProfile {
  readonly rows: number;
  /** Rows with a final (answered or not). */
  readonly withFinal: number;
  /** Rows whose final has a nonempty answer. */
  readonly withAnswer: number;
  /** Rows whose final cites at least one id, and the citations in all. */
  readonly withCitations: number;
  readonly citations: number;
  /** Rows with at least one step of any kind. */
  readonly withSteps: number;
  /** Rows with at least one search step, and the search steps in all. */
  readonly withSearches: number;
  readonly searches: number;
  /** Rows whose search or tool steps returned at least one id (the retrieved set E(τ) is not empty). */
  readonly withRetrieved: number;
  /** Rows with a tool step, a reasoning step, an invalid action. */
  readonly withTools: number;
  readonly withReasoning: number;
  readonly withInvalid: number;
  /** Rows that log their model turns' text (`turns`). */
  readonly withTurns: number;
  /** Rows with gold answers, and with gold support ids. */
  readonly withGoldAnswers: number;
  readonly withGoldSupport: number;
  /** Per top-level key of `meta`: the rows that have it, in first-seen order. */
  readonly meta: readonly { readonly key: string; readonly rows: number }[];
}

/** The profile of `rows`: one pass, counts only (no value is kept). */
export function profilePool(rows: readonly Trajectory[]): PoolProfile {
  let withFinal = 0;
  let withAnswer = 0;
  let withCitations = 0;
  let citations = 0;
  let withSteps = 0;
  let withSearches = 0;
  let searches = 0;
  let withRetrieved = 0;
  let withTools = 0;
  let withReasoning = 0;
  let withInvalid = 0;
  let withTurns = 0;
  let withGoldAnswers = 0;
  let withGoldSupport = 0;
  const meta = new Map<string, number>();
  for (const row of rows) {
    if (row.final !== null) withFinal++;
    if ((row.final?.answer ?? '').trim() !== '') withAnswer++;
    const cited = row.final?.citations.length ?? 0;
    if (cited > 0) withCitations++;
    citations += cited;
    let rowSearches = 0;
    let retrieved = false;
    let tools = false;
    let reasoning = false;
    let invalid = false;
    let stepped = false;
    for (const step of traceOf(row)) {
      stepped = true;
      if (step.type === 'search') rowSearches++;
      if ((step.type === 'search' || step.type === 'tool') && step.results.length > 0) retrieved = true;
      if (step.type === 'tool') tools = true;
      else if (step.type === 'reasoning') reasoning = true;
      else if (step.type === 'invalid') invalid = true;
    }
    if (stepped) withSteps++;
    if (rowSearches > 0) withSearches++;
    searches += rowSearches;
    if (retrieved) withRetrieved++;
    if (tools) withTools++;
    if (reasoning) withReasoning++;
    if (invalid) withInvalid++;
    if ((row.turnTexts?.length ?? 0) > 0) withTurns++;
    if (row.gold.answers.length > 0) withGoldAnswers++;
    if (row.gold.support_ids.length > 0) withGoldSupport++;
    for (const key of Object.keys(row.meta)) meta.set(key, (meta.get(key) ?? 0) + 1);
  }
  return {
    rows: rows.length, withFinal, withAnswer, withCitations, citations, withSteps, withSearches, searches, withRetrieved, withTools, withReasoning,
    withInvalid, withTurns, withGoldAnswers, withGoldSupport, meta: [...meta].map(([key, count]) => ({ key, rows: count })),
  };
}

/** The profile of several pools' rows together: every count summed, meta keys in first-seen order. */
export function sumProfiles(profiles: readonly PoolProfile[]): PoolProfile {
  const meta = new Map<string, number>();
  for (const p of profiles) for (const m of p.meta) meta.set(m.key, (meta.get(m.key) ?? 0) + m.rows);
  const sum = (count: (p: PoolProfile) => number): number => profiles.reduce((n, p) => n + count(p), 0);
  return {
    rows: sum((p) => p.rows), withFinal: sum((p) => p.withFinal), withAnswer: sum((p) => p.withAnswer), withCitations: sum((p) => p.withCitations),
    citations: sum((p) => p.citations), withSteps: sum((p) => p.withSteps), withSearches: sum((p) => p.withSearches), searches: sum((p) => p.searches), withRetrieved: sum((p) => p.withRetrieved),
    withTools: sum((p) => p.withTools), withReasoning: sum((p) => p.withReasoning), withInvalid: sum((p) => p.withInvalid), withTurns: sum((p) => p.withTurns),
    withGoldAnswers: sum((p) => p.withGoldAnswers), withGoldSupport: sum((p) => p.withGoldSupport), meta: [...meta].map(([key, rows]) => ({ key, rows })),
  };
}
