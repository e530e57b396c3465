// Issue 35: a reward's hover gives the strict rate (margin > 0) beside the paper's, where a tie counts.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { auditHoverLines } from '../../server/src/lsp/audit-hover.js';
import { analyze } from '../../server/src/semantics/analyze.js';
import { goldenSpec } from '../helpers/golden-audit.js';
import { goldenReport } from '../report/golden-report.js';

describe('audit hover: the strict rate', () => {
  const report = goldenReport();
  const { model } = analyze(goldenSpec);
  const hover = (name: string): string => auditHoverLines(report, model.globals.get(name)!, false).join('\n');

  it('says how much of the oracle-worst ASR is ties, where the strict rate differs', () => {
    // Under R0, same_final changes nothing R0 reads (every margin 0), and launder strictly wins on one cluster's share.
    assert.match(hover('R0'), /launder 50\.00% \[0\.0, 100\.0\] \(strictly 16\.67% \[0\.0, 50\.0\]: the rest are ties\) †/);
    assert.match(hover('R0'), /same_final 100\.00% \[100\.0, 100\.0\] \(strictly 0\.00% \(≤ 63\.16%\): the rest are ties\) †/);
  });

  it('says nothing more where no margin is a tie', () => {
    assert.doesNotMatch(hover('R_L'), /strictly/);
  });
});
