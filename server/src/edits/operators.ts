import type { TrajectoryView } from '../language/view.js';

/** One exact edit A(τ) of a trajectory, as the reward sees it. */
export interface Edit {
  /** The citation position it rewrites; undefined for same-final, which rewrites none. */
  readonly position: number | undefined;
  /** The id put in that position. */
  readonly replacement: string | undefined;
  readonly view: TrajectoryView;
}

/**
 * Same-final: delete every search action and its observations; keep the question, the answer,
 * the ordered citations and the raw final output. Only trajectories with a final and at least
 * one search can be edited this way.
 */
export function sameFinalEdit(original: TrajectoryView): Edit | undefined {
  if (!original.hasFinal || original.searches.length === 0) return undefined;
  return { position: undefined, replacement: undefined, view: { ...original, searches: [], retrieved: new Set() } };
}

/** Replaces the citation at one position, in the citation list and in the raw final text. */
export function replaceCitation(original: TrajectoryView, position: number, replacement: string): Edit {
  const previous = original.citations[position]!;
  const citations = original.citations.map((id, i) => (i === position ? replacement : id));
  // The raw text names the id too; rewrite it only when the id is cited once, so the edit stays exact.
  const citedOnce = original.citations.filter((id) => id === previous).length === 1;
  const finalText = citedOnce ? original.finalText.split(previous).join(replacement) : original.finalText;
  return { position, replacement, view: { ...original, citations, finalText } };
}

/** An id guaranteed to be outside the corpus, stable for a given trajectory and position. */
export function fakeIdFor(trajectoryId: string, position: number, corpusIds: ReadonlySet<string>): string {
  let id = `fake:${trajectoryId}:${position}`;
  while (corpusIds.has(id)) id = `${id}'`;
  return id;
}

export function fakeIdEdits(trajectoryId: string, original: TrajectoryView, corpusIds: ReadonlySet<string>): Edit[] {
  return original.citations.map((_, position) => replaceCitation(original, position, fakeIdFor(trajectoryId, position, corpusIds)));
}

/**
 * Adaptive laundering: each citation position, rewritten to each candidate (real corpus ids the
 * agent never retrieved), in position order and then candidate rank, so the first edit is the
 * first-visible one.
 */
export function launderEdits(original: TrajectoryView, candidatesAt: (position: number) => readonly string[]): Edit[] {
  return original.citations.flatMap((_, position) => candidatesAt(position).map((id) => replaceCitation(original, position, id)));
}
