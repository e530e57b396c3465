// A pool in format v2 over a four-passage corpus, with what reading it should give: results found
// by url, text and title, a marker cited by rank, a row with an unresolved result (kept), a row whose
// marker cannot resolve (skipped) and a row without the declared logged field (skipped).

export const v2Corpus = [
  { id: 'w:1', title: 'Paris', text: 'Paris is the capital of France.', url: 'https://ex.org/Paris' },
  { id: 'w:2', title: 'Lyon', text: 'Lyon is a city in France.' },
  { id: 'w:3', title: 'Seine', text: 'The Seine flows through Paris.' },
  { id: 'w:4', title: 'Marseille', text: 'Marseille is a port in France.' },
];

function v2Row(id: string, results: unknown[], citations: unknown[], text: string, meta: Record<string, unknown> = { judge: 0.5 }): Record<string, unknown> {
  return {
    id, question_id: `q-${id}`, question: 'What is the capital of France?',
    steps: [{ type: 'search', query: 'capital of france', results }],
    final: { answer: 'Paris', citations, text },
    gold: { answers: ['Paris'], support_ids: ['w:3'] },
    meta,
  };
}

/** Lines 1–5 of the pool. */
export const v2Rows = [
  v2Row('t1', [{ rank: 1, url: 'https://ex.org/Paris' }, { rank: 2, text: '  Lyon is a city\nin France. ' }, { rank: 3, title: 'SEINE' }], [{ marker: '[1]', rank: 1 }], 'Paris [1]'),
  v2Row('t2', [{ rank: 1, title: 'Nowhere' }, { rank: 2, id: 'w:2' }], ['w:2'], 'Paris [w:2]'),
  v2Row('t3', [{ rank: 1, title: 'Nowhere' }], [{ marker: '[1]', rank: 1 }], 'Paris [1]'),
  v2Row('t4', ['w:1'], ['w:1'], 'Paris [w:1]', {}),
  v2Row('t5', ['w:1', 'w:3'], ['w:1'], 'Paris [w:1]'),
];

/** The spec: the pool read by one audit, a reward that reads the logged judge score. */
export function v2Spec(corpus = 'corpus.jsonl', pool = 'v2.jsonl'): string {
  return `corpus c = "${corpus}"
pool v2 = "${pool}"
field judge "LLM-judge score" : number = meta.judge
detector L "cites a real passage it never retrieved" = any x in citations: x in corpus and x not in retrieved
reward R0 {
  answer 1 * exact_match(answer, gold.answers)
  judged 0.1 * judge
}
reward R_L = R0 - 0.5 * L
audit a {
  reward R0
  compare R_L
  corpus c
  pools v2
  attack launder targets L using lexical(1)
  lattice L = 0.5
}
`;
}

/** The pool's report section for the spec above. */
export const v2Resolution = {
  results: { logged: 4, url: 1, text: 1, title: 1, unresolved: 2 },
  rowsWithUnresolved: 1,
  citations: { logged: 3, url: 0, rank: 1, unresolved: 1 },
  rowsSkipped: 1,
  notes: [{ file: 'v2.jsonl', line: 2, reason: '1 result not resolved to a corpus passage, so not used as ids: steps[0].results[0] (rank 1): no passage has its title' }],
};

export const v2Skipped = [
  { line: 3, reason: 'final.citations[0]: citation marker not resolved: the result at rank 1 of step 0 is not resolved to a passage' },
  { line: 4, reason: "logged field 'judge': the row has no meta.judge" },
];
