// The render direction of the chat-message formats (docs/import.md, "Rendering chat messages"): a
// row's edited steps and final parts written back into the conversation it was read from. Each step
// is the piece of a message it was read from (./chat-trajectory.ts `pieces`): a deleted step's piece
// is removed, a repeated one is written again right after itself, and the final answer and text go
// into the final message where the answer rule read them. Every rendering is read back with the
// same rules before it is returned: what does not read back as the edited row is `{ok: false}`.
import { rankStep } from '../pool/resolve-ids.js';
import type { Trajectory, TraceStep } from '../pool/types.js';
import { citationMarkers, extractAnswer } from './chat-final.js';
import type { AnswerRule, CitationRule } from './chat-final.js';
import { answerRules, citationRules } from './chat-final.js';
import { chatMessages, isObject } from './chat-messages.js';
import type { ChatMessage } from './chat-messages.js';
import { chatTrajectory } from './chat-trajectory.js';
import type { ChatRules, ChatTrajectory, StepJson, StepPiece } from './chat-trajectory.js';
import type { EditedRow, FormatRenderer, RenderOutcome } from './render.js';
import { tagBlocks } from './tag-blocks.js';

/** The rules a row was read with, kept in `meta.chat_rules` so the row can be rendered and read back the same way. */
export interface ChatRulesJson {
  readonly search_tools: readonly string[];
  readonly answer: AnswerRule;
  readonly citations: CitationRule;
}

export function chatRulesJson(rules: ChatRules): ChatRulesJson {
  return { search_tools: [...rules.searchTools], answer: rules.answer, citations: rules.citations };
}

/** The rules of a row's `meta.chat_rules`, or undefined when the row does not carry them. */
export function rowChatRules(row: Trajectory): ChatRules | undefined {
  const value = row.meta.chat_rules;
  if (!isObject(value) || !Array.isArray(value.search_tools)) return undefined;
  const answer = answerRules.find((r) => r === value.answer);
  const citations = citationRules.find((r) => r === value.citations);
  if (answer === undefined || citations === undefined) return undefined;
  return { searchTools: new Set(value.search_tools.filter((t): t is string => typeof t === 'string')), answer, citations };
}

export type Made<T> = { readonly ok: true; readonly value: T } | { readonly ok: false; readonly reason: string };

export function refused(reason: string): { readonly ok: false; readonly reason: string } {
  return { ok: false, reason };
}

/** How many times the edit keeps each step of the row (0: deleted; 2: repeated once), or why it cannot be written. */
export function stepCounts(edit: EditedRow, total: number): Made<number[]> {
  const counts = new Array<number>(total).fill(0);
  let last = -1;
  for (const origin of edit.stepOrigin) {
    if (origin < last) return refused('the edit reorders steps: a conversation keeps its turns in order');
    if (origin < 0 || origin >= total) return refused(`the edit names step ${origin}, which the row does not have`);
    counts[origin]! += 1;
    last = origin;
  }
  return { ok: true, value: counts };
}

/** What an edit does to the pieces of one message: a count per piece, by kind (1 for a piece with no step). */
export class PieceCounts {
  private readonly byKey = new Map<string, number>();

  constructor(pieces: readonly StepPiece[], counts: readonly number[]) {
    for (const [i, piece] of pieces.entries()) {
      const key = pieceKey(piece);
      const seen = this.byKey.get(key);
      const count = counts[i] ?? 0;
      // The steps of one call (one per query) go together: a count per call.
      this.byKey.set(key, seen === undefined || seen === count ? count : Number.NaN);
    }
  }

  /** The count of a piece; NaN when the steps of one call are kept unequally. */
  of(piece: StepPiece): number {
    return this.byKey.get(pieceKey(piece)) ?? 1;
  }
}

function pieceKey(piece: StepPiece): string {
  switch (piece.kind) {
    case 'reasoning':
    case 'think':
      return `${piece.kind}:${piece.message}:${piece.index}`;
    case 'call':
      return `call:${piece.message}:${piece.call}`;
    default:
      return `${piece.kind}:${piece.message}`;
  }
}

/** The count of the call `c` of message `m`, or why it cannot be written (some of its queries kept, or repeated with several). */
export function callCount(counts: PieceCounts, pieces: readonly StepPiece[], m: number, c: number): Made<number> {
  const piece = pieces.find((p) => p.kind === 'call' && p.message === m && p.call === c);
  if (piece === undefined) return { ok: true, value: 1 };
  const count = counts.of(piece);
  if (Number.isNaN(count)) return refused(`the edit deletes or repeats some of the queries of one call (message ${m}, call ${c}), which its arguments and output hold together`);
  if (count > 1 && piece.kind === 'call' && piece.parts > 1) return refused(`the edit repeats one query of a call with several (message ${m}, call ${c})`);
  return { ok: true, value: count };
}

/** `text` with its answer replaced by `answer` where `rule` reads it, or undefined when the rule reads none there. */
export function writeAnswer(text: string, rule: AnswerRule, answer: string): string | undefined {
  switch (rule) {
    case 'boxed': {
      const start = text.lastIndexOf('\\boxed{');
      if (start < 0) return undefined;
      const open = start + '\\boxed{'.length;
      let depth = 1;
      for (let i = open; i < text.length; i++) {
        if (text[i] === '{') depth++;
        else if (text[i] === '}' && --depth === 0) return text.slice(0, open) + answer + text.slice(i);
      }
      return undefined;
    }
    case 'answer_tag': {
      const block = tagBlocks(text, '<answer>', '</answer>').at(-1);
      return block === undefined ? undefined : text.slice(0, block.start + '<answer>'.length) + answer + text.slice(block.end - '</answer>'.length);
    }
    case 'exact_answer': {
      const lines = [...text.matchAll(/^([^\S\n]*\**Exact Answer\**[^\S\n]*:\**[^\S\n]*)(.*)$/gim)];
      const line = lines.at(-1);
      if (line?.index === undefined) return undefined;
      const from = line.index + (line[1] ?? '').length;
      return text.slice(0, from) + answer + text.slice(from + (line[2] ?? '').length);
    }
    case 'whole': {
      // The answer is the text outside `<think>` blocks: written in place of the one segment that holds it.
      const blocks = tagBlocks(text, '<think>', '</think>');
      const segments: [number, number][] = [];
      let from = 0;
      for (const block of blocks) {
        segments.push([from, block.start]);
        from = block.end;
      }
      segments.push([from, text.length]);
      const holding = segments.filter(([a, b]) => text.slice(a, b).trim() !== '');
      if (holding.length !== 1) return undefined;
      const [a, b] = holding[0]!;
      const inner = text.slice(a, b);
      const lead = inner.length - inner.trimStart().length;
      const trail = inner.length - inner.trimEnd().length;
      return text.slice(0, a + lead) + answer + text.slice(b - trail);
    }
  }
}

/** The final message's new text: the edited final text, with the edited answer written where the rule reads it. */
export function finalText(logged: string, loggedAnswer: string, edit: EditedRow, rule: AnswerRule): Made<string> {
  const text = edit.finalText;
  if (text === logged && edit.answer === loggedAnswer) return { ok: true, value: logged };
  if (extractAnswer(text, rule) === edit.answer) return { ok: true, value: text };
  const written = writeAnswer(text, rule, edit.answer);
  if (written === undefined || extractAnswer(written, rule) !== edit.answer) return refused(`the answer cannot be written where the '${rule}' rule reads it in the edited final text`);
  return { ok: true, value: written };
}

/** A message's content with its `<think>` blocks kept `count(k)` times each and the text beside them kept or dropped. */
export function thinkContent(content: string, count: (block: number) => number, keepBeside: boolean): string {
  const blocks = tagBlocks(content, '<think>', '</think>');
  let out = '';
  let from = 0;
  let index = 0;
  for (const block of blocks) {
    if (keepBeside) out += content.slice(from, block.start);
    // Blank blocks are no step: `count` says 1 for them.
    const inner = block.inside.trim();
    const times = inner === '' ? 1 : count(index);
    out += content.slice(block.start, block.end).repeat(times);
    index++;
    from = block.end;
  }
  if (keepBeside) out += content.slice(from);
  return out;
}

function withoutCallId(step: StepJson): unknown {
  return step.type === 'tool' ? { ...step, call_id: undefined } : step;
}

/** The ids the markers of a final text cite by the rule, resolved through the edited steps for `rank`; undefined when one does not resolve. */
function citedIds(text: string, rule: CitationRule, trace: readonly TraceStep[]): string[] | undefined {
  const ids: string[] = [];
  for (const marker of citationMarkers(text, rule)) {
    if ('id' in marker) {
      ids.push(marker.id);
      continue;
    }
    const at = rankStep(trace, undefined);
    const step = at === undefined ? undefined : trace[at];
    if (step === undefined || (step.type !== 'search' && step.type !== 'tool')) return undefined;
    const hit = step.hits === undefined ? step.results[marker.rank - 1] : step.hits.find((h) => h.rank === marker.rank)?.id;
    if (hit === undefined) return undefined;
    ids.push(hit);
  }
  return ids;
}

/**
 * Whether `reread` (the rendered conversation read again with the row's rules) is the edited row:
 * the same steps in order (a repeated tool step's `call_id` is its copy's, docs/import.md), the
 * edited answer and final text, and the citations its markers give.
 */
export function readsBackAs(reread: ChatTrajectory, original: ChatTrajectory, row: Trajectory, edit: EditedRow, rules: ChatRules, written: string | undefined): RenderOutcome | undefined {
  const expected = edit.stepOrigin.map((i) => original.steps[i]!);
  if (reread.steps.length !== expected.length) return refused(`the rendered conversation reads as ${reread.steps.length} steps, not the edit's ${expected.length}`);
  for (const [i, step] of reread.steps.entries()) {
    if (JSON.stringify(withoutCallId(step)) !== JSON.stringify(withoutCallId(expected[i]!))) return refused(`step ${i} of the rendered conversation does not read back as the edit's`);
  }
  const final = reread.final;
  const answer = final === null || final.answer === null ? undefined : final;
  if (answer === undefined) {
    if (edit.answer !== '' || edit.finalText !== '') return refused('the rendered conversation has no final answer to hold the edited one');
    return undefined;
  }
  // An edit that sets the answer and not the text has its answer written into the logged text.
  if (answer.answer !== edit.answer || answer.text !== (written ?? edit.finalText)) return refused('the final message does not read back as the edited answer and final text (the edit changes a step read from it)');
  const trace = row.trace ?? row.steps;
  const unchanged = answer.text === row.final?.text && edit.citations.length === (row.final?.citations.length ?? 0) && edit.citations.every((c, i) => c === row.final?.citations[i]);
  if (unchanged) return undefined;
  const cited = citedIds(answer.text, rules.citations, edit.stepOrigin.map((i) => trace[i]!));
  if (cited === undefined || cited.length !== edit.citations.length || cited.some((c, i) => c !== edit.citations[i])) {
    return refused('the edited citations are not what the markers of the edited final text cite');
  }
  return undefined;
}

/** The messages' content as the converter reads it, for a message whose content the render must change: undefined when it is not a string (a list of parts, which the render does not rewrite). */
export function stringContent(value: Readonly<Record<string, unknown>>): string | undefined {
  const content = value.content;
  if (content === null || content === undefined) return '';
  return typeof content === 'string' ? content : undefined;
}

/** A logged message list parsed item by item: the messages, and the range of them each item gave (a slime tool item answering several calls gives several). */
function parseItems(raw: readonly unknown[]): Made<{ messages: ChatMessage[]; from: number[] }> {
  const messages: ChatMessage[] = [];
  const from: number[] = [];
  for (const [i, item] of raw.entries()) {
    from.push(messages.length);
    const read = chatMessages([item], `messages[${i}]`);
    if (!read.ok) return read;
    for (const m of read.value) messages.push(m);
  }
  from.push(messages.length);
  return { ok: true, value: { messages, from } };
}

/** The message object inside ART's Choice wrapper, or the item itself. */
function innerMessage(item: Readonly<Record<string, unknown>>): Readonly<Record<string, unknown>> {
  return isObject(item.message) && 'finish_reason' in item ? item.message : item;
}

function withInner(item: Readonly<Record<string, unknown>>, inner: Readonly<Record<string, unknown>>): Readonly<Record<string, unknown>> {
  return isObject(item.message) && 'finish_reason' in item ? { ...item, message: inner } : inner;
}

/** Ids unique in the rendered conversation for the copies of a repeated call: `ID#2`, `ID#3`… (a suffix bumped past any id already used). */
class CopyIds {
  private readonly used = new Set<string>();

  constructor(messages: readonly ChatMessage[]) {
    for (const m of messages) {
      if (m.callId !== undefined) this.used.add(m.callId);
      for (const c of m.calls) if (c.id !== undefined) this.used.add(c.id);
    }
  }

  next(id: string, copy: number): string {
    let k = copy + 1;
    while (this.used.has(`${id}#${k}`)) k++;
    this.used.add(`${id}#${k}`);
    return `${id}#${k}`;
  }
}

const callIdKeys = ['id', 'tool_call_id', 'call_id'] as const;

function renamedCall(call: unknown, id: string): unknown {
  if (!isObject(call)) return call;
  const key = callIdKeys.find((k) => typeof call[k] === 'string') ?? 'id';
  return { ...call, [key]: id };
}

/**
 * A logged chat conversation (`raw`, OpenAI chat-completions form as the framework wrote it) with
 * the row's edit applied, read back to check; `status` is what the importer passed as the stop reason.
 */
export function renderMessages(raw: readonly unknown[], row: Trajectory, edit: EditedRow, rules: ChatRules, status: string | undefined): Made<unknown[]> {
  const parsed = parseItems(raw);
  if (!parsed.ok) return parsed;
  const { messages, from } = parsed.value;
  const original = chatTrajectory(messages, rules, status);
  const trace = row.trace ?? row.steps;
  if (original.steps.length !== trace.length) return refused(`the logged messages read as ${original.steps.length} steps, not the row's ${trace.length}`);
  const counted = stepCounts(edit, trace.length);
  if (!counted.ok) return counted;
  const counts = new PieceCounts(original.pieces, counted.value);
  const ids = new CopyIds(messages);
  // The copies' ids of each repeated call (undefined: the call has no id), by the index of the tool message that answers it.
  const copiesOf = new Map<number, (string | undefined)[]>();
  const final: { text?: string } = {};
  const out: unknown[] = [];
  const loggedFinal = row.final;
  for (const [r, item] of raw.entries()) {
    const first = from[r]!;
    const message = messages[first];
    if (!isObject(item) || message === undefined) {
      out.push(item);
      continue;
    }
    if (message.role === 'assistant') {
      const made = renderAssistant(item, message, first, original, counts, ids, copiesOf, edit, rules, loggedFinal, final);
      if (!made.ok) return made;
      for (const m of made.value) out.push(m);
      continue;
    }
    if (message.role === 'tool') {
      const made = renderTool(item, first, from[r + 1]!, original, counts, copiesOf);
      if (made !== undefined) out.push(...made);
      continue;
    }
    out.push(item);
  }
  const reread = parseItems(out);
  if (!reread.ok) return reread;
  const wrong = readsBackAs(chatTrajectory(reread.value.messages, rules, status), original, row, edit, rules, final.text);
  return wrong !== undefined && !wrong.ok ? wrong : { ok: true, value: out };
}

/** The tool messages of a logged tool item as rendered: each kept as often as the call it answers (copies answer the copies' ids); none when all its calls are deleted. */
function renderTool(item: Readonly<Record<string, unknown>>, first: number, end: number, original: ChatTrajectory, counts: PieceCounts, copiesOf: ReadonlyMap<number, readonly (string | undefined)[]>): unknown[] | undefined {
  const timesOf = (index: number): number => {
    const piece = original.pieces.find((p) => p.kind === 'call' && p.answer === index);
    return piece === undefined ? 1 : counts.of(piece);
  };
  const inner = innerMessage(item);
  if (end - first > 1 && Array.isArray(inner.content)) {
    // slime/CaRR: one tool message whose content lists the outputs of several calls.
    const parts: unknown[] = [];
    let changed = false;
    for (const [j, part] of inner.content.entries()) {
      const times = timesOf(first + j);
      if (times !== 1) changed = true;
      if (times > 0) parts.push(part);
      for (const id of (copiesOf.get(first + j) ?? []).slice(0, Math.max(0, times - 1))) parts.push(isObject(part) && id !== undefined ? { ...part, tool_call_id: id } : part);
    }
    if (!changed) return [item];
    return parts.length === 0 ? [] : [withInner(item, { ...inner, content: parts })];
  }
  const times = timesOf(first);
  const copies = (copiesOf.get(first) ?? []).slice(0, Math.max(0, times - 1)).map((id) => (id !== undefined && typeof inner.tool_call_id === 'string' ? withInner(item, { ...inner, tool_call_id: id }) : item));
  return times === 0 ? [] : [item, ...copies];
}

function renderAssistant(
  item: Readonly<Record<string, unknown>>,
  message: ChatMessage,
  m: number,
  original: ChatTrajectory,
  counts: PieceCounts,
  ids: CopyIds,
  copiesOf: Map<number, (string | undefined)[]>,
  edit: EditedRow,
  rules: ChatRules,
  loggedFinal: Trajectory['final'],
  final: { text?: string },
): Made<unknown[]> {
  const inner = innerMessage(item);
  const pieces = original.pieces.filter((p) => p.message === m);
  const next: Record<string, unknown> = { ...inner };
  let changed = false;
  let keptSteps = 0;
  for (const piece of pieces) if (piece.kind !== 'call' && piece.kind !== 'turn') keptSteps += counts.of(piece);
  // reasoning_content: kept, or dropped with its step; it holds one text, so it cannot be repeated.
  const reasoning = pieces.find((p) => p.kind === 'reasoning');
  if (reasoning !== undefined && counts.of(reasoning) !== 1) {
    if (counts.of(reasoning) > 1) return refused(`the edit repeats the reasoning of message ${m}, a field that holds one text`);
    delete next[typeof inner.reasoning_content === 'string' && inner.reasoning_content !== '' ? 'reasoning_content' : 'reasoning'];
    changed = true;
  }
  const thinkCount = (k: number): number => {
    const piece = pieces.find((p) => p.kind === 'think' && p.index === k);
    return piece === undefined ? 1 : counts.of(piece);
  };
  const beside = pieces.find((p) => p.kind === 'beside');
  if (beside !== undefined && counts.of(beside) > 1) return refused(`the edit repeats the text beside the calls of message ${m}`);
  const keepBeside = beside === undefined || counts.of(beside) === 1;
  const thinkChanged = pieces.some((p) => p.kind === 'think' && counts.of(p) !== 1);
  let content: string | undefined;
  if (thinkChanged || !keepBeside) {
    content = stringContent(inner);
    if (content === undefined) return refused(`message ${m}'s content is a list of parts, which the render does not rewrite`);
    content = thinkContent(content, thinkCount, keepBeside);
  }
  if (original.finalMessage === m) {
    const logged = loggedFinal?.text ?? message.content;
    const text = finalText(logged, loggedFinal?.answer ?? '', edit, rules.answer);
    if (!text.ok) return text;
    final.text = text.value;
    if (text.value !== logged) content = text.value;
  }
  if (content !== undefined) {
    next.content = content;
    changed = true;
  }
  if (message.calls.length === 0) {
    const turn = pieces.find((p) => p.kind === 'turn');
    const times = turn === undefined ? 1 : counts.of(turn);
    const rendered = changed ? withInner(item, next) : item;
    return { ok: true, value: new Array<unknown>(times).fill(rendered) };
  }
  const rawCalls = typeof inner.tool_calls === 'string' ? (JSON.parse(inner.tool_calls) as unknown) : inner.tool_calls;
  if (!Array.isArray(rawCalls)) return refused(`message ${m}'s tool_calls cannot be rewritten`);
  const calls: unknown[] = [];
  let callsChanged = false;
  for (const [c, call] of rawCalls.entries()) {
    const count = callCount(counts, original.pieces, m, c);
    if (!count.ok) return count;
    if (count.value !== 1) callsChanged = true;
    if (count.value > 0) calls.push(call);
    if (count.value > 1) {
      const id = message.calls[c]?.id;
      const copies: (string | undefined)[] = [];
      for (let k = 1; k < count.value; k++) {
        const copyId = id === undefined ? undefined : ids.next(id, k);
        copies.push(copyId);
        calls.push(copyId === undefined ? call : renamedCall(call, copyId));
      }
      const answer = original.pieces.find((p) => p.kind === 'call' && p.message === m && p.call === c);
      if (answer?.kind === 'call' && answer.answer !== undefined) copiesOf.set(answer.answer, copies);
    }
  }
  if (calls.length === 0) {
    // An assistant turn left with no call: dropped when nothing of it is a step any more.
    if (keptSteps > 0) return refused(`the edit deletes every call of message ${m} but keeps its reasoning, which would read as a turn with no call`);
    return { ok: true, value: [] };
  }
  if (callsChanged) {
    next.tool_calls = typeof inner.tool_calls === 'string' ? JSON.stringify(calls) : calls;
    changed = true;
  }
  return { ok: true, value: [changed ? withInner(item, next) : item] };
}

/**
 * The renderer of a format whose rows keep their logged conversation under `meta[key]`: a list of
 * messages, or (TRL) a text completion, which is one assistant message.
 */
export function messagesRenderer(key: string): FormatRenderer {
  return {
    renders: [key],
    render(row, edit): RenderOutcome {
      const rules = rowChatRules(row);
      if (rules === undefined) return refused('the row does not say the rules it was read with (meta.chat_rules)');
      const logged = row.meta[key];
      if (typeof logged === 'string') {
        const made = renderMessages([{ role: 'assistant', content: logged }], row, edit, rules, row.finalStatus);
        if (!made.ok) return made;
        const [only, ...more] = made.value;
        if (!isObject(only) || typeof only.content !== 'string' || more.length > 0) return refused('the edited completion is not one text');
        return { ok: true, meta: { [key]: only.content } };
      }
      if (!Array.isArray(logged)) return refused(`the row does not keep its logged messages (meta.${key})`);
      const made = renderMessages(logged, row, edit, rules, row.finalStatus);
      return made.ok ? { ok: true, meta: { [key]: made.value } } : made;
    },
  };
}
