import type { TraceStep } from '../pool/types.js';

// The turns of a trajectory: the steps of one model turn (assistant message) together, with its
// text. A row of format v2 logs each step's `turn` (the index of the turn it was read from) and the
// text of every turn (`turns`); the collection is recomputed from the steps of the view it reads, so
// an edit that deletes or duplicates steps changes the turns' steps (docs/language.md, "Turns").

export interface Turn {
  /** The 0-based index of the turn in the trajectory, as logged. */
  readonly index: number;
  /** The model's text of the turn, as the row logs it (`""` when the row logs none for it). */
  readonly text: string;
  /** The steps read from the turn, in order. */
  readonly steps: readonly TraceStep[];
}

/** The turn `first(turns)` and `last(turns)` give when there is none: no text, no step, index -1. */
export const noTurn: Turn = Object.freeze({ index: -1, text: '', steps: Object.freeze([]) });

/**
 * The turns of the view's steps: one per logged turn text, and one for every other index a step
 * carries, in index order, each holding its steps in order. Steps without a `turn` (a row that logs
 * none) form no turn: such a row has no turns unless it logs turn texts.
 */
export function turnsOf(steps: readonly TraceStep[], texts: readonly string[]): readonly Turn[] {
  const byIndex = new Map<number, TraceStep[]>();
  for (const step of steps) {
    if (step.turn === undefined) continue;
    const group = byIndex.get(step.turn);
    if (group === undefined) byIndex.set(step.turn, [step]);
    else group.push(step);
  }
  const indices = new Set<number>(texts.keys());
  for (const index of byIndex.keys()) indices.add(index);
  return [...indices].sort((a, b) => a - b).map((index) => ({ index, text: texts[index] ?? '', steps: byIndex.get(index) ?? [] }));
}
