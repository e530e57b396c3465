/** The types of .reward expressions. `error` marks an expression already reported, to stop cascades. */
export type Type = 'number' | 'boolean' | 'id' | 'ids' | 'text' | 'texts' | 'step' | 'steps' | 'turn' | 'turns' | 'args' | 'gold' | 'error';

/** Oracle values read gold labels; everything derived from them is oracle too. */
export type Visibility = 'visible' | 'oracle';

export interface Typed {
  readonly type: Type;
  readonly visibility: Visibility;
}

export const elementTypes: Partial<Record<Type, Type>> = { ids: 'id', texts: 'text', steps: 'step', turns: 'turn' };

export const typeNames: Record<Type, string> = {
  number: 'number',
  boolean: 'boolean',
  id: 'id',
  ids: 'id set',
  text: 'text',
  texts: 'text set',
  step: 'step',
  steps: 'steps',
  turn: 'turn',
  turns: 'turns',
  args: 'tool arguments',
  gold: 'gold record',
  error: 'unknown',
};

/** Booleans count as 0/1 wherever a number is expected (indicators in weighted sums). */
export function isNumeric(type: Type): boolean {
  return type === 'number' || type === 'boolean' || type === 'error';
}

export function joinVisibility(...visibilities: Visibility[]): Visibility {
  return visibilities.includes('oracle') ? 'oracle' : 'visible';
}

/**
 * The parts of a trajectory an expression can read and an edit can change: what the checker's
 * read sets and write sets are made of. Every field derived from the logged steps (`retrieved`,
 * `searches`, `reasoning`, `search_calls`…) is the part `steps`.
 */
export type TrajectoryPart = 'question' | 'prompt' | 'answer' | 'final_text' | 'citations' | 'steps' | 'final_status' | 'corpus' | 'has_final' | 'gold' | 'meta';
