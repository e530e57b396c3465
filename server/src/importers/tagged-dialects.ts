// The tagged-transcript dialects (docs/import.md, "Tagged transcripts"): which tags mark a call, an
// observation, reasoning and the answer, how a call and an observation are read, and the fixed text
// a framework answers an invalid action with. One table; the state machine that reads a transcript
// with any of them is ./tagged-transcript.ts. A new dialect is one entry here.
import { isRecord } from './jsonl-records.js';
import { colonDocs, numberedDocs, paragraphDocs, titledDocs, type ResultJson } from './tagged-documents.js';
import type { CallRead, PendingCall, SearchStepJson } from './tagged-steps.js';

export interface Tag {
  readonly open: string;
  readonly close: string;
}

export interface Dialect {
  readonly name: string;
  readonly summary: string;
  readonly think: Tag;
  readonly call: Tag;
  readonly observation: Tag;
  /** The answer is the inside of the last `<answer>…</answer>`, or of the last `\boxed{}` in it. */
  readonly boxedAnswer: boolean;
  /** The start of the observation a framework writes after an action it could not read. */
  readonly invalidMarker?: string;
  readCall(inside: string): CallRead;
  /** Gives `pending` its results from one observation; returns how many result blocks found no call. */
  answer(inside: string, pending: PendingCall): number;
}

const think = { open: '<think>', close: '</think>' };

function searchCall(inside: string): CallRead {
  return { pending: { kind: 'search', steps: [{ type: 'search', query: inside.trim(), results: [] }] } };
}

/** One observation block for one search call (Search-R1, R1-Searcher, ReSearch). */
function fillSearch(parse: (block: string) => ResultJson[]): (inside: string, pending: PendingCall) => number {
  return (inside, pending) => {
    if (pending.kind !== 'search') return 1;
    const [step] = pending.steps;
    if (step !== undefined) step.results = parse(inside);
    return 0;
  };
}

const r1NoResults = (block: string): ResultJson[] => (block.trim() === 'None' ? [] : numberedDocs(block));

/** Hermes: `{"name": …, "arguments": {…}}`; the search tool takes `query_list` (verl) or `query`. */
function hermesCall(inside: string): CallRead {
  let call: unknown;
  try {
    call = JSON.parse(inside);
  } catch {
    return { invalid: inside.trim() };
  }
  if (!isRecord(call) || typeof call.name !== 'string' || call.name === '') return { invalid: inside.trim() };
  const args = isRecord(call.arguments) ? call.arguments : {};
  if (call.name === 'search') {
    const list = Array.isArray(args.query_list) ? args.query_list : typeof args.query === 'string' ? [args.query] : [];
    const queries = list.filter((q): q is string => typeof q === 'string');
    if (queries.length > 0) return { pending: { kind: 'search', steps: queries.map((query): SearchStepJson => ({ type: 'search', query, results: [] })) } };
  }
  return { pending: { kind: 'tool', step: { type: 'tool', tool: call.name, args } } };
}

/** A tool response's text: the `result` of verl's `{"result": "…"}`, else the block as written. */
function responseText(inside: string): string {
  try {
    const value: unknown = JSON.parse(inside);
    if (isRecord(value) && typeof value.result === 'string') return value.result;
  } catch {
    // Not JSON: a tool that answers in plain text.
  }
  return inside.trim();
}

/** verl's search tool answers several queries in one response, their results joined by `\n---\n`. */
function hermesAnswer(inside: string, pending: PendingCall): number {
  const text = responseText(inside);
  if (pending.kind === 'tool') {
    pending.step.output = text;
    return 0;
  }
  const blocks = pending.steps.length === 1 ? [text] : text.split('\n---\n');
  for (const [i, step] of pending.steps.entries()) step.results = titledDocs(blocks[i] ?? '');
  return Math.max(0, blocks.length - pending.steps.length);
}

const searchR1: Dialect = {
  name: 'search_r1',
  summary: 'Search-R1: <search>q</search>, <information>Doc 1(Title: T) text…</information>, <answer>',
  think, call: { open: '<search>', close: '</search>' }, observation: { open: '<information>', close: '</information>' },
  boxedAnswer: false, invalidMarker: 'My previous action is invalid',
  readCall: searchCall, answer: fillSearch(titledDocs),
};

// ZeroSearch trains on Search-R1's loop with an LLM simulating the search engine: the same tags,
// its documents numbered without titles.
const zeroSearch: Dialect = {
  ...searchR1,
  name: 'zerosearch',
  summary: 'ZeroSearch: <search>q</search>, <information>Doc 1: text…</information>, <answer>',
  answer: fillSearch(colonDocs),
};

export const r1Searcher: Dialect = {
  name: 'r1_searcher',
  summary: 'R1-Searcher: <|begin_of_query|>q<|end_of_query|>, <|begin_of_documents|>(1)…(2)…<|end_of_documents|>, <answer>',
  think, call: { open: '<|begin_of_query|>', close: '<|end_of_query|>' }, observation: { open: '<|begin_of_documents|>', close: '<|end_of_documents|>' },
  boxedAnswer: false, readCall: searchCall, answer: fillSearch(r1NoResults),
};

const research: Dialect = {
  name: 'research',
  summary: 'ReSearch: <search>q</search>, <result>…</result>, \\boxed{} inside <answer>',
  think, call: { open: '<search>', close: '</search>' }, observation: { open: '<result>', close: '</result>' },
  boxedAnswer: true, readCall: searchCall, answer: fillSearch(paragraphDocs),
};

const hermes: Dialect = {
  name: 'hermes',
  summary: 'Hermes tool calls: <tool_call>{"name": "search", "arguments": {"query_list": […]}}</tool_call>, <tool_response>{"result": "Doc 1 (Title: T)\\n…"}</tool_response>, <answer>',
  think, call: { open: '<tool_call>', close: '</tool_call>' }, observation: { open: '<tool_response>', close: '</tool_response>' },
  boxedAnswer: false, readCall: hermesCall, answer: hermesAnswer,
};

export const dialects: readonly Dialect[] = [searchR1, zeroSearch, r1Searcher, research, hermes];

export const dialectNames = dialects.map((d) => d.name);

export function dialectNamed(name: string): Dialect | undefined {
  return dialects.find((d) => d.name === name);
}
