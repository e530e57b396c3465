// Reading one tagged transcript (a model response with its tool observations spliced in) into steps
// and an answer, for any dialect of ./tagged-dialects.ts. The reader walks the text once from left
// to right, taking the earliest tag next: reasoning becomes a `reasoning` step, a call its `search`
// or `tool` steps, an observation the results of the oldest call still waiting for one, and the
// framework's invalid-action text an `invalid` step holding what the model wrote before it. The
// answer is found separately, as the frameworks' reward code finds it: the LAST `<answer>` block of
// the response, wherever it sits.
import { maxTranscriptTags } from '../problems/limits.js';
import { lastTagBlock } from './tag-blocks.js';
import type { Span } from './tagged-answers.js';
import type { Dialect } from './tagged-dialects.js';
import type { CallRead, PendingCall, StepJson } from './tagged-steps.js';

export interface Transcript {
  readonly steps: readonly StepJson[];
  /** The answer (trimmed), or null when the response has none (or, for a `\boxed{}` dialect, none boxed). */
  readonly answer: string | null;
  /** The text after the last observation: the model's final turn. */
  readonly finalText: string;
  /** Observation blocks (or parts of one) that answered no call: counted, never imported. */
  readonly unanswered: number;
  /**
   * The inside of every observation block, as written (untrimmed), in order: what a reward that reads
   * the blocks' text reads (Search-R1's retrieval bonus: a gold answer inside an `<information>` block).
   */
  readonly observations: readonly string[];
  /** Blocks opened (reasoning, calls, observations, answers, invalid actions), counted up to one past maxTranscriptTags, where reading stops. */
  readonly tags: number;
  /** Calls no observation answered before the response ended (the rollout stopped first): counted, not steps. */
  readonly unexecuted: number;
  /** The text cut into the pieces the steps were read from, in order: what a renderer writes back (./tagged-render.ts). */
  readonly layout: Layout;
  /** Where the answer's text is, for a dialect with its own answer rule (`answerAt`): what a renderer writes an edited answer into. */
  readonly answerSpan?: Span;
  /** The model's text of each turn (trimmed): the text between the framework's blocks (observations, invalid-action messages); the row's `turns`. */
  readonly turns: readonly string[];
  /** The turn each step was read from (the framework blocks that end at or before its block's start), index for index with `steps`. */
  readonly stepTurns: readonly number[];
}

/**
 * A transcript as pieces: each piece is the text of one block's steps (a reasoning block, a call with
 * the observation that answered it, an invalid action with the framework's message), with the text
 * before it back to the previous piece; what follows the last piece (the final turn) is the tail.
 * Concatenated in order, the pieces and the tail are the transcript.
 */
export interface Layout {
  readonly pieces: readonly Piece[];
  readonly tailStart: number;
  /** Set when an observation answers a call after a later block began: the pieces would overlap, so none is cut. */
  readonly entangled: boolean;
}

export interface Piece {
  readonly start: number;
  readonly end: number;
  /** The indices of the steps read from this piece, in order (a call of several queries: several). */
  readonly steps: readonly number[];
  /** Its block was never closed (the response was cut there): it runs to the end of the text, so nothing can follow it. */
  readonly unclosed: boolean;
}

/** Where each step was read: the start of its block and the end of its own text (its observation's end, for a call). */
interface StepSpan {
  readonly block: number;
  end: number;
  readonly unclosed: boolean;
}

type Mark = 'think' | 'call' | 'observation' | 'answer' | 'invalid';

/** One opening mark of the dialect: what it opens, the text that closes it, and how a call's inside is read. */
interface Opening {
  readonly mark: Mark;
  readonly open: string;
  readonly close: string;
  readonly read?: (inside: string) => CallRead;
}

/**
 * The earliest of the dialect's opening marks at or after `from`. Each mark's next position is kept
 * until the reader passes it, so a mark the text never holds is searched for once, not once per tag.
 */
function markFinder(text: string, opens: readonly Opening[]): (from: number) => { opening: Opening; at: number } | undefined {
  const next = opens.map(() => -2);
  return (from) => {
    let best: { opening: Opening; at: number } | undefined;
    for (const [i, opening] of opens.entries()) {
      if (next[i] !== -1 && next[i]! < from) next[i] = text.indexOf(opening.open, from);
      const at = next[i]!;
      if (at !== -1 && (best === undefined || at < best.at)) best = { opening, at };
    }
    return best;
  };
}

/**
 * Where the framework's turn after an observation ends: just past the first of `marks` at or after
 * `from`, or the end of the text. As in markFinder, each mark's next position is kept until passed,
 * so a mark the text lacks is searched for once, not once per observation.
 */
function turnEndFinder(text: string, marks: readonly string[]): (from: number) => number {
  const next = marks.map(() => -2);
  return (from) => {
    let end = text.length;
    for (const [i, mark] of marks.entries()) {
      if (next[i] !== -1 && next[i]! < from) next[i] = text.indexOf(mark, from);
      if (next[i] !== -1) end = Math.min(end, next[i]! + mark.length);
    }
    return end;
  };
}

/** The inside of the last `\boxed{…}` (braces balanced), if any. */
export function lastBoxed(text: string): string | undefined {
  const start = text.lastIndexOf('\\boxed{');
  if (start === -1) return undefined;
  let depth = 0;
  for (let i = start + '\\boxed'.length; i < text.length; i++) {
    if (text[i] === '{') depth++;
    else if (text[i] === '}' && --depth === 0) return text.slice(start + '\\boxed{'.length, i).trim();
  }
  return undefined;
}

/**
 * Search-R1's `qa_em` rule on the response alone: the inside of the last `<answer>…</answer>`, as
 * `re.finditer(r"<answer>(.*?)</answer>", text, re.DOTALL)` pairs them (./tag-blocks.ts), leaving out
 * a block that overlaps the `framework`'s own text: its invalid-action message names `<answer> and
 * </answer>` as an example, which the model never answered.
 */
export function lastAnswer(text: string, boxed: boolean, framework: readonly Span[] = []): string | null {
  const last = lastTagBlock(text, '<answer>', '</answer>', (block) => !framework.some((s) => block.start < s.end && s.start < block.end));
  if (last === undefined) return null;
  return boxed ? (lastBoxed(last) ?? null) : last.trim();
}

/** The framework's invalid-action message runs to the end of its line. */
const invalidClose = '\n';

export function readTranscript(text: string, dialect: Dialect): Transcript {
  const opens: Opening[] = [
    ...dialect.reasoning.map((tag): Opening => ({ mark: 'think', ...tag })),
    ...dialect.calls.map((call): Opening => ({ mark: 'call', open: call.open, close: call.close, read: (inside) => call.read(inside) })),
    ...dialect.observations.map((tag): Opening => ({ mark: 'observation', ...tag })),
    { mark: 'answer', open: '<answer>', close: '</answer>' },
    ...(dialect.invalidMarker === undefined ? [] : [{ mark: 'invalid', open: dialect.invalidMarker, close: invalidClose } as const]),
  ];
  const steps: StepJson[] = [];
  const spans: StepSpan[] = [];
  /** Each call waiting for its observation, with the indices of the steps it made. */
  const waiting: { readonly call: PendingCall; readonly steps: readonly number[] }[] = [];
  const push = (step: StepJson, block: number, end: number, unclosed = false): number => {
    steps.push(step);
    spans.push({ block, end, unclosed });
    return steps.length - 1;
  };
  const observations: string[] = [];
  /** The framework's blocks in order (observations with its turn after them, invalid-action messages): what ends a model turn. */
  const answered: Span[] = [];
  let unanswered = 0;
  let pos = 0;
  let lastObservationEnd = 0;
  let tags = 0;
  /** The framework's invalid-action messages: no answer is read inside one. */
  const framework: Span[] = [];
  /** The message at `at`, through its line: an `invalid` step holding the model's text before it; returns where reading goes on. */
  /** Steps of calls the framework answered with its invalid-action text: never executed, part of that invalid step. */
  const refused = new Set<number>();
  const invalid = (at: number): number => {
    const lineEnd = text.indexOf(invalidClose, at);
    const end = lineEnd === -1 ? text.length : lineEnd + invalidClose.length;
    // The framework answers a turn it found no action in with this text, not with an observation:
    // a call of that turn still waiting (`<search></search>`) was not executed.
    const from = waiting.length === 0 ? pos : spans[waiting[0]!.steps[0]!]!.block;
    for (const call of waiting.splice(0)) for (const i of call.steps) refused.add(i);
    push({ type: 'invalid', text: text.slice(from, at).trim() }, from, end);
    framework.push({ start: at, end });
    answered.push({ start: at, end });
    lastObservationEnd = end;
    return end;
  };
  const nextMark = markFinder(text, opens);
  const turnEnd = dialect.observationTurnEnd === undefined ? undefined : turnEndFinder(text, dialect.observationTurnEnd);
  // Past the limit the record is skipped (tagged-import.ts): reading further would only cost time.
  for (let found = nextMark(pos); found !== undefined && tags <= maxTranscriptTags; found = nextMark(pos)) {
    tags++;
    const { opening } = found;
    const body = found.at + opening.open.length;
    const closeAt = text.indexOf(opening.close, body);
    // A block the model opened and never closed, followed by the framework's invalid-action text:
    // the framework saw no action, so the model's text up to that message is one `invalid` step, and
    // the message's example tags (`<search> and </search>`) close nothing.
    // An observation is the framework's own and always closed.
    const modelBlock = opening.mark !== 'invalid' && opening.mark !== 'observation';
    const invalidAt = !modelBlock || dialect.invalidMarker === undefined ? -1 : text.indexOf(dialect.invalidMarker, body);
    if (invalidAt !== -1 && (closeAt === -1 || invalidAt < closeAt)) {
      pos = invalid(invalidAt);
      continue;
    }
    // An unclosed block (a truncated response) runs to the end of the text.
    const inside = text.slice(body, closeAt === -1 ? text.length : closeAt);
    let end = closeAt === -1 ? text.length : closeAt + opening.close.length;
    switch (opening.mark) {
      case 'think':
        push({ type: 'reasoning', text: inside.trim() }, found.at, end, closeAt === -1);
        break;
      case 'call': {
        const read = opening.read!(inside);
        if ('invalid' in read) push({ type: 'invalid', text: read.invalid }, found.at, end, closeAt === -1);
        else {
          const made = read.pending.kind === 'search' ? read.pending.steps : [read.pending.step];
          waiting.push({ call: read.pending, steps: made.map((step) => push(step, found.at, end, closeAt === -1)) });
        }
        break;
      }
      case 'observation': {
        // The framework's own turn after it (its instructions again) is part of the observation's piece; nothing in it is read.
        if (turnEnd !== undefined && end < text.length) {
          const turn = turnEnd(end);
          framework.push({ start: end, end: turn });
          end = turn;
        }
        const call = waiting.shift();
        unanswered += call === undefined ? 1 : dialect.answer(inside, call.call);
        for (const i of call?.steps ?? []) spans[i]!.end = end;
        observations.push(inside);
        answered.push({ start: found.at, end });
        lastObservationEnd = end;
        break;
      }
      case 'invalid':
        invalid(found.at);
        break;
      case 'answer':
        break;
    }
    pos = end;
  }
  // A call still waiting when the response ends was never executed (the rollout stopped at its turn
  // limit, or its last generation ran with search off): it retrieved nothing and cost nothing, so it
  // is no step; its text stays in the transcript, part of the piece that follows it or the tail.
  const unexecuted = new Set([...refused, ...waiting.flatMap((w) => w.steps)]);
  const kept = steps.flatMap((step, i) => (unexecuted.has(i) ? [] : [{ step, span: spans[i]! }]));
  const answerSpan = dialect.answerAt?.at(text, framework);
  const answer = dialect.answerAt === undefined ? lastAnswer(text, dialect.boxedAnswer, framework) : answerSpan === undefined ? null : text.slice(answerSpan.start, answerSpan.end).trim();
  return {
    steps: kept.map((k) => k.step), answer, finalText: text.slice(lastObservationEnd).trim(),
    unanswered, observations, tags, unexecuted: waiting.length, layout: layoutOf(kept.map((k) => k.span)),
    ...(answerSpan === undefined ? {} : { answerSpan }),
    ...turnsOf(text, answered, kept.map((k) => k.span.block)),
  };
}

/** The model's turns: the text before, between and after the framework's blocks; a step is in the turn its block starts in. */
function turnsOf(text: string, answered: readonly Span[], blocks: readonly number[]): Pick<Transcript, 'turns' | 'stepTurns'> {
  const turns: string[] = [];
  let from = 0;
  for (const span of answered) {
    turns.push(text.slice(from, span.start).trim());
    from = span.end;
  }
  turns.push(text.slice(from).trim());
  const stepTurns = blocks.map((block) => {
    // The number of framework blocks that end at or before the block (binary search: blocks may come out of order when entangled).
    let lo = 0;
    let hi = answered.length;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (answered[mid]!.end <= block) lo = mid + 1;
      else hi = mid;
    }
    return lo;
  });
  return { turns, stepTurns };
}

/** The pieces of the kept steps' spans: the steps of one block share a piece, which runs from the previous piece's end. */
function layoutOf(spans: readonly StepSpan[]): Layout {
  const pieces: Piece[] = [];
  let entangled = false;
  let end = 0;
  for (let i = 0; i < spans.length; ) {
    const block = spans[i]!.block;
    const members: number[] = [];
    let pieceEnd = end;
    let unclosed = false;
    for (; i < spans.length && spans[i]!.block === block; i++) {
      members.push(i);
      pieceEnd = Math.max(pieceEnd, spans[i]!.end);
      unclosed ||= spans[i]!.unclosed;
    }
    if (block < end) entangled = true;
    pieces.push({ start: end, end: pieceEnd, steps: members, unclosed });
    end = pieceEnd;
  }
  return { pieces, tailStart: end, entangled };
}
