// The tagged-transcript dialects (docs/import.md, "Tagged transcripts"): which tags mark a call, an
// observation, reasoning and the answer, how a call and an observation are read, and the fixed text
// a framework answers an invalid action with. One table; the state machine that reads a transcript
// with any of them is ./tagged-transcript.ts. A new dialect is one entry here.
import { isRecord } from './jsonl-records.js';
import { finalTurnAnswer, webThinkerAnswer, type AnswerRule } from './tagged-answers.js';
import { colonDocs, linkedDocs, numberedDocs, paragraphDocs, rankedDocs, titledDocs, webThinkerDocs, type ResultJson } from './tagged-documents.js';
import type { CallRead, PendingCall, SearchStepJson } from './tagged-steps.js';

export interface Tag {
  readonly open: string;
  readonly close: string;
}

/** A kind of call: its tags and how its inside is read. */
export interface CallTag extends Tag {
  read(inside: string): CallRead;
}

export interface Dialect {
  readonly name: string;
  readonly summary: string;
  /** The blocks of the model's own text, each a `reasoning` step (`<think>`; AutoRefine's `<refine>` too). */
  readonly reasoning: readonly Tag[];
  /** Every kind of call (WebThinker: a search and a click; ASearcher: a search and a page access). */
  readonly calls: readonly CallTag[];
  /** Every kind of observation; each answers the oldest call still waiting, whatever its kind. */
  readonly observations: readonly Tag[];
  /**
   * The framework's own turn after an observation, up to and with the first of these marks (the next
   * assistant turn): no tag is read in it, and no answer (MMSearch-R1 repeats its instructions there,
   * example tags included).
   */
  readonly observationTurnEnd?: readonly string[];
  /** The answer is the inside of the last `<answer>…</answer>`, or of the last `\boxed{}` in it. */
  readonly boxedAnswer: boolean;
  /** Where the answer is when the rule is not the last `<answer>` of the response (./tagged-answers.ts). */
  readonly answerAt?: AnswerRule;
  /** The start of the observation a framework writes after an action it could not read. */
  readonly invalidMarker?: string;
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
  reasoning: [think], calls: [{ open: '<search>', close: '</search>', read: searchCall }], observations: [{ open: '<information>', close: '</information>' }],
  boxedAnswer: false, invalidMarker: 'My previous action is invalid',
  answer: fillSearch(titledDocs),
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
  reasoning: [think], calls: [{ open: '<|begin_of_query|>', close: '<|end_of_query|>', read: searchCall }], observations: [{ open: '<|begin_of_documents|>', close: '<|end_of_documents|>' }],
  boxedAnswer: false, answer: fillSearch(r1NoResults),
};

const research: Dialect = {
  name: 'research',
  summary: 'ReSearch: <search>q</search>, <result>…</result>, \\boxed{} inside <answer>',
  reasoning: [think], calls: [{ open: '<search>', close: '</search>', read: searchCall }], observations: [{ open: '<result>', close: '</result>' }],
  boxedAnswer: true, answer: fillSearch(paragraphDocs),
};

const hermes: Dialect = {
  name: 'hermes',
  summary: 'Hermes tool calls: <tool_call>{"name": "search", "arguments": {"query_list": […]}}</tool_call>, <tool_response>{"result": "Doc 1 (Title: T)\\n…"}</tool_response>, <answer>',
  reasoning: [think], calls: [{ open: '<tool_call>', close: '</tool_call>', read: hermesCall }], observations: [{ open: '<tool_response>', close: '</tool_response>' }],
  boxedAnswer: false, answer: hermesAnswer,
};

// AutoRefine (syr-cn/AutoRefine, search_r1/llm_agent/generation.py) runs Search-R1's loop with its
// documents in `<documents>` and its reward (verl/utils/reward_score/qa_em.py) also reading the
// model's `<refine>` blocks, where it condenses the documents it was given: the model's own text, a
// reasoning step like `<think>` (the transcript keeps the tags for a reward that tells them apart).
const autoRefine: Dialect = {
  ...searchR1,
  name: 'autorefine',
  summary: 'AutoRefine: <think>, <search>q</search>, <documents>Doc 1(Title: T) text…</documents>, <refine>…</refine>, <answer>',
  reasoning: [think, { open: '<refine>', close: '</refine>' }],
  observations: [{ open: '<documents>', close: '</documents>' }],
};

/** A call that is a tool step, its inside the one argument `key` (a URL to open). */
function toolCall(tool: string, key: string): (inside: string) => CallRead {
  return (inside) => ({ pending: { kind: 'tool', step: { type: 'tool', tool, args: { [key]: inside.trim() } } } });
}

/** A search answered with its results, any other call with the observation's text as its output. */
function fillEither(parse: (block: string) => ResultJson[]): (inside: string, pending: PendingCall) => number {
  return (inside, pending) => {
    if (pending.kind === 'tool') {
      pending.step.output = inside.trim();
      return 0;
    }
    const [step] = pending.steps;
    if (step !== undefined) step.results = parse(inside);
    return 0;
  };
}

const asearcherNone = (block: string): ResultJson[] => (block.trim() === 'No search results are found.' ? [] : linkedDocs(block));

// ASearcher (inclusionAI/ASearcher, AReaL/ASearcher/train/search_agent.py): a search or a page opened
// by URL, both answered in `<information>`; it writes no invalid-action text (a turn without a call
// is followed by the next generation).
const asearcher: Dialect = {
  name: 'asearcher',
  summary: 'ASearcher: <search>q</search>, <access>url</access>, <information>[Doc 1](url):\\ntext…</information> or >>>> Page 1 >>>> text, <answer>',
  reasoning: [think],
  calls: [{ open: '<search>', close: '</search>', read: searchCall }, { open: '<access>', close: '</access>', read: toolCall('access', 'url') }],
  observations: [{ open: '<information>', close: '</information>' }],
  boxedAnswer: false, answer: fillEither(asearcherNone),
};

// MMSearch-R1 (EvolvingLMMs-Lab/multimodal-search-r1, mmsearch_r1/workers/multimodal/rollout/
// vllm_rollout_spmd.py): `<search><img></search>` searches the question's image, `<text_search>`
// the web; the results come in a user turn (`Searched results: <information>…</information>`, then
// the question and the instructions again), up to the next assistant turn.
const mmsearchR1: Dialect = {
  name: 'mmsearch_r1',
  summary: 'MMSearch-R1: <reason>, <search><img></search> (image search), <text_search>q</text_search>, <information>[… Search Results] …\\n1. …</information>, <answer> of the last turn',
  reasoning: [{ open: '<reason>', close: '</reason>' }],
  calls: [{ open: '<search>', close: '</search>', read: searchCall }, { open: '<text_search>', close: '</text_search>', read: searchCall }],
  observations: [{ open: '<information>', close: '</information>' }],
  observationTurnEnd: ['<|im_start|>assistant\n', '\nassistant\n'],
  boxedAnswer: false, answerAt: finalTurnAnswer, answer: fillSearch(rankedDocs),
};

// WebThinker (RUC-NLPIR/WebThinker, scripts/run_web_thinker.py): searches and, in its web explorer,
// clicks, each with its own result tags; the answer is a `\boxed{}` anywhere in the output.
const webThinker: Dialect = {
  name: 'webthinker',
  summary: 'WebThinker: <|begin_search_query|>q<|end_search_query|>, <|begin_click_link|>url<|end_click_link|>, <|begin_search_result|>…<|end_search_result|>, <|begin_click_result|>…<|end_click_result|>, \\boxed{}',
  reasoning: [think],
  calls: [
    { open: '<|begin_search_query|>', close: '<|end_search_query|>', read: searchCall },
    { open: '<|begin_click_link|>', close: '<|end_click_link|>', read: toolCall('click_link', 'url') },
  ],
  observations: [{ open: '<|begin_search_result|>', close: '<|end_search_result|>' }, { open: '<|begin_click_result|>', close: '<|end_click_result|>' }],
  boxedAnswer: false, answerAt: webThinkerAnswer, answer: fillEither(webThinkerDocs),
};

export const dialects: readonly Dialect[] = [searchR1, zeroSearch, r1Searcher, research, hermes, autoRefine, asearcher, mmsearchR1, webThinker];

export const dialectNames = dialects.map((d) => d.name);

export function dialectNamed(name: string): Dialect | undefined {
  return dialects.find((d) => d.name === name);
}
