// The one converter from chat messages to a pool row's `steps` and `final` (format v2), shared by
// the rllm, ART, TRL and BrowseComp-Plus importers. Rules (docs/import.md):
// - assistant reasoning (`reasoning_content`, `<think>` blocks, text beside tool calls) → `reasoning`;
// - each tool call → a `search` step (one per query) when its tool is a search tool, else a `tool`
//   step; the tool message answering it (by `tool_call_id`, else the next unanswered one) gives the
//   results, or stays text (`output`);
// - a call whose arguments are not a JSON object, and an assistant turn that is neither a call nor
//   the last turn, → `invalid` (the model produced no usable action);
// - the last assistant message without tool calls is the final answer when the answer rule finds
//   one in it; when it finds none, that turn is `invalid` and the trajectory has no final.
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

export interface ChatTrajectory {
  readonly steps: readonly StepJson[];
  readonly final: FinalJson | null;
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

/** Tool messages answer calls by `tool_call_id`; a log without ids answers them in order. */
function outputFinder(messages: readonly ChatMessage[]): (call: ChatCall, after: number) => string | undefined {
  const used = new Set<number>();
  return (call, after) => {
    let index = call.id === undefined ? -1 : messages.findIndex((m, i) => !used.has(i) && m.role === 'tool' && m.callId === call.id);
    if (index < 0) {
      index = messages.findIndex((m, i) => i > after && !used.has(i) && m.role === 'tool' && (m.callId === undefined || call.id === undefined));
      const nextAssistant = messages.findIndex((m, i) => i > after && m.role === 'assistant');
      if (nextAssistant >= 0 && index > nextAssistant) index = -1;
    }
    if (index < 0) return undefined;
    used.add(index);
    return messages[index]?.content;
  };
}

function reasoningSteps(message: ChatMessage): StepJson[] {
  const { thoughts } = splitThink(message.content);
  return [...(message.reasoning === undefined ? [] : [message.reasoning]), ...thoughts]
    .filter((text) => text.trim() !== '')
    .map((text) => ({ type: 'reasoning', text }));
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
  let final: FinalJson | null = null;
  let unread = 0;
  const outputFor = outputFinder(messages);
  const lastAssistant = messages.reduce((last, m, i) => (m.role === 'assistant' ? i : last), -1);
  for (const [i, message] of messages.entries()) {
    if (message.role !== 'assistant') continue;
    steps.push(...reasoningSteps(message));
    if (message.calls.length === 0) {
      if (i === lastAssistant) {
        const ended = finalOf(message, rules, status ?? message.finishReason);
        final = ended.final;
        if (ended.invalid !== undefined) steps.push(ended.invalid);
      } else {
        steps.push({ type: 'invalid', text: message.content });
      }
      continue;
    }
    const beside = splitThink(message.content).rest.trim();
    if (beside !== '') steps.push({ type: 'reasoning', text: beside });
    for (const call of message.calls) {
      const converted = callSteps(call, outputFor(call, i), rules);
      steps.push(...converted.steps);
      unread += converted.unread;
    }
  }
  if (final === null && status !== undefined) final = { answer: null, status };
  return { steps, final, unreadSearchOutputs: unread };
}
