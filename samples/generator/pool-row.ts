/** The fixture formats of DESIGN.md ("Fixture data (v1)"), as the generator writes them. */

import type { Question } from './questions.js';

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

/** A row's gold: the question's answers and the passage each hop is supported by. */
export function goldOf(question: Question): PoolRow['gold'] {
  return { answers: question.seed.answers, support_ids: question.seed.hops.map((hop) => hop.support) };
}

/** A line of a user-supplied laundering candidate file. */
export interface CandidateRow {
  traj_id: string;
  citation_index: number;
  candidates: string[];
}
