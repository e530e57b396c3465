import { withSteps, type TrajectoryView } from '../language/view.js';
import type { TraceStep } from '../pool/types.js';

/** One exact edit A(τ) of a trajectory, as the reward sees it. */
export interface Edit {
  /** The citation position it rewrites; undefined for same-final, which rewrites none. */
  readonly position: number | undefined;
  /** The id put in that position. */
  readonly replacement: string | undefined;
  readonly view: TrajectoryView;
}

/**
 * The steps same-final deletes: every search and every tool call that logged results (resolved or
 * not), i.e. every step whose results `retrieved` reads. Reasoning, invalid actions and tool calls
 * without results stay. (lsp/worked-pair.ts applies the same rule to the row's JSON.)
 */
export function isRetrievalStep(step: TraceStep): boolean {
  if (step.type === 'search') return true;
  return step.type === 'tool' && (step.results.length > 0 || (step.hits?.length ?? 0) > 0);
}

/**
 * Same-final: delete every retrieval step (search, or tool call with results) and its
 * observations; keep the question, the answer, the ordered citations, the raw final output and
 * every other step. Only trajectories with a final and at least one retrieval step can be edited
 * this way (for a v1 row: at least one search).
 */
export function sameFinalEdit(original: TrajectoryView): Edit | undefined {
  if (!original.hasFinal || !original.steps.some(isRetrievalStep)) return undefined;
  return { position: undefined, replacement: undefined, view: withSteps(original, original.steps.filter((s) => !isRetrievalStep(s))) };
}

/**
 * Replaces one citation of `original` at a time, in the citation list and in the raw final text;
 * what every such edit of one original needs (how often each id is cited) is counted once.
 */
function citationRewriter(original: TrajectoryView): (position: number, replacement: string) => Edit {
  const cited = new Map<string, number>();
  for (const id of original.citations) cited.set(id, (cited.get(id) ?? 0) + 1);
  return (position, replacement) => {
    const previous = original.citations[position]!;
    const citations = original.citations.slice();
    citations[position] = replacement;
    // The raw text names the id too; rewrite it only when the id is cited once, so the edit stays exact.
    const finalText = cited.get(previous) === 1 ? original.finalText.split(previous).join(replacement) : original.finalText;
    return { position, replacement, view: { ...original, citations, finalText } };
  };
}

/** Replaces the citation at one position, in the citation list and in the raw final text. */
export function replaceCitation(original: TrajectoryView, position: number, replacement: string): Edit {
  return citationRewriter(original)(position, replacement);
}

/** An id guaranteed to be outside the corpus, stable for a given trajectory and position. */
export function fakeIdFor(trajectoryId: string, position: number, corpusIds: ReadonlySet<string>): string {
  let id = `fake:${trajectoryId}:${position}`;
  while (corpusIds.has(id)) id = `${id}'`;
  return id;
}

// The edits of one original are generated one at a time, in generation order: each is evaluated
// and dropped before the next is built, so a row holds one edited copy at a time, not one per
// citation position (which is quadratic in its citations).

export function* fakeIdEdits(trajectoryId: string, original: TrajectoryView, corpusIds: ReadonlySet<string>): Generator<Edit> {
  const rewrite = citationRewriter(original);
  for (let position = 0; position < original.citations.length; position++) yield rewrite(position, fakeIdFor(trajectoryId, position, corpusIds));
}

/**
 * Adaptive laundering: each citation position, rewritten to each candidate (real corpus ids the
 * agent never retrieved), in position order and then candidate rank, so the first edit is the
 * first-visible one. A position's candidates are asked for when its edits are reached.
 */
export function* launderEdits(original: TrajectoryView, candidatesAt: (position: number) => readonly string[]): Generator<Edit> {
  const rewrite = citationRewriter(original);
  for (let position = 0; position < original.citations.length; position++) {
    for (const id of candidatesAt(position)) yield rewrite(position, id);
  }
}
