import type { EvalEnv } from './eval-env.js';
import { EvaluationError } from './eval-error.js';
import type { Kind, TypedEval } from './values.js';
import type { TrajectoryView } from './view.js';

// A laundering attack swaps one citation of a trajectory for each of its candidates, so one original
// has dozens of edits that differ from it in one position. An expression that counts a test over
// the citations (`any c in citations: …`, `grounding(citations, …)`) need not test every citation
// of every edit: the original's tests are counted once, and an edit's count is that count with the
// swapped position's test replaced. The count is an integer, so the expression's value is the same
// double a full evaluation gives (reward/compile.ts decides which expressions may be counted so).

/**
 * The test of one citation id, made once per original view: it reads the view only through parts a
 * citation swap leaves as they were, so the original's test is its swaps' test too, and what the
 * test needs of the view (the normalised answers, the wanted ids) is read once, not per citation.
 */
export type CitationTest = (view: TrajectoryView, env: EvalEnv) => (id: string) => boolean;

/**
 * How many citations of a view pass `test`, counted from its original's tests when the view swaps
 * one citation (`view.swap`). Holds the tests of the last original it saw: an attack builds one
 * original's edits together.
 */
export class CitationTally {
  private original: TrajectoryView | undefined;
  private env: EvalEnv | undefined;
  /** Per position of the original's citations, 1 when it passes; undefined when a test threw there. */
  private passes: Uint8Array | undefined;
  private passing = 0;
  /** The original's test (`CitationTest`), which its swaps share. */
  private testOfOriginal: (id: string) => boolean = () => false;
  /**
   * The original's test's answer per id asked so far, its own citations first: a launder attack puts
   * the same few candidates at every position of a row (they are ranked for the row's query), so most
   * of its swaps ask again. A test that throws is not kept: asked again, it throws again.
   */
  private answers = new Map<string, boolean>();

  constructor(private readonly test: CitationTest) {}

  /**
   * The number of `view.citations` that pass, or undefined when the view swaps nothing or a test
   * throws: the caller then evaluates in full, which raises the error where a full evaluation does.
   */
  passingOf(view: TrajectoryView, env: EvalEnv): number | undefined {
    const swap = view.swap;
    if (swap === undefined) return undefined;
    if (swap.original !== this.original || env !== this.env) this.count(swap.original, env);
    const passed = this.passes;
    if (passed === undefined) return undefined;
    try {
      const id = view.citations[swap.position]!;
      let answer = this.answers.get(id);
      if (answer === undefined) this.answers.set(id, (answer = this.testOfOriginal(id)));
      return this.passing - passed[swap.position]! + (answer ? 1 : 0);
    } catch (error) {
      if (error instanceof EvaluationError) return undefined;
      throw error;
    }
  }

  private count(original: TrajectoryView, env: EvalEnv): void {
    this.original = original;
    this.env = env;
    const passes = new Uint8Array(original.citations.length);
    const answers = (this.answers = new Map());
    let passing = 0;
    try {
      const test = (this.testOfOriginal = this.test(original, env));
      original.citations.forEach((id, i) => {
        let passed = answers.get(id);
        if (passed === undefined) answers.set(id, (passed = test(id)));
        if (passed) {
          passes[i] = 1;
          passing++;
        }
      });
    } catch (error) {
      if (!(error instanceof EvaluationError)) throw error;
      this.passes = undefined;
      return;
    }
    this.passes = passes;
    this.passing = passing;
  }
}

/**
 * An evaluator of `kind` that, on a view that swaps one citation, computes its value from how many
 * citations pass `test` (`fromCount`), and otherwise runs `full`; undefined when `full` is not of
 * `kind`. The one shape of every counted expression (reward/compile.ts, language/builtins.ts).
 */
export function countedEvaluator<T>(kind: Kind<T>, full: TypedEval, test: CitationTest, fromCount: (passing: number, view: TrajectoryView, env: EvalEnv) => T): TypedEval | undefined {
  const all = kind.read(full);
  if (all === undefined) return undefined;
  const tally = new CitationTally(test);
  return kind.wrap((view, env) => {
    const passing = tally.passingOf(view, env);
    return passing === undefined ? all(view, env) : fromCount(passing, view, env);
  });
}
