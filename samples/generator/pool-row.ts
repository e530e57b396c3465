/** The fixture formats of DESIGN.md ("Fixture data (v1)"), as the generator writes them. */

export interface SearchStep {
  type: 'search';
  query: string;
  results: string[];
}

export interface InvalidStep {
  type: 'invalid';
  text: string;
}

export type Step = SearchStep | InvalidStep;

export interface Final {
  answer: string;
  citations: string[];
  text: string;
}

export interface PoolRow {
  id: string;
  question_id: string;
  question: string;
  steps: Step[];
  final: Final | null;
  gold: { answers: string[]; support_ids: string[] };
  meta: { model: string; sample: number; group?: string; pool: string };
}

/** A line of a user-supplied laundering candidate file. */
export interface CandidateRow {
  traj_id: string;
  citation_index: number;
  candidates: string[];
}
