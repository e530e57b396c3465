// The tagged transcripts written back (verl, SkyRL, R1-Searcher, every dialect): the edited response
// is the logged one cut into the pieces its steps were read from (./tagged-transcript.ts, `Layout`),
// the kept pieces in the edited order, then the tail (the final turn), with the answer written into
// the last `<answer>` block when the edit changed it. The observations are those of the written text.
// Each piece keeps what the model wrote and what the environment answered it, byte for byte: a
// repeated search repeats its `<information>` block, as the same retriever would answer it again.
import type { Trajectory } from '../pool/types.js';
import type { EditedRow, FormatRenderer, RenderOutcome } from './render.js';
import { tagBlocks } from './tag-blocks.js';
import type { Span } from './tagged-answers.js';
import { dialectNamed, type Dialect } from './tagged-dialects.js';
import { readTranscript, type Transcript } from './tagged-transcript.js';

const failed = (reason: string): RenderOutcome => ({ ok: false, reason });

/** The row's transcript and dialect as its importer kept them, or why it has none. */
function loggedTranscript(row: Trajectory): { text: string; dialect: Dialect } | string {
  const { transcript, dialect } = row.meta;
  if (typeof transcript !== 'string') return 'the row keeps no meta.transcript';
  const named = typeof dialect === 'string' ? dialectNamed(dialect) : undefined;
  if (named === undefined) return 'the row names no dialect (meta.dialect)';
  return { text: transcript, dialect: named };
}

/** The kept pieces in the edited order: each piece whole (a call of several queries cannot lose one). */
function joinPieces(text: string, read: Transcript, stepOrigin: readonly number[]): string | RenderOutcome {
  const { pieces, tailStart } = read.layout;
  const pieceOf = new Int32Array(read.steps.length).fill(-1);
  pieces.forEach((piece, p) => {
    for (const step of piece.steps) pieceOf[step] = p;
  });
  let out = '';
  for (let i = 0; i < stepOrigin.length; ) {
    const step = stepOrigin[i]!;
    const piece = pieces[pieceOf[step] ?? -1];
    if (piece === undefined) return failed(`step ${step} is not a step of the logged response`);
    const whole = piece.steps.every((s, k) => stepOrigin[i + k] === s);
    if (!whole) return failed(`step ${step} is one of ${piece.steps.length} steps of one call block (steps ${piece.steps.join(', ')}): the block cannot be written with some of them`);
    i += piece.steps.length;
    if (piece.unclosed && i < stepOrigin.length) return failed(`step ${step}'s block was never closed (the response was cut there): no step can follow it`);
    out += text.slice(piece.start, piece.end);
  }
  return out + text.slice(tailStart);
}

/**
 * `text` with the inside of its last `<answer>` block (or of the last `\boxed{}` in it; or the span of
 * the dialect's own answer rule, `answerAt`) replaced, keeping the whitespace around the old answer.
 */
function withAnswer(text: string, dialect: Dialect, answer: string, answerSpan: Span | undefined): string | undefined {
  if (dialect.answerAt !== undefined) return answerSpan === undefined ? undefined : replaced(text, answerSpan.start, answerSpan.end, answer);
  const block = tagBlocks(text, '<answer>', '</answer>').at(-1);
  if (block === undefined) return undefined;
  const insideStart = block.start + '<answer>'.length;
  let from = insideStart;
  let to = insideStart + block.inside.length;
  if (dialect.boxedAnswer) {
    const boxed = block.inside.lastIndexOf('\\boxed{');
    const close = boxed === -1 ? -1 : block.inside.lastIndexOf('}');
    if (close <= boxed) return undefined;
    from = insideStart + boxed + '\\boxed{'.length;
    to = insideStart + close;
  }
  return replaced(text, from, to, answer);
}

/** `text` with `from`…`to` replaced by `answer`, the whitespace at either end of the old text kept. */
function replaced(text: string, from: number, to: number, answer: string): string {
  const old = text.slice(from, to);
  const lead = old.length - old.trimStart().length;
  const trail = old.length - old.trimEnd().length;
  return text.slice(0, from + lead) + answer + text.slice(to - trail);
}

function render(row: Trajectory, edit: EditedRow): RenderOutcome {
  const logged = loggedTranscript(row);
  if (typeof logged === 'string') return failed(logged);
  const { text, dialect } = logged;
  const read = readTranscript(text, dialect);
  const trace = row.trace ?? row.steps;
  if (read.steps.length !== trace.length) return failed(`the logged response reads as ${read.steps.length} steps, the row has ${trace.length}`);
  if (read.layout.entangled) return failed('an observation of the logged response answers a call after a later block began: its steps cannot be cut apart');
  let written = joinPieces(text, read, edit.stepOrigin);
  if (typeof written !== 'string') return written;
  const originalFinal = row.final?.text ?? '';
  if (edit.finalText !== originalFinal) {
    const at = originalFinal === '' ? -1 : written.lastIndexOf(originalFinal);
    if (at === -1) return failed('the edited final text has no place in the response: the logged final turn is empty or was cut out');
    written = written.slice(0, at) + edit.finalText + written.slice(at + originalFinal.length);
  }
  let again = readTranscript(written, dialect);
  if (edit.answer !== (row.final?.answer ?? '') && (again.answer ?? '') !== edit.answer) {
    const answered = withAnswer(written, dialect, edit.answer, again.answerSpan);
    if (answered === undefined) return failed(dialect.answerAt === undefined ? `the edited answer has no <answer> block${dialect.boxedAnswer ? ' with a \\boxed{}' : ''} to be written in` : `the edited answer has no place in the response: it holds none (${dialect.answerAt.describe})`);
    written = answered;
    again = readTranscript(written, dialect);
    if ((again.answer ?? '') !== edit.answer) return failed('the edited answer does not read back as written (it holds an answer tag, or whitespace the reader trims)');
  }
  // The written response must read as the edited steps: otherwise a piece carried text that another step's reading needs.
  const expected = edit.stepOrigin.map((i) => read.steps[i]);
  if (JSON.stringify(again.steps) !== JSON.stringify(expected)) return failed('the written response does not read back as the edited steps');
  return { ok: true, meta: { transcript: written, observations: again.observations } };
}

/** The renderer of every tagged-transcript format: it writes `meta.transcript` and `meta.observations`. */
export const taggedRenderer: FormatRenderer = { renders: ['transcript', 'observations'], render };
