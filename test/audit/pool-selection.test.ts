import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { auditEditPlan, planAudit } from '../../server/src/audit/plan.js';
import { hashIndex, sampleGroups, selectRows } from '../../server/src/audit/pool-selection.js';
import { rewardScorer } from '../../server/src/edits/features.js';
import { compilePlan, noCandidates, prepareEdits } from '../../server/src/edits/prepare.js';
import type { Passage, Trajectory } from '../../server/src/pool/types.js';
import type { PoolSelection } from '../../server/src/semantics/audit-options.js';
import { analyze } from '../../server/src/semantics/analyze.js';
import { goldenAudit } from '../helpers/golden-audit.js';

// Hand-built sample groups; every expected row below is worked out by hand from the rules in
// docs/language.md ("Pool selection"), the hash with Python's hashlib:
//   int.from_bytes(sha256(b'qb').digest()[:4], 'big') = 584186689 → mod 3 = 1
//   int.from_bytes(sha256(b'qc').digest()[:4], 'big') = 2574345425 → mod 2 = 1

const spec = (options: string): string => `corpus c = "c.jsonl"
pool p = "p.jsonl"
detector U "no search" = has_final and answer != "" and search_calls == 0
detector L "cites unretrieved" = any x in citations: x in corpus and x not in retrieved
detector F "cites fakes" = any x in citations: x not in corpus
reward R0 { em 1.0 * exact_match(answer, gold.answers) }
reward R_L = R0 - 1.2 * L
audit a {
  reward R0
  compare R_L
  corpus c
  pools p
  attack same_final targets U, L
  attack fake_id targets F
  lattice L = 1.2, F = 1
  bootstrap 50
${options}
}
`;

const passages: Passage[] = [
  { id: 'p2', title: 'Capital', text: 'the capital of france is paris' },
  { id: 'p4', title: 'Paris', text: 'paris has museums' },
];

let line = 0;
function row(id: string, questionId: string, answer: string, citations: string[], meta: Trajectory['meta']): Trajectory {
  return {
    id, question_id: questionId, question: 'What is the capital of France?',
    steps: [{ type: 'search', query: 'capital of france', results: citations }],
    final: { answer, citations, text: `<answer>${answer}</answer>` },
    gold: { answers: ['Paris'], support_ids: ['p2'] },
    meta, source: { pool: 'p', file: 'p.jsonl', line: ++line },
  };
}

const rows: Trajectory[] = [
  // qb, file order 0, 1, 2; `first` order: row 1 (sample 0), row 2 (sample 1), row 0 (sample 2).
  row('qb#2', 'qb', 'Paris', ['p2'], { sample: 2 }), // EM 1, support recall 1
  row('qb#0', 'qb', 'Lyon', ['p2'], { sample: 0, stored: true }), // EM 0, the stored sample
  row('qb#1', 'qb', 'Paris', ['p4'], { sample: 1 }), // EM 1, support recall 0
  // qc: an unnumbered row, then sample 0; `first` order: row 4, row 3. Nothing marked stored.
  row('qc#x', 'qc', 'Paris', ['p2'], {}),
  row('qc#0', 'qc', 'Paris', ['p4'], { sample: 0 }),
  // qa: one row with an empty answer: same_final cannot flip U here; fake_id is isolated-eligible.
  row('qa', 'qa', '', ['p2'], {}),
];

function prepared(options = '') {
  const text = spec(options);
  const { model, problems } = analyze(text);
  assert.deepEqual(problems.filter((p) => p.severity === 'error'), []);
  const decl = model.spec.decls.find((d) => d.kind === 'audit');
  assert.ok(decl?.kind === 'audit');
  const plan = planAudit(decl, text);
  assert.ok(plan);
  const inputs = { corpusName: 'c', corpus: { file: 'c.jsonl', passages: new Map(passages.map((p) => [p.id, p])) }, corpusIssues: [], pools: [{ name: 'p', file: 'p.jsonl', rows, issues: [] }] };
  const edits = prepareEdits(model, auditEditPlan(plan), inputs, noCandidates);
  assert.ok(edits);
  const { rewards } = compilePlan(model, auditEditPlan(plan));
  return { edits, scorers: rewards.map((r) => rewardScorer(edits.table, r)), text };
}

function picked(selection: PoolSelection): { ids: string[]; unselected: number } {
  const { edits, scorers } = prepared();
  const result = selectRows(edits, selection, scorers);
  return { ids: rows.filter((_r, i) => result.keep[i] === 1).map((r) => r.id), unselected: result.unselected };
}

describe('pool selection rules on hand-built sample groups', () => {
  it('orders a group by meta.sample, unnumbered rows last, file order among equals', () => {
    const { edits } = prepared();
    assert.deepEqual(sampleGroups(edits).map((g) => g.map((r) => rows[r]!.id)), [['qb#0', 'qb#1', 'qb#2'], ['qc#0', 'qc#x'], ['qa']]);
  });

  it('all keeps every row; first the smallest meta.sample', () => {
    assert.deepEqual(picked({ rule: 'all' }).ids, rows.map((r) => r.id));
    assert.deepEqual(picked({ rule: 'first' }).ids, ['qb#0', 'qc#0', 'qa']);
  });

  it('stored takes the marked row, a one-row group, and nothing from an unmarked group', () => {
    assert.deepEqual(picked({ rule: 'stored' }), { ids: ['qb#0', 'qa'], unselected: 1 });
  });

  it('hash_random takes position SHA-256(question_id) mod n in first order', () => {
    assert.equal(hashIndex('qb', 3), 1);
    assert.equal(hashIndex('qc', 2), 1);
    assert.equal(hashIndex('qa', 1), 0);
    assert.deepEqual(picked({ rule: 'hash_random' }).ids, ['qb#1', 'qc#x', 'qa']);
  });

  it('best(R) takes the highest score, a tie going to the earlier row in first order', () => {
    // qb: EM ties between samples 1 and 2 → sample 1 (qb#1); qc: both EM 1 → sample 0.
    assert.deepEqual(picked({ rule: 'best', reward: 'R0' }).ids, ['qb#1', 'qc#0', 'qa']);
  });

  it('gold_informed breaks an exact-match tie by support recall', () => {
    // qb: qb#2 and qb#1 both EM 1; qb#2 cites the gold support. qc: qc#x cites it.
    assert.deepEqual(picked({ rule: 'gold_informed' }).ids, ['qb#2', 'qc#x', 'qa']);
  });
});

describe('robustness and common clusters in the report', () => {
  const audit = (options: string) => goldenAuditOf(options);

  it('restricts every attack figure to the clusters every attack is eligible in, and says n', () => {
    const each = audit('');
    const fake = (r: typeof each) => r.attacks.find((a) => a.name === 'fake_id')!.results[0]!.estimate.clusters;
    assert.equal(fake(each), 3);
    assert.equal(each.clusterSet, undefined);
    const common = audit('  clusters common');
    assert.deepEqual(common.clusterSet, { rule: 'common', clusters: 2 });
    assert.equal(fake(common), 2);
    for (const attack of common.attacks) for (const r of attack.results) assert.ok(r.estimate.clusters <= 2);
  });

  it('labels by taint: gold_informed and best of a gold-reading reward are oracle', () => {
    const report = audit('  robustness first, best(R0), gold_informed');
    assert.deepEqual(report.robustness?.map((e) => [e.selection, e.visibility, e.rows, e.groups]), [
      ['first', 'visible', 3, 3], ['best(R0)', 'oracle', 3, 3], ['gold_informed', 'oracle', 3, 3],
    ]);
    const labels = (i: number) => [...new Set(report.robustness![i]!.results.map((r) => r.label))];
    assert.deepEqual(labels(1), ['oracle upper bound']);
    assert.deepEqual(labels(2), ['oracle upper bound']);
    // Under first, first-visible stays label-free.
    assert.ok(report.robustness![0]!.results.some((r) => r.selection === 'first_visible' && r.label === 'label-free'));
  });

  it('select narrows the audit and reports the rows it kept', () => {
    const report = audit('  select stored');
    assert.deepEqual(report.poolSelection, { selection: 'stored', visibility: 'visible', groups: 3, rows: 2, unselected: 1 });
    assert.ok(report.attacks.every((a) => a.results.every((r) => r.estimate.rows <= 2)));
  });
});

/** The audit over these rows (the golden corpus holds p2 and p4 too). */
function goldenAuditOf(options: string) {
  return goldenAudit(spec(options), rows);
}
