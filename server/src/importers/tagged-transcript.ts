// Reading one tagged transcript (a model response with its tool observations spliced in) into steps
// and an answer, for any dialect of ./tagged-dialects.ts. The reader walks the text once from left
// to right, taking the earliest tag next: reasoning becomes a `reasoning` step, a call its `search`
// or `tool` steps, an observation the results of the oldest call still waiting for one, and the
// framework's invalid-action text an `invalid` step holding what the model wrote before it. The
// answer is found separately, as the frameworks' reward code finds it: the LAST `<answer>` block of
// the response, wherever it sits.
import { maxTranscriptTags } from '../problems/limits.js';
import { lastTagBlock } from './tag-blocks.js';
import type { Dialect } from './tagged-dialects.js';
import type { PendingCall, StepJson } from './tagged-steps.js';

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
}

type Mark = 'think' | 'call' | 'observation' | 'answer' | 'invalid';

/**
 * The earliest of the dialect's opening marks at or after `from`. Each mark's next position is kept
 * until the reader passes it, so a mark the text never holds is searched for once, not once per tag.
 */
function markFinder(text: string, opens: readonly (readonly [Mark, string])[]): (from: number) => { mark: Mark; at: number; open: string } | undefined {
  const next = opens.map(() => -2);
  return (from) => {
    let best: { mark: Mark; at: number; open: string } | undefined;
    for (const [i, [mark, open]] of opens.entries()) {
      if (next[i] !== -1 && next[i]! < from) next[i] = text.indexOf(open, from);
      const at = next[i]!;
      if (at !== -1 && (best === undefined || at < best.at)) best = { mark, at, open };
    }
    return best;
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

/** Where a piece of the text is: from `start` up to (not including) `end`. */
interface Span {
  readonly start: number;
  readonly end: number;
}

export function readTranscript(text: string, dialect: Dialect): Transcript {
  const opens: (readonly [Mark, string])[] = [
    ['think', dialect.think.open], ['call', dialect.call.open], ['observation', dialect.observation.open], ['answer', '<answer>'],
    ...(dialect.invalidMarker === undefined ? [] : [['invalid', dialect.invalidMarker] as const]),
  ];
  const closes: Record<Mark, string> = { think: dialect.think.close, call: dialect.call.close, observation: dialect.observation.close, answer: '</answer>', invalid: '\n' };
  const steps: StepJson[] = [];
  const waiting: PendingCall[] = [];
  const observations: string[] = [];
  let unanswered = 0;
  let pos = 0;
  let lastObservationEnd = 0;
  let tags = 0;
  /** The framework's invalid-action messages: no answer is read inside one. */
  const framework: Span[] = [];
  /** The message at `at`, through its line: an `invalid` step holding the model's text before it; returns where reading goes on. */
  const invalid = (at: number): number => {
    steps.push({ type: 'invalid', text: text.slice(pos, at).trim() });
    const lineEnd = text.indexOf(closes.invalid, at);
    const end = lineEnd === -1 ? text.length : lineEnd + closes.invalid.length;
    framework.push({ start: at, end });
    lastObservationEnd = end;
    return end;
  };
  const nextMark = markFinder(text, opens);
  // Past the limit the record is skipped (tagged-import.ts): reading further would only cost time.
  for (let found = nextMark(pos); found !== undefined && tags <= maxTranscriptTags; found = nextMark(pos)) {
    tags++;
    const body = found.at + found.open.length;
    const closeAt = text.indexOf(closes[found.mark], body);
    // A block the model opened and never closed, followed by the framework's invalid-action text:
    // the framework saw no action, so the model's text up to that message is one `invalid` step, and
    // the message's example tags (`<search> and </search>`) close nothing.
    // An observation is the framework's own and always closed.
    const modelBlock = found.mark !== 'invalid' && found.mark !== 'observation';
    const invalidAt = !modelBlock || dialect.invalidMarker === undefined ? -1 : text.indexOf(dialect.invalidMarker, body);
    if (invalidAt !== -1 && (closeAt === -1 || invalidAt < closeAt)) {
      pos = invalid(invalidAt);
      continue;
    }
    // An unclosed block (a truncated response) runs to the end of the text.
    const inside = text.slice(body, closeAt === -1 ? text.length : closeAt);
    const end = closeAt === -1 ? text.length : closeAt + closes[found.mark].length;
    switch (found.mark) {
      case 'think':
        steps.push({ type: 'reasoning', text: inside.trim() });
        break;
      case 'call': {
        const read = dialect.readCall(inside);
        if ('invalid' in read) steps.push({ type: 'invalid', text: read.invalid });
        else {
          waiting.push(read.pending);
          if (read.pending.kind === 'search') for (const step of read.pending.steps) steps.push(step);
          else steps.push(read.pending.step);
        }
        break;
      }
      case 'observation': {
        const call = waiting.shift();
        unanswered += call === undefined ? 1 : dialect.answer(inside, call);
        observations.push(inside);
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
  return { steps, answer: lastAnswer(text, dialect.boxedAnswer, framework), finalText: text.slice(lastObservationEnd).trim(), unanswered, observations, tags };
}
