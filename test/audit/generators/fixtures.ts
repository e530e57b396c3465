// Hand-built corpora and trajectories for the generator tests.
import type { Corpus, Passage, Trajectory } from '../../../server/src/pool/types.js';

export function corpusOf(passages: readonly Passage[]): Corpus {
  return { file: 'corpus.jsonl', passages: new Map(passages.map((p) => [p.id, p])) };
}

export function passage(id: string, title: string, text: string): Passage {
  return { id, title, text };
}

/** A trajectory whose visible text is `question` and `answer` (no final when answer is null). */
export function trajectory(id: string, question: string, answer: string | null, gold: Trajectory['gold'] = { answers: ['gold answer'], support_ids: ['gold-id'] }): Trajectory {
  return {
    id,
    question_id: `q-${id}`,
    question,
    steps: [{ type: 'search', query: question, results: ['r1'] }],
    final: answer === null ? null : { answer, citations: ['r1'], text: `<answer>${answer}</answer> [r1]` },
    gold,
    meta: {},
    source: { pool: 'p', file: 'p.jsonl', line: 1 },
  };
}

export const none: ReadonlySet<string> = new Set();
