// The v1 fixture rows (shared DESIGN.md, "Fixture data") as zod schemas, and their conversion to
// the validated types of ./types.ts. Extra keys are allowed everywhere (the format may grow
// optional fields) and dropped from the typed value, except in `meta`, which keeps them.
import { z } from 'zod';
import { maxCitationsPerRow } from '../problems/limits.js';
import { rowReason } from './row-reason.js';
import type { CandidateList, Passage, RowSource, Step, Trajectory, TrajectoryMeta } from './types.js';

const stringList = z.array(z.string());

const searchStep = z.object({ type: z.literal('search'), query: z.string(), results: stringList });
const invalidStep = z.object({ type: z.literal('invalid'), text: z.string() });

/**
 * A step of an unknown type rejects the whole row. Dropping it silently would change what the
 * audit counts (search calls, invalid actions) without the user knowing, and keeping it untyped
 * would leak an unchecked shape into every reward term.
 */
const step = z.discriminatedUnion('type', [searchStep, invalidStep]);

// An attack edits every citation position and evaluates each edited copy in full: a row costs
// citations² work, so one with more than the limit is skipped with this reason.
const citations = stringList.max(maxCitationsPerRow, {
  error: (issue) => `${Array.isArray(issue.input) ? issue.input.length : 'more'} citations, more than the ${maxCitationsPerRow} an audit edits in one row`,
});
const final = z.object({ answer: z.string(), citations, text: z.string() });

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
});

export const corpusRowSchema = z.looseObject({
  id: z.string().min(1),
  title: z.string(),
  text: z.string(),
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
};

export type RowResult<T> = { readonly ok: true; readonly value: T } | { readonly ok: false; readonly reason: string };

function objectReason(value: unknown): string | undefined {
  if (value !== null && typeof value === 'object' && !Array.isArray(value)) return undefined;
  const kind = value === null ? 'null' : Array.isArray(value) ? 'an array' : typeof value === 'string' ? 'a string' : `a ${typeof value}`;
  return `expected a JSON object, got ${kind}`;
}

function toStep(parsed: z.infer<typeof step>): Step {
  return parsed.type === 'search' ? { type: 'search', query: parsed.query, results: parsed.results } : { type: 'invalid', text: parsed.text };
}

function toMeta(parsed: z.infer<typeof meta> | null | undefined): TrajectoryMeta {
  if (parsed === null || parsed === undefined) return {};
  const { model, sample, group, ...rest } = parsed;
  // Absent stays absent, so a row's meta compares equal to what its JSON said.
  return {
    ...rest,
    ...(model === null || model === undefined ? {} : { model }),
    ...(sample === null || sample === undefined ? {} : { sample }),
    ...(group === null || group === undefined ? {} : { group }),
  };
}

/** Validates one parsed JSON value as a pool row. */
export function parsePoolRow(value: unknown, source: RowSource): RowResult<Trajectory> {
  const notObject = objectReason(value);
  if (notObject !== undefined) return { ok: false, reason: notObject };
  const parsed = poolRowSchema.safeParse(value);
  if (!parsed.success) return { ok: false, reason: rowReason(parsed.error, value, poolExpectations) };
  const row = parsed.data;
  return {
    ok: true,
    value: {
      id: row.id,
      question_id: row.question_id,
      question: row.question,
      steps: row.steps.map(toStep),
      final: row.final === null ? null : { answer: row.final.answer, citations: row.final.citations, text: row.final.text },
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
  return { ok: true, value: { id: parsed.data.id, title: parsed.data.title, text: parsed.data.text } };
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
