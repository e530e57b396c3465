import { EvaluationError } from './eval-error.js';
import { kinds, type TypedEval } from './values.js';
import type { TrajectoryView } from './view.js';

// Fields and rewards computed by a program of the user's (`field judge : number = command "…"`,
// `reward trained = command "…"`: docs/reward-commands.md). An evaluator cannot start a process and
// wait: the analysis runs every program once, over every trajectory it will evaluate, before it
// evaluates anything (edits/command-terms.ts), and an evaluator reads the answer from its
// environment.

/** The types a command's answer may have. */
export type CommandTermType = 'number' | 'boolean';

/** What the environment of an analysis knows of its command terms. */
export interface CommandTerms {
  /** The program's answer for this trajectory, original or edited (a collecting pass gives a stand-in). */
  value(term: string, view: TrajectoryView): number | boolean;
}

/** The evaluator of a field or reward named `term` whose value a program computes. */
export function commandTermEvaluator(term: string, type: CommandTermType): TypedEval {
  const read = (view: TrajectoryView, terms: CommandTerms | undefined): number | boolean => {
    if (terms === undefined) throw new EvaluationError(`'${term}' is computed by a command, and this evaluation ran no command`);
    return terms.value(term, view);
  };
  if (type === 'boolean') {
    return kinds.boolean.wrap((view, env) => {
      const value = read(view, env.commandTerms);
      if (typeof value !== 'boolean') throw new EvaluationError(`'${term}' is a boolean field, and its command answered ${value}`);
      return value;
    });
  }
  return kinds.number.wrap((view, env) => {
    const value = read(view, env.commandTerms);
    return typeof value === 'boolean' ? Number(value) : value;
  });
}
