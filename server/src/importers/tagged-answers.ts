// Where a framework's reward finds the answer in a response, when it is not the last `<answer>` of
// the whole response (./tagged-transcript.ts, `lastAnswer`): each rule gives the span of the answer's
// text, which the reader trims and the renderer (./tagged-render.ts) writes an edited answer into.
// Every rule is a few indexOf scans, linear in the response.
import { tagBlocks } from './tag-blocks.js';

/** Where a piece of the text is: from `start` up to (not including) `end`. */
export interface Span {
  readonly start: number;
  readonly end: number;
}

export interface AnswerRule {
  /** The rule in words, for the import's notes ("the answer is …"). */
  readonly describe: string;
  /** The span of the answer in `text`, given the spans that are the framework's own text; undefined when there is none. */
  at(text: string, framework: readonly Span[]): Span | undefined;
}

const boxedOpen = '\\boxed{';

/**
 * WebThinker's evaluation (scripts/evaluate/evaluate.py, `extract_answer_fn`): the last match of
 * `\\boxed\{(.*)\}` over the whole output, where `.` stops at a line break and the star is greedy. The
 * match therefore lies on the last line that holds a `\boxed{` with a `}` after it, and runs from
 * the first `\boxed{` of that line to the line's last `}`. With no such line, the text after the last
 * `ANSWER:`, with the asterisks at either end dropped.
 */
export const webThinkerAnswer: AnswerRule = {
  describe: 'the last \\boxed{…} of the output as WebThinker\'s evaluation matches it (from the first \\boxed{ to the last } of the last line that has both), else the text after the last ANSWER:',
  at(text) {
    for (let at = text.lastIndexOf(boxedOpen); at !== -1; ) {
      const lineStart = text.lastIndexOf('\n', at) + 1;
      const newline = text.indexOf('\n', at);
      const lineEnd = newline === -1 ? text.length : newline;
      const first = text.indexOf(boxedOpen, lineStart);
      const from = first + boxedOpen.length;
      // The line's last `}` after the open brace: scanned within the line only, so every line is read once.
      for (let i = lineEnd - 1; i >= from; i--) if (text[i] === '}') return { start: from, end: i };
      at = lineStart === 0 ? -1 : text.lastIndexOf(boxedOpen, lineStart - 1);
    }
    const marker = text.lastIndexOf('ANSWER:');
    if (marker === -1) return undefined;
    let start = marker + 'ANSWER:'.length;
    let end = text.length;
    while (start < end && text[start] === '*') start++;
    while (end > start && text[end - 1] === '*') end--;
    return { start, end };
  },
};

/**
 * MMSearch-R1's reward (mmsearch_r1/utils/reward_score_mm/mmsearch_r1_score.py, `compute_score`)
 * reads the last `<answer>…</answer>` of the model's last turn only: the text after the framework's
 * last turn.
 */
export const finalTurnAnswer: AnswerRule = {
  describe: 'the last <answer> of the model\'s final turn (after the framework\'s last turn)',
  at(text, framework) {
    const from = framework.reduce((end, s) => Math.max(end, s.end), 0);
    const block = tagBlocks(text.slice(from), '<answer>', '</answer>').at(-1);
    if (block === undefined) return undefined;
    const start = from + block.start + '<answer>'.length;
    return { start, end: start + block.inside.length };
  },
};
