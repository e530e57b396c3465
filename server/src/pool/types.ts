// The data an audit reads: logged trajectories (pools), the passage corpus, and user-supplied
// candidates, after validation. The JSONL formats are in shared DESIGN.md ("Fixture data").

export interface SearchStep {
  readonly type: 'search';
  readonly query: string;
  readonly results: readonly string[];
}

export interface InvalidStep {
  readonly type: 'invalid';
  readonly text: string;
}

export type Step = SearchStep | InvalidStep;

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
}

export interface Passage {
  readonly id: string;
  readonly title: string;
  readonly text: string;
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
