// A pool row in format v1 as a test writes or reads it (docs/pools.md): searches and invalid
// actions with ids, a final with id citations, gold, and free meta.
export interface V1Row {
  id: string;
  question_id: string;
  question: string;
  steps: ({ type: 'search'; query: string; results: string[] } | { type: 'invalid'; text: string })[];
  final: { answer: string; citations: string[]; text: string } | null;
  gold: { answers: string[]; support_ids: string[] };
  meta?: Record<string, unknown> | null;
}
