// A validated pool row's steps and final answer as the engine reads them, with what format v2 adds
// kept beside them. A row written in v1 terms (search and invalid steps, ids only, no step rewards,
// no status) converts to exactly the v1 objects and nothing else, so a v1 pool loads as before.
// Ids that the log does not give are not guessed here: they need the corpus (./resolve-ids.ts).
import type { PoolRowInput, RowResult } from './schemas.js';
import type { CitationRef, Final, ReasoningStep, ResultHit, Step, ToolStep, TraceInvalidStep, TraceSearchStep, TraceStep } from './types.js';

type RowStep = PoolRowInput['steps'][number];
type RowResultItem = NonNullable<Extract<RowStep, { type: 'tool' }>['results']>[number];
type RowFinal = NonNullable<PoolRowInput['final']>;

/** The engine's fields of a row and its v2 extras (each absent when the row does not use it). */
export interface LoggedParts {
  readonly steps: readonly Step[];
  readonly final: Final | null;
  readonly trace?: readonly TraceStep[];
  readonly citationRefs?: readonly CitationRef[];
  readonly finalStatus?: string;
}

type V1RowStep = Extract<RowStep, { type: 'search' | 'invalid' }>;

function isV1Step(step: RowStep): step is V1RowStep {
  if (step.reward !== undefined && step.reward !== null) return false;
  if (step.turn !== undefined) return false;
  if (step.type === 'invalid') return true;
  return step.type === 'search' && step.results.every((r) => typeof r === 'string');
}

/** A v1 step exactly as v1 loaded it (no extra keys). */
function v1Step(step: V1RowStep): Step {
  if (step.type === 'invalid') return { type: 'invalid', text: step.text };
  return { type: 'search', query: step.query, results: step.results.filter((r): r is string => typeof r === 'string') };
}

function hitOf(item: RowResultItem, position: number): ResultHit {
  if (typeof item === 'string') return { id: item, rank: position + 1 };
  // Key by key, not by conditional spreads: an imported pool holds hundreds of thousands of hits,
  // and V8 builds and later copies spread objects of optional keys several times slower.
  const hit: Built<ResultHit> = { rank: item.rank };
  if (item.id !== undefined) hit.id = item.id;
  if (item.title !== undefined) hit.title = item.title;
  if (item.url !== undefined) hit.url = item.url;
  if (item.text !== undefined) hit.text = item.text;
  return hit;
}

/** The hits of a result list, or why the list is refused (two results at one rank make a marker ambiguous). */
function hitsOf(items: readonly RowResultItem[], where: string): RowResult<{ ids: string[]; hits?: ResultHit[] }> {
  const ids = items.filter((r): r is string => typeof r === 'string');
  if (ids.length === items.length) return { ok: true, value: { ids } };
  const hits = items.map(hitOf);
  const seen = new Map<number, number>();
  for (const [i, hit] of hits.entries()) {
    const first = seen.get(hit.rank);
    if (first !== undefined) return { ok: false, reason: `${where}[${i}].rank: rank ${hit.rank} is also item ${first}'s` };
    seen.set(hit.rank, i);
  }
  return { ok: true, value: { ids: hits.flatMap((h) => (h.id === undefined ? [] : [h.id])), hits } };
}

type Built<T> = { -readonly [K in keyof T]: T[K] };

// The steps below are built key by key, never by conditional spreads: an imported pool has hundreds
// of thousands of steps and hits, and V8 builds (and later copies) spread objects several times slower.

function withReward<T extends { reward?: number; turn?: number }>(built: T, reward: number | null | undefined, turn?: number): T {
  if (reward !== undefined && reward !== null) built.reward = reward;
  if (turn !== undefined) built.turn = turn;
  return built;
}

function traceStep(step: RowStep, index: number): RowResult<TraceStep> {
  switch (step.type) {
    case 'search': {
      const listed = hitsOf(step.results, `steps[${index}].results`);
      if (!listed.ok) return listed;
      const built: Built<TraceSearchStep> = { type: 'search', query: step.query, results: listed.value.ids };
      if (listed.value.hits !== undefined) built.hits = listed.value.hits;
      return { ok: true, value: withReward(built, step.reward, step.turn) };
    }
    case 'tool': {
      const listed = hitsOf(step.results ?? [], `steps[${index}].results`);
      if (!listed.ok) return listed;
      const built: Built<ToolStep> = { type: 'tool', tool: step.tool, args: step.args ?? {}, results: listed.value.ids };
      if (listed.value.hits !== undefined) built.hits = listed.value.hits;
      if (step.call_id !== undefined && step.call_id !== null) built.call_id = step.call_id;
      if (step.output !== undefined && step.output !== null) built.output = step.output;
      return { ok: true, value: withReward(built, step.reward, step.turn) };
    }
    case 'reasoning':
      return { ok: true, value: withReward<Built<ReasoningStep>>({ type: 'reasoning', text: step.text }, step.reward, step.turn) };
    case 'invalid':
      return { ok: true, value: withReward<Built<TraceInvalidStep>>({ type: 'invalid', text: step.text }, step.reward, step.turn) };
  }
}

/** The engine's view of a trace: its search and invalid steps in v1 shape, results as ids. */
export function engineSteps(trace: readonly TraceStep[]): Step[] {
  const steps: Step[] = [];
  for (const s of trace) {
    if (s.type === 'search') steps.push({ type: 'search', query: s.query, results: s.results });
    else if (s.type === 'invalid') steps.push({ type: 'invalid', text: s.text });
  }
  return steps;
}

function citationRefsOf(final: RowFinal, stepCount: number): RowResult<readonly CitationRef[] | undefined> {
  if (final.answer === null || final.citations.every((c) => typeof c === 'string')) return { ok: true, value: undefined };
  const refs: CitationRef[] = [];
  for (const [i, c] of final.citations.entries()) {
    if (typeof c === 'string') {
      refs.push(c);
      continue;
    }
    const { marker, id, url, rank, step } = c;
    if (id === undefined && url === undefined && rank === undefined) return { ok: false, reason: `final.citations[${i}]: a citation marker needs an id, a url or a rank` };
    if (step !== undefined && step >= stepCount) return { ok: false, reason: `final.citations[${i}].step: there is no step ${step} (the row has ${stepCount})` };
    refs.push({ marker, ...(id === undefined ? {} : { id }), ...(url === undefined ? {} : { url }), ...(rank === undefined ? {} : { rank }), ...(step === undefined ? {} : { step }) });
  }
  return { ok: true, value: refs };
}

/** The final answer before resolution: citations the log gives as ids (a marker only when it names one). */
function finalOf(final: RowFinal | null): Final | null {
  if (final === null || final.answer === null) return null;
  const citations = final.citations.flatMap((c) => (typeof c === 'string' ? [c] : c.id === undefined ? [] : [c.id]));
  return { answer: final.answer, citations, text: final.text };
}

/** A row's steps and final answer, or why the row is refused. */
export function loggedParts(row: Pick<PoolRowInput, 'steps' | 'final'>): RowResult<LoggedParts> {
  const status = row.final?.status;
  const refs = row.final === null ? { ok: true as const, value: undefined } : citationRefsOf(row.final, row.steps.length);
  if (!refs.ok) return refs;
  const extras = { ...(refs.value === undefined ? {} : { citationRefs: refs.value }), ...(status === undefined ? {} : { finalStatus: status }) };
  if (row.steps.every(isV1Step)) {
    return { ok: true, value: { steps: row.steps.map(v1Step), final: finalOf(row.final), ...extras } };
  }
  const trace: TraceStep[] = [];
  for (const [i, s] of row.steps.entries()) {
    const converted = traceStep(s, i);
    if (!converted.ok) return converted;
    trace.push(converted.value);
  }
  return { ok: true, value: { steps: engineSteps(trace), final: finalOf(row.final), trace, ...extras } };
}
