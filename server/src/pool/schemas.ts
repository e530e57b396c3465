// The pool, corpus and candidate rows as zod schemas (pool rows: format v2, a strict superset of
// v1; docs/pools.md), and their conversion to the validated types of ./types.ts. Extra keys are allowed everywhere (the format may grow
// optional fields) and dropped from the typed value, except in `meta`, which keeps them.
import { z } from 'zod';
import { maxCitationsPerRow } from '../problems/limits.js';
import { rowReason } from './row-reason.js';
import type { CandidateList, Passage, RowSource, Trajectory, TrajectoryMeta } from './types.js';
import { loggedParts } from './logged-parts.js';

const stringList = z.array(z.string());

// A per-step reward as logged; null (what JSON writers emit for "none") means not given.
const stepReward = z.number().nullish();
// The 0-based index of the model's turn (assistant message) the step was read from.
const stepTurn = z.number().int().nonnegative().optional();

/** A result the log gives as an object: at least its rank; the id is resolved from the rest when absent. */
const resultObject = z.looseObject({
  id: z.string().min(1).optional(),
  rank: z.number().int().nonnegative(),
  title: z.string().optional(),
  url: z.string().optional(),
  text: z.string().optional(),
});
const results = z.array(z.union([z.string(), resultObject]));

const searchStep = z.object({ type: z.literal('search'), query: z.string(), results, reward: stepReward, turn: stepTurn });
const invalidStep = z.object({ type: z.literal('invalid'), text: z.string(), reward: stepReward, turn: stepTurn });
const toolStep = z.object({
  type: z.literal('tool'),
  tool: z.string().min(1),
  args: z.record(z.string(), z.unknown()).optional(),
  call_id: z.string().nullish(),
  results: results.optional(),
  output: z.string().nullish(),
  reward: stepReward,
  turn: stepTurn,
});
const reasoningStep = z.object({ type: z.literal('reasoning'), text: z.string(), reward: stepReward, turn: stepTurn });

/**
 * A step of an unknown type rejects the whole row. Dropping it silently would change what the
 * audit counts (search calls, invalid actions) without the user knowing, and keeping it untyped
 * would leak an unchecked shape into every reward term.
 */
const step = z.discriminatedUnion('type', [searchStep, toolStep, reasoningStep, invalidStep]);

/** A citation written in the answer as a marker (`[3]`, `【20】`): it names an id, a url or a result rank. */
const citationMarker = z.looseObject({
  marker: z.string(),
  id: z.string().min(1).optional(),
  url: z.string().optional(),
  rank: z.number().int().nonnegative().optional(),
  step: z.number().int().nonnegative().optional(),
});

// An attack edits every citation position and evaluates each edited copy in full: a row costs
// citations² work, so one with more than the limit is skipped with this reason.
const citations = z.array(z.union([z.string(), citationMarker])).max(maxCitationsPerRow, {
  error: (issue) => `${Array.isArray(issue.input) ? issue.input.length : 'more'} citations, more than the ${maxCitationsPerRow} an audit edits in one row`,
});
const status = z.string().optional();
const answered = z.object({ answer: z.string(), citations, text: z.string(), status });
// A trajectory that stopped without a valid answer may still log why (`max_turns`, `length`).
const unanswered = z.object({ answer: z.null(), status });
const final = z.union([answered, unanswered]);

const gold = z.object({ answers: stringList, support_ids: stringList });

// JSON writers often emit null for an absent optional value; null here means "not given".
const meta = z.looseObject({
  model: z.string().nullish(),
  sample: z.number().int().nullish(),
  group: z.string().nullish(),
});

export const poolRowSchema = z.looseObject({
  id: z.string().min(1),
  question_id: z.string().min(1),
  question: z.string(),
  steps: z.array(step),
  final: final.nullable(),
  gold,
  meta: meta.nullish(),
  // The model's text of each turn, by turn index (docs/pools.md, "Turns").
  turns: stringList.optional(),
});

export type PoolRowInput = z.infer<typeof poolRowSchema>;

export const corpusRowSchema = z.looseObject({
  id: z.string().min(1),
  title: z.string(),
  text: z.string(),
  url: z.string().optional(),
});

export const candidateRowSchema = z.looseObject({
  traj_id: z.string().min(1),
  citation_index: z.number().int().nonnegative(),
  candidates: stringList,
});

/** What a field must hold, where zod's bare type would mislead (keys: paths with `[]` for indices). */
const poolExpectations: Readonly<Record<string, string>> = {
  final: 'an object or null',
  'steps[]': 'a step object',
  // Items of a list: the reason says "expected an array of …".
  'steps[].results[]': 'ids or result objects',
  'final.citations[]': 'ids or citation markers',
};

export type RowResult<T> = { readonly ok: true; readonly value: T } | { readonly ok: false; readonly reason: string };

function objectReason(value: unknown): string | undefined {
  if (value !== null && typeof value === 'object' && !Array.isArray(value)) return undefined;
  const kind = value === null ? 'null' : Array.isArray(value) ? 'an array' : typeof value === 'string' ? 'a string' : `a ${typeof value}`;
  return `expected a JSON object, got ${kind}`;
}

const metaKeys = new Set(['model', 'sample', 'group']);

function toMeta(parsed: z.infer<typeof meta> | null | undefined): TrajectoryMeta {
  if (parsed === null || parsed === undefined) return {};
  // Absent stays absent, so a row's meta compares equal to what its JSON said. Built key by key
  // (the logged keys first, then the three the format names), not by rest and conditional spreads,
  // which V8 runs several times slower: an imported pool has a meta per row.
  const built: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(parsed)) if (!metaKeys.has(key)) built[key] = value;
  const { model, sample, group } = parsed;
  if (model !== null && model !== undefined) built['model'] = model;
  if (sample !== null && sample !== undefined) built['sample'] = sample;
  if (group !== null && group !== undefined) built['group'] = group;
  return built;
}

/** Validates one parsed JSON value as a pool row. */
export function parsePoolRow(value: unknown, source: RowSource): RowResult<Trajectory> {
  const notObject = objectReason(value);
  if (notObject !== undefined) return { ok: false, reason: notObject };
  const parsed = poolRowSchema.safeParse(value);
  if (!parsed.success) return { ok: false, reason: rowReason(parsed.error, value, poolExpectations) };
  const row = parsed.data;
  const logged = loggedParts(row);
  if (!logged.ok) return logged;
  return {
    ok: true,
    value: {
      id: row.id,
      question_id: row.question_id,
      question: row.question,
      ...logged.value,
      ...(row.turns === undefined ? {} : { turnTexts: row.turns }),
      gold: { answers: row.gold.answers, support_ids: row.gold.support_ids },
      meta: toMeta(row.meta),
      source,
    },
  };
}

/** Validates one parsed JSON value as a corpus passage. */
export function parseCorpusRow(value: unknown): RowResult<Passage> {
  const notObject = objectReason(value);
  if (notObject !== undefined) return { ok: false, reason: notObject };
  const parsed = corpusRowSchema.safeParse(value);
  if (!parsed.success) return { ok: false, reason: rowReason(parsed.error, value) };
  const { id, title, text, url } = parsed.data;
  return { ok: true, value: url === undefined ? { id, title, text } : { id, title, text, url } };
}

/** Validates one parsed JSON value as a user-supplied candidate list. */
export function parseCandidateRow(value: unknown): RowResult<CandidateList> {
  const notObject = objectReason(value);
  if (notObject !== undefined) return { ok: false, reason: notObject };
  const parsed = candidateRowSchema.safeParse(value);
  if (!parsed.success) return { ok: false, reason: rowReason(parsed.error, value) };
  const row = parsed.data;
  return { ok: true, value: { traj_id: row.traj_id, citation_index: row.citation_index, candidates: row.candidates } };
}
