// The contract every laundering-candidate generator keeps. Generators read only visible fields
// (the question, the final answer, the corpus), never gold, so their candidates are computed once
// per pool and corpus and reused across every edit of the reward.
import type { Trajectory } from '../pool/types.js';

export interface CandidateRequest {
  readonly trajectory: Trajectory;
  /** The citation position being replaced (zero-based). */
  readonly citationIndex: number;
  /** Ids that must not be proposed: the caller passes the retrieved ids ∪ the current citations. */
  readonly exclude: ReadonlySet<string>;
}

export interface CandidateGenerator {
  /** How reports name it, e.g. `bm25(8)`. */
  readonly label: string;
  /** Real corpus ids, best first, at most the budget, none in `request.exclude`. */
  candidates(request: CandidateRequest): readonly string[];
}

/**
 * The visible text a lexical generator ranks by: the question and the final answer. This is the
 * only place a generator reads a trajectory's text, which keeps gold out by construction.
 */
export function visibleQueryText(trajectory: Trajectory): string {
  const answer = trajectory.final?.answer ?? '';
  return answer.length === 0 ? trajectory.question : `${trajectory.question} ${answer}`;
}

/** A budget as a count: whole and non-negative (rounded down, so never more than asked); Infinity means no limit. */
export function budgetCount(budget: number): number {
  if (Number.isNaN(budget)) return 0;
  if (budget === Infinity) return Number.MAX_SAFE_INTEGER;
  return Math.max(0, Math.floor(budget));
}
