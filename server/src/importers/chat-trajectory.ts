// The one converter from chat messages to a pool row's `steps` and `final` (format v2), shared by
// the rllm, ART, TRL, BrowseComp-Plus and messages importers. Rules (docs/import.md):
// - assistant reasoning (`reasoning_content`, reasoning items, `<think>` blocks, text beside tool calls) → `reasoning`;
// - each tool call → a `search` step (one per query) when its tool is a search tool, else a `tool`
//   step; the tool message answering it (by `tool_call_id`, else the next unanswered one) gives the
//   results, or stays text (`output`);
// - a call of the last assistant turn that no tool message answers was never executed (the rollout
//   ended first): no step;
// - a call whose arguments are not a JSON object, and an assistant turn that is neither a call nor
//   the last turn, → `invalid` (the model produced no usable action);
// - the last assistant message without tool calls is the final answer when the answer rule finds
//   one in it; when it finds none, that turn is `invalid` and the trajectory has no final.
// Each step also says which piece of which message it was read from (`pieces`): the render
// direction (./chat-render.ts) writes an edited trajectory back from them.
import { citationMarkers, extractAnswer, splitThink } from './chat-final.js';
import type { AnswerRule, CitationMarker, CitationRule } from './chat-final.js';
import type { ChatCall, ChatMessage } from './chat-messages.js';
import { splitPerQuery, toolResults } from './chat-tool-output.js';
import type { ResultObject } from './chat-tool-output.js';

export interface ChatRules {
  /** Tools whose calls are searches (their results are what the audit calls retrieved). */
  readonly searchTools: ReadonlySet<string>;
  readonly answer: AnswerRule;
  readonly citations: CitationRule;
}

export type StepJson =
  | { readonly type: 'search'; readonly query: string; readonly results: readonly ResultObject[] }
  | {
      readonly type: 'tool';
      readonly tool: string;
      readonly args: Readonly<Record<string, unknown>>;
      readonly call_id?: string;
      readonly results?: readonly ResultObject[];
      readonly output?: string;
    }
  | { readonly type: 'reasoning'; readonly text: string }
  | { readonly type: 'invalid'; readonly text: string };

export type FinalJson =
  | { readonly answer: string; readonly citations: readonly CitationMarker[]; readonly text: string; readonly status?: string }
  | { readonly answer: null; readonly status: string };

/**
 * The piece of the message list a step was read from (`message`: its index in the message list):
 * a reasoning text (`reasoning_content` or the k-th reasoning item), the k-th `<think>` block of the
 * content, the text beside the calls, the `part`-th of the `parts` steps of a tool call (one per
 * query) with the tool message answering it, or a whole assistant turn read as `invalid`.
 */
export type StepPiece =
  | { readonly kind: 'reasoning'; readonly message: number; readonly index: number }
  | { readonly kind: 'think'; readonly message: number; readonly index: number }
  | { readonly kind: 'beside'; readonly message: number }
  | { readonly kind: 'call'; readonly message: number; readonly call: number; readonly part: number; readonly parts: number; readonly answer?: number }
  | { readonly kind: 'turn'; readonly message: number };

export interface ChatTrajectory {
  readonly steps: readonly StepJson[];
  /** Where each step was read from, index for index. */
  readonly pieces: readonly StepPiece[];
  /** The content of each assistant message, in order: the row's `turns` (the k-th is turn k). */
  readonly turns: readonly string[];
  /** The turn each step was read from (the index of its assistant message among the assistant messages), index for index. */
  readonly stepTurns: readonly number[];
  readonly final: FinalJson | null;
  /** The message the final answer was read from (the last assistant message, without calls), when there is a final answer. */
  readonly finalMessage?: number;
  /** Calls the environment never executed (message index, call index): kept in the log, no step. */
  readonly unexecuted: readonly (readonly [number, number])[];
  /** Search outputs that were not a result list: kept as a search with no results (and counted in the notes). */
  readonly unreadSearchOutputs: number;
}

function queriesOf(args: Readonly<Record<string, unknown>>): string[] {
  if (typeof args.query === 'string') return [args.query];
  const list = args.query_list ?? args.queries ?? args.query;
  return Array.isArray(list) ? list.filter((q): q is string => typeof q === 'string') : [];
}

interface CallSteps {
  readonly steps: StepJson[];
  readonly unread: number;
}

function searchSteps(queries: readonly string[], output: string | undefined): CallSteps {
  const parts = output === undefined ? undefined : splitPerQuery(output, queries.length);
  if (parts === undefined && output !== undefined) {
    // Several queries, one output that does not split per query: one search holding all of them.
    const results = toolResults(output);
    return { steps: [{ type: 'search', query: queries.join('\n'), results: results ?? [] }], unread: results === undefined ? 1 : 0 };
  }
  let unread = 0;
  const steps = queries.map((query, i): StepJson => {
    const part = parts?.[i];
    const results = part === undefined ? [] : toolResults(part);
    if (results === undefined) unread += 1;
    return { type: 'search', query, results: results ?? [] };
  });
  return { steps, unread };
}

function callSteps(call: ChatCall, output: string | undefined, rules: ChatRules): CallSteps {
  if (call.args === undefined && call.argsText.trim() !== '') {
    return { steps: [{ type: 'invalid', text: `${call.name}(${call.argsText})` }], unread: 0 };
  }
  const args = call.args ?? {};
  const queries = queriesOf(args);
  if (rules.searchTools.has(call.name) && queries.length > 0) return searchSteps(queries, output);
  const results = output === undefined ? undefined : toolResults(output);
  const step: StepJson = {
    type: 'tool',
    tool: call.name,
    args,
    ...(call.id === undefined ? {} : { call_id: call.id }),
    ...(results !== undefined ? { results } : output === undefined ? {} : { output }),
  };
  return { steps: [step], unread: 0 };
}

/**
 * Tool messages answer calls by `tool_call_id`; a log without ids answers them in order, each call
 * with the first unused tool message after its assistant turn and before the next one. Outputs are
 * indexed once (by id, and by turn), so a conversation of 100,000 calls costs linear time.
 */
function outputFinder(messages: readonly ChatMessage[]): (call: ChatCall, after: number) => number | undefined {
  const used = new Set<number>();
  const byId = new Map<string, { readonly at: number[]; next: number }>();
  // For each message, the index of the next assistant message after it (messages.length if none).
  const nextAssistant = new Array<number>(messages.length);
  for (let i = messages.length - 1, next = messages.length; i >= 0; i--) {
    nextAssistant[i] = next;
    const m = messages[i];
    if (m?.role === 'assistant') next = i;
    if (m?.role === 'tool' && m.callId !== undefined) {
      const entry = byId.get(m.callId) ?? { at: [], next: 0 };
      entry.at.push(i);
      byId.set(m.callId, entry);
    }
  }
  for (const entry of byId.values()) entry.at.reverse();
  // Where the in-order search of the current turn stands: any tool message, and one without an id.
  let turn = -1;
  let anyFrom = 0;
  let idlessFrom = 0;
  const firstFree = (from: number, end: number, fits: (m: ChatMessage) => boolean): number => {
    let i = from;
    while (i < end && (used.has(i) || messages[i]?.role !== 'tool' || !fits(messages[i]!))) i++;
    return i;
  };
  const take = (index: number): number => {
    used.add(index);
    return index;
  };
  return (call, after) => {
    const ids = call.id === undefined ? undefined : byId.get(call.id);
    if (ids !== undefined) {
      while (ids.next < ids.at.length && used.has(ids.at[ids.next]!)) ids.next++;
      if (ids.next < ids.at.length) return take(ids.at[ids.next++]!);
    }
    if (turn !== after) {
      turn = after;
      anyFrom = idlessFrom = after + 1;
    }
    const end = nextAssistant[after] ?? messages.length;
    if (call.id === undefined) {
      anyFrom = firstFree(anyFrom, end, () => true);
      return anyFrom < end ? take(anyFrom) : undefined;
    }
    idlessFrom = firstFree(idlessFrom, end, (m) => m.callId === undefined);
    return idlessFrom < end ? take(idlessFrom) : undefined;
  };
}

function finalOf(message: ChatMessage, rules: ChatRules, status: string | undefined): { final: FinalJson | null; invalid?: StepJson } {
  const answer = extractAnswer(message.content, rules.answer);
  if (answer === undefined) {
    return { final: status === undefined ? null : { answer: null, status }, invalid: { type: 'invalid', text: message.content } };
  }
  const citations = citationMarkers(message.content, rules.citations);
  return { final: { answer, citations, text: message.content, ...(status === undefined ? {} : { status }) } };
}

/**
 * A conversation as pool-row steps and final answer. `status` is the stop reason the log gives
 * (`termination_reason`, `status`, the last message's `finish_reason`), kept as `final.status`.
 */
export function chatTrajectory(messages: readonly ChatMessage[], rules: ChatRules, status?: string): ChatTrajectory {
  const steps: StepJson[] = [];
  const pieces: StepPiece[] = [];
  const unexecuted: [number, number][] = [];
  const push = (step: StepJson, piece: StepPiece): void => {
    steps.push(step);
    pieces.push(piece);
  };
  let final: FinalJson | null = null;
  let finalMessage: number | undefined;
  let unread = 0;
  const outputFor = outputFinder(messages);
  const lastAssistant = messages.reduce((last, m, i) => (m.role === 'assistant' ? i : last), -1);
  const turns: string[] = [];
  const turnOf = new Map<number, number>();
  for (const [i, message] of messages.entries()) {
    if (message.role !== 'assistant') continue;
    turnOf.set(i, turns.length);
    turns.push(message.content);
    for (const [k, text] of (message.reasoning ?? []).entries()) if (text.trim() !== '') push({ type: 'reasoning', text }, { kind: 'reasoning', message: i, index: k });
    const { thoughts, rest } = splitThink(message.content);
    for (const [k, text] of thoughts.entries()) if (text !== '') push({ type: 'reasoning', text }, { kind: 'think', message: i, index: k });
    if (message.calls.length === 0) {
      if (i === lastAssistant) {
        const ended = finalOf(message, rules, status ?? message.finishReason);
        final = ended.final;
        if (ended.invalid !== undefined) push(ended.invalid, { kind: 'turn', message: i });
        else finalMessage = i;
      } else {
        push({ type: 'invalid', text: message.content }, { kind: 'turn', message: i });
      }
      continue;
    }
    const beside = rest.trim();
    if (beside !== '') push({ type: 'reasoning', text: beside }, { kind: 'beside', message: i });
    for (const [c, call] of message.calls.entries()) {
      const answer = outputFor(call, i);
      // The rollout ended before the environment ran this call (max turns, a forced last turn): it
      // retrieved nothing and was not charged.
      if (answer === undefined && i === lastAssistant) {
        unexecuted.push([i, c]);
        continue;
      }
      const converted = callSteps(call, answer === undefined ? undefined : messages[answer]?.content, rules);
      for (const [part, step] of converted.steps.entries()) {
        push(step, { kind: 'call', message: i, call: c, part, parts: converted.steps.length, ...(answer === undefined ? {} : { answer }) });
      }
      unread += converted.unread;
    }
  }
  if (final === null && status !== undefined) final = { answer: null, status };
  const stepTurns = pieces.map((p) => turnOf.get(p.message) ?? 0);
  return { steps, pieces, turns, stepTurns, final, ...(finalMessage === undefined ? {} : { finalMessage }), unexecuted, unreadSearchOutputs: unread };
}
