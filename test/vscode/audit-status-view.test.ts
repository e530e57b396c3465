import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { auditStatusView, clock } from '../../client/src/audit-status-view.js';

// The status bar's text and tooltip per audit status (client/src/audit-status-view.ts): a spec with
// errors says "not audited" with the first error, never the last good result nor its time.

const uri = 'file:///w/spec.reward';
const at = new Date(2026, 0, 2, 13, 4, 5);

describe('the audit status bar', () => {
  it('a finished audit gives its result, when it finished and how long it took', () => {
    const view = auditStatusView({ uri, state: 'passed', message: '1 of 1 expectation holds', durationMs: 1234 }, at);
    assert.equal(view.text, '$(pass) HERALD 1 of 1 expectation holds');
    assert.equal(view.tooltip, `HERALD audit finished: every expectation holds.\n1 of 1 expectation holds (at ${clock(at)}, in 1.2 s). Click for the report.`);
    assert.equal(view.background, undefined);
  });

  it('a spec with errors is "not audited: N errors", red, with the first error and no time', () => {
    const errors = { count: 2, first: { line: 5, message: "unknown name 'fromat_ok'; did you mean 'format_ok'?" } };
    const view = auditStatusView({ uri, state: 'notAudited', message: "not audited: 2 errors; line 5: unknown name 'fromat_ok'; did you mean 'format_ok'?", errors }, at);
    assert.equal(view.text, '$(circle-slash) HERALD not audited: 2 errors');
    assert.equal(view.tooltip,
      "HERALD did not audit this spec: it has errors (the Problems panel lists them), and earlier results are not shown.\nThe first: line 5: unknown name 'fromat_ok'; did you mean 'format_ok'?");
    assert.ok(!view.tooltip.includes(clock(at)));
    assert.equal(view.background, 'error');
  });

  it('one error is counted in the singular', () => {
    const view = auditStatusView({ uri, state: 'notAudited', message: '…', errors: { count: 1, first: { line: 2, message: "cannot find 'pool.jsonl'" } } }, at);
    assert.equal(view.text, '$(circle-slash) HERALD not audited: 1 error');
  });

  it('a spec whose errors were fixed and that no audit has run on since says what would audit it, with no result', () => {
    const view = auditStatusView({ uri, state: 'notAudited', message: 'not audited since its errors were fixed: save the spec to audit it' }, at);
    assert.equal(view.text, '$(circle-slash) HERALD not audited');
    assert.equal(view.tooltip, 'HERALD: not audited since its errors were fixed: save the spec to audit it. No result shows until it is audited.');
    assert.equal(view.background, undefined);
  });
});
