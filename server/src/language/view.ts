import type { Gold, SearchStep, Trajectory, TrajectoryMeta } from '../pool/types.js';

/**
 * The fields a reward expression reads, computed once per trajectory (original or edited).
 * Attacks build edited views directly, so nothing here refers back to a pool row.
 */
export interface TrajectoryView {
  readonly question: string;
  readonly answer: string;
  readonly finalText: string;
  readonly hasFinal: boolean;
  readonly citations: readonly string[];
  readonly retrieved: ReadonlySet<string>;
  readonly searches: readonly SearchStep[];
  readonly invalidActions: number;
  readonly gold: Gold;
  /** What the framework logged with the row: declared logged fields read it (language/logged-fields.ts). */
  readonly meta: TrajectoryMeta;
}

export function viewOf(trajectory: Trajectory): TrajectoryView {
  const searches = trajectory.steps.filter((s): s is SearchStep => s.type === 'search');
  const retrieved = new Set<string>();
  for (const step of searches) for (const id of step.results) retrieved.add(id);
  return {
    question: trajectory.question,
    answer: trajectory.final?.answer ?? '',
    finalText: trajectory.final?.text ?? '',
    hasFinal: trajectory.final !== null,
    citations: trajectory.final?.citations ?? [],
    retrieved,
    searches,
    invalidActions: trajectory.steps.length - searches.length,
    gold: trajectory.gold,
    meta: trajectory.meta,
  };
}
