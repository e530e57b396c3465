// OpenAI-style chat messages as the frameworks log them, read into one shape: the plain message
// (`tool_calls[{id, type: "function", function: {name, arguments}}]`, `arguments` a JSON string),
// ART's Choice wrapper (`{finish_reason, message}`) and Parquet flattening (`tool_calls` itself a
// JSON string), and the slime/CaRR variant (calls without the `function` wrapper, tool content a
// list of `{tool_call_id, output}`). Nothing here decides what a message means: ./chat-trajectory.ts does.

import { maxImportedToolCalls } from '../problems/limits.js';
import { jsonDocument } from './chat-records.js';

/** A tool call as logged: `args` is the parsed arguments object, absent when they are not a JSON object. */
export interface ChatCall {
  readonly id?: string;
  readonly name: string;
  /** The arguments as the model wrote them (a JSON string in the OpenAI format). */
  readonly argsText: string;
  readonly args?: Readonly<Record<string, unknown>>;
}

export interface ChatMessage {
  readonly role: string;
  /** Text content; content parts (`[{type: "text", text}]`) joined with newlines; null as "". */
  readonly content: string;
  /** `reasoning_content` (or `reasoning`) when the server split the think text off; Responses-API and BrowseComp-Plus reasoning items, one each. */
  readonly reasoning?: readonly string[];
  readonly calls: readonly ChatCall[];
  /** On a tool message: the call it answers. */
  readonly callId?: string;
  /** ART's Choice wrapper and some servers log why generation stopped. */
  readonly finishReason?: string;
}

export type Parsed<T> = { readonly ok: true; readonly value: T } | { readonly ok: false; readonly reason: string };

export function isObject(value: unknown): value is Readonly<Record<string, unknown>> {
  return value !== null && typeof value === 'object' && !Array.isArray(value);
}

/** JSON inside a field (ART's `tool_calls`, a call's `arguments`); undefined when it is not JSON, or nested too deep to write back. */
function parseJson(text: string): unknown {
  const read = jsonDocument(text);
  return read.ok ? read.value : undefined;
}

function textOf(content: unknown): string | undefined {
  if (content === null || content === undefined) return '';
  if (typeof content === 'string') return content;
  if (!Array.isArray(content)) return undefined;
  const parts: string[] = [];
  for (const part of content) {
    if (typeof part === 'string') parts.push(part);
    else if (isObject(part) && typeof part.text === 'string') parts.push(part.text);
    else if (isObject(part) && typeof part.output === 'string') parts.push(part.output);
    else return undefined;
  }
  return parts.join('\n');
}

function callOf(value: unknown, where: string): Parsed<ChatCall> {
  if (!isObject(value)) return { ok: false, reason: `${where}: a tool call must be an object` };
  // OpenAI nests name and arguments under `function`; slime/CaRR puts them on the call itself.
  const body = isObject(value.function) ? value.function : value;
  const name = body.name;
  if (typeof name !== 'string' || name === '') return { ok: false, reason: `${where}: a tool call needs a name` };
  const rawArgs = body.arguments ?? body.args ?? body.parameters;
  const argsText = typeof rawArgs === 'string' ? rawArgs : rawArgs === undefined || rawArgs === null ? '' : JSON.stringify(rawArgs);
  const parsedArgs = typeof rawArgs === 'string' ? parseJson(rawArgs) : rawArgs;
  const rawId = value.id ?? value.tool_call_id ?? value.call_id;
  const id = typeof rawId === 'string' && rawId !== '' ? rawId : undefined;
  return { ok: true, value: { ...(id === undefined ? {} : { id }), name, argsText, ...(isObject(parsedArgs) ? { args: parsedArgs } : {}) } };
}

function callsOf(value: unknown, where: string): Parsed<ChatCall[]> {
  if (value === null || value === undefined || value === '') return { ok: true, value: [] };
  // ART's Parquet files keep `tool_calls` as a JSON string.
  const list = typeof value === 'string' ? parseJson(value) : value;
  if (!Array.isArray(list)) return { ok: false, reason: `${where}.tool_calls: expected a list of tool calls` };
  const calls: ChatCall[] = [];
  for (const [i, item] of list.entries()) {
    const call = callOf(item, `${where}.tool_calls[${i}]`);
    if (!call.ok) return call;
    calls.push(call.value);
  }
  return { ok: true, value: calls };
}

function optionalString(value: unknown): string | undefined {
  return typeof value === 'string' && value !== '' ? value : undefined;
}

/** slime/CaRR answer several calls in one tool message: `content: [{tool_call_id, output}, …]`. */
function splitToolMessage(value: Readonly<Record<string, unknown>>): ChatMessage[] | undefined {
  const content = value.content;
  if (!Array.isArray(content) || content.length === 0) return undefined;
  if (!content.every((part) => isObject(part) && typeof part.tool_call_id === 'string')) return undefined;
  return content.filter(isObject).map((part) => ({
    role: 'tool',
    content: typeof part.output === 'string' ? part.output : JSON.stringify(part.output ?? ''),
    calls: [],
    ...(typeof part.tool_call_id === 'string' ? { callId: part.tool_call_id } : {}),
  }));
}

/** One logged message as one or more chat messages (a slime tool message answering several calls is several). */
function messagesOf(raw: unknown, where: string): Parsed<ChatMessage[]> {
  if (!isObject(raw)) return { ok: false, reason: `${where}: expected a message object` };
  const wrapped = isObject(raw.message) && 'finish_reason' in raw;
  const value = wrapped && isObject(raw.message) ? raw.message : raw;
  const role = value.role ?? (wrapped ? 'assistant' : undefined);
  if (typeof role !== 'string') return { ok: false, reason: `${where}.role: expected a string` };
  if (role === 'tool') {
    const split = splitToolMessage(value);
    if (split !== undefined) return { ok: true, value: split };
  }
  const content = textOf(value.content);
  if (content === undefined) return { ok: false, reason: `${where}.content: expected text, null or a list of text parts` };
  const calls = callsOf(value.tool_calls, where);
  if (!calls.ok) return calls;
  const reasoning = optionalString(value.reasoning_content) ?? optionalString(value.reasoning);
  const callId = optionalString(value.tool_call_id);
  const finishReason = optionalString(raw.finish_reason) ?? optionalString(value.finish_reason);
  return {
    ok: true,
    value: [{
      role,
      content,
      calls: calls.value,
      ...(reasoning === undefined ? {} : { reasoning: [reasoning] }),
      ...(callId === undefined ? {} : { callId }),
      ...(finishReason === undefined ? {} : { finishReason }),
    }],
  };
}

/** Why a record with this many tool calls is skipped, or undefined when it is within maxImportedToolCalls. */
export function toolCallsReason(calls: number, where: string): string | undefined {
  return calls <= maxImportedToolCalls ? undefined : `${where}: more than ${maxImportedToolCalls.toLocaleString('en-US')} tool calls, the limit per record (maxImportedToolCalls)`;
}

/** A logged message list in the one shape, or the first message that cannot be read (`where` names the field). */
export function chatMessages(raw: unknown, where: string): Parsed<ChatMessage[]> {
  if (!Array.isArray(raw)) return { ok: false, reason: `${where}: expected a list of messages` };
  const messages: ChatMessage[] = [];
  let calls = 0;
  for (const [i, item] of raw.entries()) {
    const read = messagesOf(item, `${where}[${i}]`);
    if (!read.ok) return read;
    for (const message of read.value) {
      calls += message.calls.length;
      messages.push(message);
    }
    const tooMany = toolCallsReason(calls, where);
    if (tooMany !== undefined) return { ok: false, reason: tooMany };
  }
  return { ok: true, value: messages };
}

/** The first user message's text: the question, when the log does not give it elsewhere. */
export function firstUserText(messages: readonly ChatMessage[]): string | undefined {
  return messages.find((m) => m.role === 'user')?.content;
}

/**
 * A prompt logged as messages, as the text `meta.prompt` holds: their contents in order, joined with a
 * line feed. The roles and the chat template the model saw them through are not in it (the log does
 * not hold the rendered text). Undefined for no messages.
 */
export function promptText(messages: readonly ChatMessage[]): string | undefined {
  return messages.length === 0 ? undefined : messages.map((m) => m.content).join('\n');
}

/** A conversation's prompt as text (`promptText`): the messages before the model's first turn. */
export function conversationPrompt(messages: readonly ChatMessage[]): string | undefined {
  const first = messages.findIndex((m) => m.role === 'assistant');
  return promptText(first < 0 ? messages : messages.slice(0, first));
}
