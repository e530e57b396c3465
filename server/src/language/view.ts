import { traceOf, type CitationRef, type Gold, type SearchStep, type Trajectory, type TrajectoryMeta, type TraceStep } from '../pool/types.js';

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
  /** The citations as logged when one is a marker (`[3]`): what an `other_ranks` edit rewrites. */
  readonly citationRefs?: readonly CitationRef[] | undefined;
  /** Every logged step in order (a v1 row: its steps). `searches`, `retrieved` and `invalidActions` are read from it. */
  readonly steps: readonly TraceStep[];
  readonly retrieved: ReadonlySet<string>;
  readonly searches: readonly SearchStep[];
  readonly invalidActions: number;
  /** `final.status` as logged; `""` when the log has none. */
  readonly finalStatus: string;
  /** The model's text of each turn, by turn index, as the row logs it (`turns`); none for a row that logs none. No edit writes it: `turns` regroups the (edited) steps under it. */
  readonly turnTexts?: readonly string[] | undefined;
  readonly gold: Gold;
  /** What the framework logged with the row: declared logged fields read it (language/logged-fields.ts). */
  readonly meta: TrajectoryMeta;
  /** Set on an edit that only swapped one citation: what a per-citation test re-tests (language/citation-tally.ts). */
  readonly swap?: CitationSwap | undefined;
  /** The pool row the view is of (an edit keeps its original's): what a command term's request names. */
  readonly row?: ViewRow | undefined;
}

/** Which row a view is of, and the log format it was read through. */
export interface ViewRow {
  readonly id: string;
  readonly questionId: string;
  readonly format?: string | undefined;
}

/**
 * An edited view that is `original` with the citation at `position` replaced, and nothing else
 * changed but `final_text` (the parts a `replace` writes): a count of per-citation tests that read
 * neither part changes by that one citation's test alone.
 */
export interface CitationSwap {
  readonly original: TrajectoryView;
  readonly position: number;
}

/** The step fields of a view: whatever changes a view's steps goes through here, so they always agree. */
type StepFields = Pick<TrajectoryView, 'steps' | 'retrieved' | 'searches' | 'invalidActions'>;

/**
 * E(τ), the one definition: the result ids of every search step and every tool step (a document
 * the agent opened with `get_document` or `visit` was retrieved as much as a search result).
 */
export function stepFields(steps: readonly TraceStep[]): StepFields {
  const searches = steps.filter((s): s is SearchStep & TraceStep => s.type === 'search');
  const retrieved = new Set<string>();
  let invalidActions = 0;
  for (const step of steps) {
    if (step.type === 'search' || step.type === 'tool') for (const id of step.results) retrieved.add(id);
    else if (step.type === 'invalid') invalidActions++;
  }
  return { steps, retrieved, searches, invalidActions };
}

export function viewOf(trajectory: Trajectory): TrajectoryView {
  return {
    question: trajectory.question,
    answer: trajectory.final?.answer ?? '',
    finalText: trajectory.final?.text ?? '',
    hasFinal: trajectory.final !== null,
    citations: trajectory.final?.citations ?? [],
    ...(trajectory.citationRefs === undefined ? {} : { citationRefs: trajectory.citationRefs }),
    ...stepFields(traceOf(trajectory)),
    finalStatus: trajectory.finalStatus ?? '',
    turnTexts: trajectory.turnTexts ?? [],
    gold: trajectory.gold,
    meta: trajectory.meta,
    // Every view has the key, so an edited view keeps the shape of its original's.
    swap: undefined,
    row: { id: trajectory.id, questionId: trajectory.question_id, format: trajectory.format },
  };
}

/** The view with its steps replaced (an edit): searches, retrieved ids and invalid actions follow them. */
export function withSteps(view: TrajectoryView, steps: readonly TraceStep[]): TrajectoryView {
  return { ...view, ...stepFields(steps) };
}
