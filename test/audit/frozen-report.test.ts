// samples/deep-research: the reward reads the grader's verdict (`judge`), which no format renders
// again after an edit. The sample says the verdict depends on the answer and the final text, so the
// steps-only attack (same_final) is counted and the two that rewrite the response's citations
// (fake_id, launder) are frozen: marked in the JSON and the table, never counted, never repaired.
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { describe, it } from 'node:test';
import { auditSpec, newAuditCaches, type AuditOutcome } from '../../server/src/audit/audit-spec.js';
import { specFindings } from '../../server/src/findings/spec-findings.js';
import { auditIssueCodes, issueCodes } from '../../server/src/problems/issue-codes.js';
import type { Problem } from '../../server/src/problems/problem.js';
import { formatTable } from '../../server/src/render/format-table.js';
import { report as reportSchema, type AuditReport } from '../../server/src/report/schema.js';

const sampleDir = path.resolve(__dirname, '../../../samples/deep-research');
const specFile = path.join(sampleDir, 'deep-research.reward');
const sample = fs.readFileSync(specFile, 'utf8');
const dependsOn = ' depends on answer, final_text';

async function audited(text: string): Promise<{ outcome: AuditOutcome; audit: AuditReport; findings: Problem[] }> {
  const outcome = await auditSpec(text, specFile, { cache: newAuditCaches(), candidateCache: false, workers: 1 });
  const audit = outcome.report?.audits[0];
  assert.ok(audit, JSON.stringify(outcome.problems));
  const findings = specFindings({ model: outcome.model, text, specDir: sampleDir, report: outcome.report, dataIssues: outcome.dataIssues, dataOwners: outcome.dataOwners, failures: outcome.failures });
  return { outcome, audit, findings };
}

const spanText = (text: string, p: Problem): string => text.slice(p.span.start, p.span.end);

describe('frozen figures: samples/deep-research', () => {
  it('the sample declares what the verdict depends on', () => {
    assert.ok(sample.includes(`= meta.judge.score${dependsOn}\n`));
  });

  it('marks the citation attacks frozen in the JSON, keeps their estimates, and counts the steps-only attack', async () => {
    const { audit, outcome } = await audited(sample);
    assert.ok(reportSchema.safeParse(outcome.report).success);
    const results = (attack: string) => audit.attacks.find((a) => a.name === attack)!.results;
    assert.ok(results('same_final').every((r) => r.frozen === undefined));
    for (const attack of ['fake_id', 'launder']) {
      assert.equal(results(attack).length, 6);
      for (const r of results(attack)) {
        assert.deepEqual(r.frozen, { fields: [{ name: 'judge', path: 'meta.judge.score', pools: ['runs'] }], edit: attack, writes: ['final_text'] });
        // The figure as logged stays in the report, marked: never replaced by a silent 0.
        assert.notEqual(r.estimate.asr, null);
      }
    }
    const fakeDeep = results('fake_id').find((r) => r.reward === 'deep' && r.selection === 'oracle_worst')!;
    assert.ok(fakeDeep.estimate.asr! > 0.2);
    assert.ok(audit.perPool.filter((e) => e.attack !== 'same_final').every((e) => e.frozen !== undefined));
    assert.ok(audit.perPool.filter((e) => e.attack === 'same_final').every((e) => e.frozen === undefined));
    assert.ok(audit.aggregate.filter((e) => e.attack === 'fake_id').every((e) => e.frozen?.edit === 'fake_id'));
  });

  it('repairs from the unfrozen attacks only: the lattice, the certificate, the sweep and the cancellation', async () => {
    const { audit } = await audited(sample);
    assert.deepEqual(audit.lattice.frozen, ['fake_id', 'launder']);
    assert.deepEqual([...new Set(audit.lattice.subsets.flatMap((s) => s.results.map((r) => r.attack)))], ['same_final']);
    assert.deepEqual(audit.lattice.minimal, [['U'], ['L']]);
    assert.ok(audit.certificate.every((c) => c.example === null || c.example.attack === 'same_final'));
    assert.ok(audit.sweep.every((e) => e.attack === 'same_final'));
    assert.ok(audit.cancellation.every((c) => c.attack === 'same_final'));
    assert.ok(audit.expectations.every((e) => e.passed), JSON.stringify(audit.expectations));
  });

  it('warns at the term, and the findings name the field and the edits instead of attack-succeeds', async () => {
    const { outcome, findings } = await audited(sample);
    const warnings = outcome.problems.filter((p) => p.code === issueCodes.frozenField);
    assert.equal(warnings.length, 1);
    assert.equal(spanText(sample, warnings[0]!), 'correct     1.0  * judge');
    assert.match(warnings[0]!.message, /judge depends on answer and final_text, and in audit deep_research fake_id writes final_text; launder writes final_text: their figures under deep, deep_L and deep_LF are marked frozen/);

    const succeeds = findings.filter((p) => p.code === auditIssueCodes.attackSucceeds);
    assert.equal(succeeds.length, 1);
    assert.match(succeeds[0]!.message, /same_final beats deep/);
    assert.doesNotMatch(succeeds[0]!.message, /fake_id|launder/);
    assert.deepEqual((succeeds[0]!.data as { repair: { detector: string }[] }).repair.map((t) => t.detector), ['U']);

    const frozen = findings.filter((p) => p.code === auditIssueCodes.frozenFigures);
    assert.deepEqual(frozen.map((p) => [spanText(sample, p), p.severity]), [['reward deep', 'warning'], ['deep_L', 'warning'], ['deep_LF', 'information']]);
    assert.equal(frozen[0]!.message,
      'in audit deep_research, the figures of deep under fake_id, launder are frozen: deep reads judge (meta.judge.score) as logged, which pool runs cannot recompute after an edit; ' +
      'fake_id writes final_text (as logged, oracle-worst 29.12%); launder writes final_text (as logged, oracle-worst 86.19%). ' +
      "They are not counted as deep's figures, and no repair is worked out from them");
    assert.deepEqual(frozen[0]!.data, { audit: 'deep_research', reward: 'deep', attacks: ['fake_id', 'launder'], fields: ['judge'] });
  });

  it('the table prints frozen in place of the rate, says why, and says what the lattice left out', async () => {
    const { outcome } = await audited(sample);
    const table = formatTable(outcome.report!);
    assert.match(table, /deep {5}oracle_worst {3}frozen \(29\.12% as logged\)/);
    assert.match(table, /deep {5}oracle_worst {3}100\.00% \[100\.0, 100\.0\]/);
    const flowing = table.replace(/\s+/g, ' ');
    assert.ok(flowing.includes("frozen: deep, deep_L, deep_LF read judge (meta.judge.score) as logged, which pool runs cannot recompute after an edit, and fake_id writes final_text. These rows are not the rewards' figures"));
    assert.ok(flowing.includes('Left out: fake_id, launder, whose figures under deep are frozen; the lattice, the certificate and the sweep read the other attacks only.'));
  });

  it('unsaid, the verdict may depend on the steps too: every attack is frozen and no expectation holds', async () => {
    const text = sample.replace(dependsOn, '');
    const { audit, findings } = await audited(text);
    assert.ok(audit.attacks.every((a) => a.results.every((r) => r.frozen !== undefined)));
    assert.equal(audit.attacks.find((a) => a.name === 'same_final')!.results[0]!.frozen!.writes.join(), 'steps');
    assert.deepEqual(audit.lattice.frozen, ['same_final', 'fake_id', 'launder']);
    assert.equal(audit.lattice.vacuous, true);
    assert.deepEqual(findings.filter((p) => p.code === auditIssueCodes.attackSucceeds), []);
    assert.deepEqual(audit.expectations.map((e) => [e.passed, e.actual]), [
      [false, "asr is frozen: deep_L reads judge (meta.judge.score) as logged, which pool runs cannot recompute after an edit, and same_final writes steps: not counted as deep_L's figure"],
      [false, 'nothing to repair: no isolated-eligible edit (without same_final, fake_id, launder: frozen, see frozen-figures)'],
    ]);
  });
});
