import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { makeBaseline, regressions } from '../../server/src/audit/baseline.js';
import { reportVersion, type AuditReport, type Report } from '../../server/src/report/schema.js';
import { analyze } from '../../server/src/semantics/analyze.js';
import { goldenAudit, goldenSpec } from '../helpers/golden-audit.js';

function reportOf(audit: AuditReport): Report {
  return { version: reportVersion, tool: { name: 'herald', version: 'test' }, spec: 'golden.reward', audits: [audit] };
}

/** The golden audit with one result's rate and upper bound replaced. */
function withFigure(audit: AuditReport, asr: number, high: number, method: 'bootstrap' | 'exact-zero'): AuditReport {
  const copy = structuredClone(audit);
  const result = copy.attacks[0]?.results[0];
  assert.ok(result);
  result.estimate.asr = asr;
  result.estimate.interval = { ...result.estimate.interval, low: asr === 0 ? 0 : asr / 2, high, method };
  return copy;
}

describe('baseline regressions', () => {
  const audit = goldenAudit();
  const model = analyze(goldenSpec).model;
  const baseline = makeBaseline(reportOf(withFigure(audit, 0.02, 0.004 + 0.02, 'bootstrap')), model);
  const found = (asr: number, high: number, method: 'bootstrap' | 'exact-zero'): number =>
    regressions(reportOf(withFigure(audit, asr, high, method)), baseline).length;

  it('flags a rate that rose', () => {
    assert.equal(found(0.03, 0.035, 'bootstrap'), 1);
  });

  it('flags a bound that widened at the same rate (weaker evidence)', () => {
    assert.equal(found(0.02, 0.05, 'bootstrap'), 1);
  });

  it('does not flag a rate that fell to zero, though the exact zero bound is above the old bootstrap bound', () => {
    assert.equal(found(0, 0.05, 'exact-zero'), 0);
  });

  it('does not flag the accepted figures themselves', () => {
    assert.equal(found(0.02, 0.024, 'bootstrap'), 0);
  });
});
