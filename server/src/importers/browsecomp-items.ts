// A BrowseComp-Plus run's `result` items (`{type: tool_call|reasoning|output_text, tool_name,
// arguments, output}`) laid out as the chat messages they were: a call and its output; reasoning and
// text before a call ride on that call's turn; what follows the last call is the final message.
// Each message keeps which items it was read from, for the render direction (./browsecomp-render.ts).
import { isObject, toolCallsReason } from './chat-messages.js';
import type { ChatCall, ChatMessage } from './chat-messages.js';

function textOf(value: unknown): string {
  if (typeof value === 'string') return value;
  // Reasoning summaries are `[{type: "summary_text", text}]`.
  if (Array.isArray(value)) return value.map((part) => (isObject(part) && typeof part.text === 'string' ? part.text : typeof part === 'string' ? part : '')).filter((t) => t !== '').join('\n');
  return value === null || value === undefined ? '' : JSON.stringify(value);
}

function callOf(item: Readonly<Record<string, unknown>>, index: number): ChatCall {
  const raw = item.arguments;
  const argsText = typeof raw === 'string' ? raw : raw === null || raw === undefined ? '' : JSON.stringify(raw);
  let args: unknown = raw;
  if (typeof raw === 'string') {
    try {
      args = JSON.parse(raw);
    } catch {
      args = undefined;
    }
  }
  return { id: `call_${index}`, name: typeof item.tool_name === 'string' ? item.tool_name : 'unknown', argsText, ...(isObject(args) ? { args } : {}) };
}

/** Which items a message of the layout was read from: its reasoning items (those with text, in order), its text items, its call item. */
export interface ItemOrigin {
  readonly reasoning: readonly number[];
  readonly text: readonly number[];
  readonly call?: number;
}

export interface ItemLayout {
  readonly messages: ChatMessage[];
  /** Per message, the items it was read from (a tool message: its call's item). */
  readonly origins: ItemOrigin[];
}

/**
 * The `result` items as chat messages; or why an item cannot be read. A call item whose `output` is
 * null or absent has no tool message: the run ended before it was executed.
 */
export function itemMessages(result: readonly unknown[]): { ok: true; value: ItemLayout } | { ok: false; reason: string } {
  const messages: ChatMessage[] = [];
  const origins: ItemOrigin[] = [];
  let reasoning: string[] = [];
  let reasoningAt: number[] = [];
  let beside: string[] = [];
  let besideAt: number[] = [];
  let calls = 0;
  for (const [i, item] of result.entries()) {
    if (!isObject(item)) return { ok: false, reason: `result[${i}]: expected an object` };
    if (item.type === 'reasoning') {
      const text = textOf(item.output);
      if (text !== '') {
        reasoning.push(text);
        reasoningAt.push(i);
      }
    } else if (item.type === 'tool_call') {
      if (typeof item.tool_name !== 'string') return { ok: false, reason: `result[${i}].tool_name: expected a string` };
      const tooMany = toolCallsReason(++calls, 'result');
      if (tooMany !== undefined) return { ok: false, reason: tooMany };
      const call = callOf(item, i);
      const pending = reasoning.length === 0 ? {} : { reasoning };
      messages.push({ role: 'assistant', content: beside.join('\n'), calls: [call], ...pending });
      origins.push({ reasoning: reasoningAt, text: besideAt, call: i });
      if (item.output !== null && item.output !== undefined) {
        messages.push({ role: 'tool', content: textOf(item.output), calls: [], callId: `call_${i}` });
        origins.push({ reasoning: [], text: [], call: i });
      }
      reasoning = [];
      reasoningAt = [];
      beside = [];
      besideAt = [];
    } else if (item.type === 'output_text') {
      beside.push(textOf(item.output));
      besideAt.push(i);
    } else {
      return { ok: false, reason: `result[${i}].type: expected tool_call, reasoning or output_text` };
    }
  }
  if (beside.length > 0 || reasoning.length > 0) {
    messages.push({ role: 'assistant', content: beside.join('\n'), calls: [], ...(reasoning.length === 0 ? {} : { reasoning }) });
    origins.push({ reasoning: reasoningAt, text: besideAt });
  }
  return { ok: true, value: { messages, origins } };
}

