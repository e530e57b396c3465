import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { planAudit, type AuditPlan } from '../../server/src/audit/plan.js';
import type { WorkedPair } from '../../server/src/report/schema.js';
import { analyze } from '../../server/src/semantics/analyze.js';
import type { SpecModel } from '../../server/src/semantics/check.js';
import { computeWorkedPair, editedRow, type ComputedPair } from '../../server/src/lsp/worked-pair.js';
import { editedText, pairHeader, rowText } from '../../server/src/lsp/worked-pair-text.js';
import { pairLabel } from '../../server/src/lsp/worked-pair-links.js';
import { pairEditTitle } from '../../server/src/contract/protocol.js';
import { goldenAudit, goldenCorpus, goldenRows, goldenSpec } from '../helpers/golden-audit.js';

// The attacked-trajectory view's numbers: a worked pair rebuilt from the spec and its row, term by
// term, must give the very margins the audit reported for it.

function goldenPlan(): { model: SpecModel; plan: AuditPlan } {
  const { model } = analyze(goldenSpec);
  const decl = model.globals.get('a')?.decl;
  assert.ok(decl?.kind === 'audit');
  const plan = planAudit(decl, goldenSpec);
  assert.ok(plan);
  return { model, plan };
}

function rebuild(pair: Pick<WorkedPair, 'trajectory' | 'attack' | 'position' | 'replacement'>): ComputedPair {
  const { model, plan } = goldenPlan();
  const row = goldenRows.find((r) => r.id === pair.trajectory);
  assert.ok(row, pair.trajectory);
  const outcome = computeWorkedPair(model, plan, goldenCorpus, row, pair);
  assert.ok(outcome.ok, outcome.ok ? '' : outcome.reason);
  return outcome.pair;
}

/** A golden row as its JSON line would hold it (the loader adds `source`). */
function rawRow(id: string): Record<string, unknown> {
  const row: Record<string, unknown> = JSON.parse(JSON.stringify(goldenRows.find((r) => r.id === id)!));
  delete row['source'];
  return row;
}

describe('worked pair: rebuilt from the spec and the row', () => {
  const report = goldenAudit();
  const pairs = [...report.cancellation.map((c) => c.example), ...report.certificate.flatMap((c) => (c.example === null ? [] : [c.example]))];

  it('has worked pairs to check (cancellation and certificate examples, both attacks)', () => {
    assert.ok(pairs.length >= 3, JSON.stringify(pairs));
    assert.deepEqual(new Set(pairs.map((p) => p.attack)), new Set(['launder', 'same_final']));
  });

  it('gives every reward the margin the report gives the pair, exactly', () => {
    for (const pair of pairs) {
      const rebuilt = rebuild(pair);
      assert.deepEqual(Object.fromEntries(rebuilt.rewards.map((r) => [r.reward, r.margin])), pair.margins, `${pair.trajectory} ${pair.attack}`);
    }
  });

  it('adds the terms up to the margin: w·(edited − original) per term', () => {
    const pair = report.cancellation.find((c) => c.larger === 'R_full')!.example;
    const rebuilt = rebuild(pair);
    assert.deepEqual(rebuilt.rewards.map((r) => [r.reward, r.role]), [['R0', 'audited'], ['R_L', 'compared'], ['R_full', 'compared']]);
    const full = rebuilt.rewards.find((r) => r.reward === 'R_full')!;
    // The paper's worked pair: grounding 0 → 1, L switched on, the active support penalty switched off.
    assert.deepEqual(full.terms.map((t) => [t.name, t.weight, t.original, t.edited]), [['g', 0.81375, 0, 1], ['L', -1.2, 0, 1], ['support_miss', -0.8, 1, 0]]);
    for (const r of rebuilt.rewards) {
      for (const t of r.terms) assert.equal(t.contribution, t.weight * (t.edited - t.original));
      assert.ok(Math.abs(r.sum - r.margin) < 1e-12, `${r.reward}: ${r.sum} vs ${r.margin}`);
    }
    assert.deepEqual(rebuilt.detectors, [
      { name: 'U', target: false, original: 0, edited: 0 }, { name: 'L', target: true, original: 0, edited: 1 }, { name: 'F', target: false, original: 0, edited: 0 },
    ]);
  });

  it('shows a citation edit in the citations and the final text, and nothing else', () => {
    const pair = report.cancellation.find((c) => c.attack === 'launder')!.example;
    assert.deepEqual([pair.trajectory, pair.position, pair.replacement], ['t1', 0, 'p2']);
    const rebuilt = rebuild(pair);
    const before = rawRow('t1');
    const after = editedRow(before, rebuilt);
    assert.deepEqual(after, { ...before, final: { answer: 'Paris', citations: ['p2'], text: '<answer>Paris</answer> [p2]' } });
    assert.match(rebuilt.description, /^launder: citation 0 p1 → p2 in final.citations and in final.text$/);
  });

  it('shows a same-final edit as the search steps gone', () => {
    const rebuilt = rebuild({ trajectory: 't1', attack: 'same_final', position: null, replacement: null });
    const before = rawRow('t1');
    assert.deepEqual(editedRow(before, rebuilt), { ...before, steps: [] });
    assert.deepEqual(rebuilt.detectors.filter((d) => d.target).map((d) => [d.name, d.original, d.edited]), [['U', 0, 1], ['L', 0, 1]]);
  });

  it('names the attack and the edit once each, in the diff tab and the links (never "same_final same-final edit")', () => {
    assert.equal(pairEditTitle({ attack: 'same_final', position: null, replacement: null }), 'same_final edit');
    assert.equal(pairEditTitle({ attack: 'launder', position: 0, replacement: 'p2' }), 'launder citation 0 → p2');
    assert.equal(pairEditTitle({ attack: 'fake_id', position: 1, replacement: null }), 'fake_id citation 1');
    assert.equal(pairEditTitle({ attack: 'drop', position: null, replacement: null, change: 'step 2 deleted' }), 'drop step 2 deleted');
    assert.equal(pairLabel({ trajectory: 't1', attack: 'same_final', position: null, replacement: null }), 't1, same_final edit');
  });

  it('says why a pair cannot be rebuilt: no such attack, no such citation, no same-final edit', () => {
    const { model, plan } = goldenPlan();
    const row = (id: string) => goldenRows.find((r) => r.id === id)!;
    const reason = (id: string, edit: { attack: string; position: number | null; replacement: string | null }): string => {
      const outcome = computeWorkedPair(model, plan, goldenCorpus, row(id), edit);
      assert.ok(!outcome.ok);
      return outcome.reason;
    };
    assert.match(reason('t1', { attack: 'nope', position: 0, replacement: 'p2' }), /audit a has no attack nope/);
    assert.match(reason('t1', { attack: 'launder', position: 3, replacement: 'p2' }), /has 1 citations: there is no citation 3/);
    assert.match(reason('t1', { attack: 'launder', position: null, replacement: null }), /needs a citation position/);
    assert.match(reason('t6', { attack: 'same_final', position: null, replacement: null }), /has no same_final edit/);
  });

  it('says why when the rebuilt edit grows past its bounds, as the audit does, instead of failing the request', () => {
    const grow = Array.from({ length: 30 }, () => 'duplicate all s in steps').join(', ');
    const spec = `${goldenSpec}edit grow "doubles the steps, again and again" = ${grow}
audit b {
  reward R0
  corpus c
  pools p
  attack grow targets U
}
`;
    const { model, problems } = analyze(spec);
    assert.deepEqual(problems.filter((p) => p.severity === 'error'), []);
    const decl = model.globals.get('b')?.decl;
    assert.ok(decl?.kind === 'audit');
    const plan = planAudit(decl, spec);
    assert.ok(plan);
    const outcome = computeWorkedPair(model, plan, goldenCorpus, goldenRows.find((r) => r.id === 't1')!, { attack: 'grow', position: null, replacement: null });
    assert.ok(!outcome.ok);
    assert.match(outcome.reason, /^edit 'grow': .*more than the 10,000 an edit may add/);
  });
});

describe('worked pair: the two documents of the diff', () => {
  const pair = goldenAudit().cancellation.find((c) => c.larger === 'R_full')!.example;
  const rebuilt = rebuild(pair);
  const heading = { audit: 'a', attack: pair.attack, trajectory: pair.trajectory, pool: 'p', file: 'p.jsonl', line: pair.line, edit: rebuilt.description };
  const edited = editedRow(rawRow('t1'), rebuilt);
  const text = editedText(heading, rebuilt.rewards, rebuilt.detectors, edited);

  it('pretty-prints the original row as JSON', () => {
    assert.equal(rowText(rawRow('t1')), `${JSON.stringify(rawRow('t1'), null, 2)}\n`);
  });

  it('opens the edited row with a comment block, then its JSON', () => {
    const lines = text.split('\n');
    const json = lines.filter((l) => !l.startsWith('//')).join('\n');
    assert.deepEqual(JSON.parse(json), edited);
    assert.ok(lines.findIndex((l) => !l.startsWith('//')) > 0);
  });

  it('works each margin out term by term, as a user would check it by hand', () => {
    const header = pairHeader(heading, rebuilt.rewards, rebuilt.detectors);
    assert.match(header[0]!, /^\/\/ HERALD worked pair: trajectory t1 \(pool p, p\.jsonl:1\), attack launder of audit a\.$/);
    assert.ok(header.some((l) => /^\/\/ Detectors: U 0 → 0, L 0 → 1 \(target\), F 0 → 0: isolated-eligible/.test(l)), header.join('\n'));
    const row = (name: string): string => header.find((l) => l.startsWith(`//   ${name} `))!;
    assert.match(row('support_miss'), /support_miss\s+−0\.8\s+1\s+0\s+\+0\.80000$/);
    assert.match(row('L'), /L\s+−1\.2\s+0\s+1\s+−1\.20000$/);
    assert.ok(header.includes('//   M(R0) = Σ w·Δ = +0.81375: the edit is not worse: the attack succeeds'), header.join('\n'));
    assert.ok(header.includes('//   M(R_L) = Σ w·Δ = −0.38625: the reward prefers the original'));
    assert.ok(header.includes('//   M(R_full) = Σ w·Δ = +0.41375: the edit is not worse: the attack succeeds'));
  });

  it('keeps a line break or a control character in an id from ending a comment', () => {
    const header = pairHeader({ ...heading, trajectory: 't1\n{"x": 1}' }, rebuilt.rewards, rebuilt.detectors);
    assert.ok(header.every((l) => l.startsWith('//') && !l.includes('\n')));
  });
});
