// Plain conversations, for the agents people write themselves: JSONL, one conversation per line,
// either in OpenAI chat-completions form (`messages` with `tool_calls` and `tool` messages) or as
// Responses-API items (`input` and `output` lists of `message`, `function_call` {call_id, name,
// arguments}, `function_call_output` {call_id, output} and `reasoning` {summary} items). Both are
// read by the shared chat converter; the keys of the row id, question, gold and group are options.
import { z } from 'zod';
import { chatMessages, firstUserText, isObject } from './chat-messages.js';
import type { ChatCall, ChatMessage, Parsed } from './chat-messages.js';
import { chatOptionDocs, chatOptionValues, chatOptionShape, chatRules } from './chat-options.js';
import { fileStem, stringsOf, idText } from './chat-records.js';
import { chatRulesJson, messagesRenderer } from './chat-render.js';
import { ImportTally } from './chat-row.js';
import { chatTrajectory } from './chat-trajectory.js';
import { groupRecovery } from './derived-ids.js';
import type { Importer } from './importer.js';
import { jsonlRecords } from './jsonl-records.js';

const defaults = { answer: 'whole', citations: 'none' } as const;

const options = z
  .strictObject({
    ...chatOptionShape(defaults),
    id_key: z.string().default('id'),
    question_key: z.string().default('question'),
    answers_key: z.string().default('answers'),
    group_key: z.string().default('group'),
  })
  .transform((o) => ({ rules: chatRules(o), keys: { id: o.id_key, question: o.question_key, answers: o.answers_key, group: o.group_key } }));

type MessagesOptions = z.output<typeof options>;

function itemText(content: unknown): string | undefined {
  if (content === null || content === undefined) return '';
  if (typeof content === 'string') return content;
  if (!Array.isArray(content)) return undefined;
  const parts: string[] = [];
  for (const part of content) {
    if (isObject(part) && typeof part.text === 'string') parts.push(part.text);
    else if (typeof part === 'string') parts.push(part);
    else return undefined;
  }
  return parts.join('\n');
}

function summaryText(summary: unknown): string {
  if (typeof summary === 'string') return summary;
  if (!Array.isArray(summary)) return '';
  return summary.map((s) => (isObject(s) && typeof s.text === 'string' ? s.text : typeof s === 'string' ? s : '')).filter((t) => t !== '').join('\n');
}

/**
 * Responses-API items as chat messages: reasoning items and an assistant `message` ride on the turn
 * of the `function_call` items that follow them; a `function_call_output` is the tool message of
 * its `call_id`; an assistant message with no call after it is a turn of its own (the final one, or
 * an invalid action).
 */
export function responsesMessages(items: readonly unknown[], where: string): Parsed<ChatMessage[]> {
  const messages: ChatMessage[] = [];
  let reasoning: string[] = [];
  let text: string | undefined;
  let calls: ChatCall[] = [];
  const flush = (): void => {
    if (calls.length === 0 && text === undefined && reasoning.length === 0) return;
    messages.push({ role: 'assistant', content: text ?? '', calls, ...(reasoning.length === 0 ? {} : { reasoning }) });
    reasoning = [];
    text = undefined;
    calls = [];
  };
  for (const [i, item] of items.entries()) {
    const at = `${where}[${i}]`;
    if (typeof item === 'string') {
      flush();
      messages.push({ role: 'user', content: item, calls: [] });
      continue;
    }
    if (!isObject(item)) return { ok: false, reason: `${at}: expected an item object` };
    const type = item.type ?? (typeof item.role === 'string' ? 'message' : undefined);
    if (type === 'reasoning') {
      if (calls.length > 0 || text !== undefined) flush();
      const t = summaryText(item.summary ?? item.content);
      if (t.trim() !== '') reasoning.push(t);
    } else if (type === 'function_call') {
      if (typeof item.name !== 'string' || item.name === '') return { ok: false, reason: `${at}.name: a function_call needs a name` };
      const argsText = typeof item.arguments === 'string' ? item.arguments : item.arguments === undefined || item.arguments === null ? '' : JSON.stringify(item.arguments);
      let args: unknown = item.arguments;
      if (typeof item.arguments === 'string') {
        try {
          args = JSON.parse(item.arguments);
        } catch {
          args = undefined;
        }
      }
      const id = idText(item.call_id) ?? idText(item.id);
      calls.push({ ...(id === undefined ? {} : { id }), name: item.name, argsText, ...(isObject(args) ? { args } : {}) });
    } else if (type === 'function_call_output') {
      flush();
      const output = typeof item.output === 'string' ? item.output : itemText(item.output) ?? JSON.stringify(item.output ?? '');
      const callId = idText(item.call_id);
      messages.push({ role: 'tool', content: output, calls: [], ...(callId === undefined ? {} : { callId }) });
    } else if (type === 'message') {
      const content = itemText(item.content);
      if (typeof item.role !== 'string') return { ok: false, reason: `${at}.role: expected a string` };
      if (content === undefined) return { ok: false, reason: `${at}.content: expected text or a list of text parts` };
      if (item.role === 'assistant') {
        if (calls.length > 0 || text !== undefined) flush();
        text = content;
      } else {
        flush();
        messages.push({ role: item.role, content, calls: [] });
      }
    } else {
      return { ok: false, reason: `${at}.type: expected message, function_call, function_call_output or reasoning` };
    }
  }
  flush();
  return { ok: true, value: messages };
}

function conversationOf(record: Readonly<Record<string, unknown>>): Parsed<{ messages: ChatMessage[]; chat: boolean }> {
  if (Array.isArray(record.messages)) {
    const read = chatMessages(record.messages, 'messages');
    return read.ok ? { ok: true, value: { messages: read.value, chat: true } } : read;
  }
  if (record.input === undefined && record.output === undefined) return { ok: false, reason: "no conversation: expected 'messages' (chat completions) or 'input'/'output' (Responses-API items)" };
  const input = typeof record.input === 'string' ? [record.input] : (record.input ?? []);
  const output = record.output ?? [];
  if (!Array.isArray(input)) return { ok: false, reason: 'input: expected text or a list of items' };
  if (!Array.isArray(output)) return { ok: false, reason: 'output: expected a list of items' };
  const read = responsesMessages([...input, ...output], 'input+output');
  return read.ok ? { ok: true, value: { messages: read.value, chat: false } } : read;
}

export const messagesImporter: Importer<MessagesOptions> = {
  format: 'messages',
  summary: 'plain conversations, one JSON object per line: chat-completions `messages` or Responses-API `input`/`output` items',
  options,
  optionDocs: {
    ...chatOptionDocs(defaults),
    id_key: 'key of the row id (default `id`; absent: `FILESTEM:LINE`)',
    question_key: 'key of the question text (default `question`; absent: the first user message)',
    answers_key: 'key of the gold answers, a string or a list (default `answers`; absent: empty gold, noted)',
    group_key: 'key of the group (default `group`; absent: recovered from identical prompts, the messages before the first assistant turn)',
  },
  optionValues: chatOptionValues,
  renderer: messagesRenderer('messages'),
  run(files, o, emit) {
    const tally = new ImportTally(emit);
    const recovery = groupRecovery();
    let recovered = 0;
    let responses = 0;
    for (const file of files) {
      const { records, issues, read } = jsonlRecords(file);
      tally.read += read;
      for (const issue of issues) tally.skipped.push(issue);
      for (const { at, value } of records) {
        const conversation = conversationOf(value);
        if (!conversation.ok) {
          tally.skip(at, conversation.reason);
          continue;
        }
        const { messages, chat } = conversation.value;
        if (!chat) responses++;
        const question = typeof value[o.keys.question] === 'string' ? (value[o.keys.question] as string) : firstUserText(messages);
        if (question === undefined) {
          tally.skip(at, `no question: no '${o.keys.question}' key and no message is from the user`);
          continue;
        }
        const answers = stringsOf(value[o.keys.answers]);
        if (answers === undefined) {
          tally.skip(at, `${o.keys.answers}: expected a string or a list of strings`);
          continue;
        }
        const loggedGroup = idText(value[o.keys.group]);
        let group: { group: string; sample?: number };
        if (loggedGroup !== undefined) group = { group: loggedGroup };
        else {
          const firstAssistant = messages.findIndex((m) => m.role === 'assistant');
          const prompt = JSON.stringify(messages.slice(0, firstAssistant === -1 ? messages.length : firstAssistant).map((m) => [m.role, m.content]));
          const before = recovery.count;
          group = recovery.next({ step: fileStem(file.path), prompt });
          if (recovery.count > before) recovered++;
        }
        const meta = {
          group: group.group,
          ...(group.sample === undefined ? {} : { sample: group.sample }),
          ...(chat ? { messages: value.messages } : {}),
          chat_rules: chatRulesJson(o.rules),
        };
        tally.add(
          {
            id: idText(value[o.keys.id]) ?? `${fileStem(file.path)}:${at.line}`,
            question,
            trajectory: chatTrajectory(messages, o.rules),
            ...(value[o.keys.answers] === undefined ? {} : { gold: { answers, support_ids: [] } }),
            meta,
          },
          at,
        );
      }
    }
    if (recovered > 0) tally.note(`${recovered} groups recovered from identical prompts within a file (meta.group = FILESTEM/K, meta.sample = the conversation's index in its group)`);
    if (responses > 0) tally.note(`${responses} conversations are Responses-API items: read, not rendered (an edit of their rows is not written back)`);
    return Promise.resolve(tally.result(recovered > 0 ? recovered : null, 'the messages format has no question id key'));
  },
};
