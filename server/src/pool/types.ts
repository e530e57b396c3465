// The data an audit reads: logged trajectories (pools), the passage corpus, and user-supplied
// candidates, after validation. The formats are described in docs/pools.md.
//
// A pool row of format v2 may log more than the engine reads (tool calls, reasoning, result
// objects without ids, citation markers, stop reasons). The engine's fields (`steps`, `final`) keep
// their v1 shape, holding corpus ids only; what v2 adds is kept beside them in optional fields
// (`trace`, `citationRefs`, `finalStatus`), absent on a v1 row, so a v1 row loads exactly as before.

export interface SearchStep {
  readonly type: 'search';
  readonly query: string;
  readonly results: readonly string[];
}

export interface InvalidStep {
  readonly type: 'invalid';
  readonly text: string;
}

/** The steps the engine reads (searches, retrieved ids, invalid actions): searches and invalid actions. */
export type Step = SearchStep | InvalidStep;

/** One result as logged: an id, or an object the id is resolved from (docs/pools.md, "Resolving ids"). */
export interface ResultHit {
  /** The id as logged; absent when the log gave only rank, title, url or text. */
  readonly id?: string;
  readonly rank: number;
  readonly title?: string;
  readonly url?: string;
  readonly text?: string;
  /** Set when `id` was not logged but resolved against the corpus, and how. */
  readonly resolvedBy?: 'url' | 'text' | 'title';
}

/** Fields every logged step may carry in format v2. */
interface StepExtras {
  /** A per-step reward as logged. */
  readonly reward?: number;
  /** The 0-based index of the model's turn the step was read from (docs/pools.md, "Turns"). */
  readonly turn?: number;
  /** The results as logged (objects kept), in order; absent when every result was a bare id. */
  readonly hits?: readonly ResultHit[];
}

export type TraceSearchStep = SearchStep & StepExtras;

/** A call of any tool (`visit`, `get_document`, a calculator…), as logged. */
export interface ToolStep extends StepExtras {
  readonly type: 'tool';
  readonly tool: string;
  readonly args: Readonly<Record<string, unknown>>;
  readonly call_id?: string;
  /** The corpus ids of its results (resolved), like a search step's. */
  readonly results: readonly string[];
  /** Its text output as logged. */
  readonly output?: string;
}

export interface ReasoningStep {
  readonly type: 'reasoning';
  readonly text: string;
  readonly reward?: number;
  readonly turn?: number;
}

export type TraceInvalidStep = InvalidStep & { readonly reward?: number; readonly turn?: number };

/** A logged step of any kind, in order: what `steps` in a spec will read. */
export type TraceStep = TraceSearchStep | TraceInvalidStep | ToolStep | ReasoningStep;

/** A citation as logged: an id, or a marker in the answer text that names an id, a url or a result rank. */
export type CitationRef =
  | string
  | {
      readonly marker: string;
      readonly id?: string;
      readonly url?: string;
      readonly rank?: number;
      /** The index in `trace` of the step whose results `rank` counts in; absent: the last step with results. */
      readonly step?: number;
    };

export interface Final {
  readonly answer: string;
  readonly citations: readonly string[];
  readonly text: string;
}

export interface Gold {
  readonly answers: readonly string[];
  readonly support_ids: readonly string[];
}

export interface TrajectoryMeta {
  readonly model?: string | undefined;
  readonly sample?: number | undefined;
  readonly group?: string | undefined;
  readonly [key: string]: unknown;
}

/** Where a row came from, for messages and for per-pool tables. */
export interface RowSource {
  readonly pool: string;
  readonly file: string;
  /** One-based line in the JSONL file. */
  readonly line: number;
}

export interface Trajectory {
  readonly id: string;
  readonly question_id: string;
  readonly question: string;
  readonly steps: readonly Step[];
  readonly final: Final | null;
  readonly gold: Gold;
  readonly meta: TrajectoryMeta;
  readonly source: RowSource;
  /**
   * Format v2 only: every logged step in order (tool calls, reasoning, result objects, step
   * rewards). Absent on a row whose steps are all v1 steps: then `steps` is the whole trace.
   */
  readonly trace?: readonly TraceStep[];
  /** Format v2 only: the citations as logged, when one of them is a marker. */
  readonly citationRefs?: readonly CitationRef[];
  /** `final.status` as logged: why the trajectory stopped (`stop`, `length`, `max_turns`…). */
  readonly finalStatus?: string;
  /** Format v2 only: the model's text of each turn, by turn index (the row's `turns`). */
  readonly turnTexts?: readonly string[];
  /**
   * The format a pool linked `from FORMAT(...)` read the row through: its renderer writes an edited
   * row back (importers/render.ts). Absent for a row read from a pool file.
   */
  readonly format?: string;
}

/** Every logged step of a trajectory, in order (v1 rows: its steps). */
export function traceOf(trajectory: Trajectory): readonly TraceStep[] {
  return trajectory.trace ?? trajectory.steps;
}

export interface Passage {
  readonly id: string;
  readonly title: string;
  readonly text: string;
  /** The passage's URL, when the corpus gives one (result objects and citation markers resolve by it). */
  readonly url?: string;
}

export interface Corpus {
  readonly file: string;
  readonly passages: ReadonlyMap<string, Passage>;
}

/** One user-supplied candidate list for one citation position of one trajectory. */
export interface CandidateList {
  readonly traj_id: string;
  readonly citation_index: number;
  readonly candidates: readonly string[];
}

/** A row that failed validation: reported as `file:line: reason`; the audit goes on without it. */
export interface RowIssue {
  readonly file: string;
  readonly line: number;
  readonly reason: string;
}

export interface Loaded<T> {
  readonly items: readonly T[];
  readonly issues: readonly RowIssue[];
  /** Set when the file as a whole could not be read (missing, a folder, no permission). */
  readonly fileError?: string | undefined;
}
