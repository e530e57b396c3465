import assert from 'node:assert/strict';
import { planAudit } from '../../server/src/audit/plan.js';
import { runAudit } from '../../server/src/audit/run-audit.js';
import type { CandidateSource } from '../../server/src/edits/prepare.js';
import type { Passage, Trajectory } from '../../server/src/pool/types.js';
import type { AuditReport } from '../../server/src/report/schema.js';
import { analyze } from '../../server/src/semantics/analyze.js';
import { LineIndex } from '../../server/src/problems/line-index.js';

// A hand-built audit whose every number is computed by hand in test/audit/golden.test.ts; other tests
// use its report as a realistic, fully known input.

export const goldenSpec = `corpus c = "c.jsonl"
pool p = "p.jsonl"
detector U "no search" = has_final and answer != "" and search_calls == 0
detector L "cites unretrieved" = any x in citations: x in corpus and x not in retrieved
detector F "cites fakes" = any x in citations: x not in corpus
signal support_miss "no citation is gold support" = misses(citations, gold.support)
reward R0 { g 0.81375 * grounding(citations, gold.answers) }
reward R_L = R0 - 1.2 * L
reward R_full = R_L - 0.8 * support_miss
audit a {
  reward R0
  compare R_L, R_full
  corpus c
  pools p
  attack launder targets L using lexical(4)
  attack same_final targets U, L
  lattice U = 0.5, L = 1.2, F = 1
  bootstrap 200
  expect asr(R_L, launder, oracle_worst) == 0
  expect asr(R0, launder, first_visible) <= 50%
  expect minimal_repair == {L}
}
`;

const passages: Passage[] = [
  { id: 'p1', title: 'Big city', text: 'a big old city on a river' },
  { id: 'p2', title: 'Capital', text: 'the capital of france is paris' },
  { id: 'p3', title: 'London', text: 'london is large' },
  { id: 'p4', title: 'Paris', text: 'paris has museums' },
];

let line = 0;
function trajectory(id: string, questionId: string, results: string[], citations: string[] | null, support: string[] = ['p2']): Trajectory {
  return {
    id, question_id: questionId, question: 'What is the capital of France?',
    steps: results.length === 0 ? [] : [{ type: 'search', query: 'capital of france', results }],
    final: citations === null ? null : { answer: 'Paris', citations, text: `<answer>Paris</answer> ${citations.map((c) => `[${c}]`).join(' ')}` },
    gold: { answers: ['Paris'], support_ids: support },
    meta: {},
    source: { pool: 'p', file: 'p.jsonl', line: ++line },
  };
}

export const goldenRows: Trajectory[] = [
  // q1, row 1: cites an ungrounded retrieved passage; laundering p2 grounds it and hits gold support.
  trajectory('t1', 'q1', ['p1'], ['p1']),
  // q1, row 2: already grounded; its only candidate p3 removes grounding, so the attack loses.
  trajectory('t2', 'q1', ['p4'], ['p4']),
  // q2: grounded through p4 but misses gold support; p2 keeps grounding (tie under R0).
  trajectory('t3', 'q2', ['p4'], ['p4']),
  // q3: cites an unretrieved corpus id already: L is 1 before any edit, so no edit is eligible.
  trajectory('t4', 'q3', ['p1'], ['p1', 'p3']),
  // q4: grounded at position 0, a fake id at position 1. Laundering position 1 flips F 1 → 0 (not
  // isolated); laundering position 0 is isolated and halves grounding, so it loses.
  trajectory('t5', 'q4', ['p4'], ['p4', 'zzz']),
  // q5: no final: nothing to launder and no same-final edit.
  trajectory('t6', 'q5', ['p1'], null),
];

/** The golden corpus, as the audit reads it. */
export const goldenCorpus = { file: 'c.jsonl', passages: new Map(passages.map((p) => [p.id, p])) };

const candidateLists: Record<string, string[]> = { t1: ['p2', 'p3'], t2: ['p3'], t3: ['p2'], t4: ['p2'], t5: ['p3'] };
const candidates: CandidateSource = {
  candidatesFor: (_plan, t, _position, exclude) => (candidateLists[t.id] ?? []).filter((id) => !exclude.has(id)),
  drops: () => [],
};

export function goldenAudit(text = goldenSpec, data = goldenRows): AuditReport {
  const { model, problems } = analyze(text);
  assert.deepEqual(problems.filter((p) => p.severity === 'error'), []);
  const decl = model.spec.decls.find((d) => d.kind === 'audit');
  assert.ok(decl?.kind === 'audit');
  const plan = planAudit(decl, text);
  assert.ok(plan);
  const report = runAudit(model, plan, {
    corpusName: 'c', corpus: goldenCorpus, corpusIssues: [],
    pools: [{ name: 'p', file: 'p.jsonl', rows: data, issues: [] }],
  }, candidates, new LineIndex(text));
  assert.ok(report);
  return report;
}

