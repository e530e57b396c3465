import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { formatTable } from '../../server/src/render/format-table.js';
import { failingSpec, goldenReport, withAudit } from './golden-report.js';

const width = (line: string): number => [...line].length;
// eslint-disable-next-line no-control-regex
const stripAnsi = (text: string): string => text.replace(/\u001b\[[0-9;]*m/g, '');

function assertFits(text: string): void {
  for (const line of stripAnsi(text).split('\n')) assert.ok(width(line) <= 120, `${width(line)} columns: ${line}`);
}

describe('formatTable', () => {
  const table = formatTable(goldenReport());
  const lines = table.split('\n');

  it('shows the header: audited reward with visibility, compared rewards, corpus, pool, clusters', () => {
    assert.match(table, /audited reward +R0 \(oracle: reads gold\)/);
    assert.match(table, /compared +R_L \(oracle: reads gold\), R_full \(oracle: reads gold\)/);
    assert.match(table, /corpus +c: c\.jsonl, 4 passages/);
    assert.match(table, /pool +p: p\.jsonl, 6 rows, 5 questions, 0 skipped rows/);
    assert.match(table, /clusters +5 distinct question ids/);
  });

  it('shows counts and each reward × selection with its interval or zero bound, margins and label', () => {
    assert.ok(lines.some((l) => /^ {2}edits +8 +6 +5$/.test(l)), 'launder edits: constructible 8, eligible 6, isolated 5');
    // Every rate rests on 3 clusters: each is marked, zero or not, and the note says why.
    // The strict ASR (margin > 0) beside it: launder strictly beats R0 on one of its 3 clusters' shares, the rest are ties.
    assert.ok(lines.some((l) => /R0 +first_visible +50\.00% \[0\.0, 100\.0\] † +16\.67% +−0\.1356\d +\+0\.81375 +3 +4 +label-free/.test(l)));
    assert.ok(lines.some((l) => /R_L +oracle_worst +0\.00% \(≤ 63\.16%\) † +0\.00% +−1\.33563 +−0\.38625 +3 +4 +oracle UB/.test(l)));
    assert.match(table, /^ {2}† under 59 clusters: a small sample \(a zero bounds the rate only above 4\.95%; an interval over so few is too narrow\)$/m);
  });

  it('explains the labels where they appear: why a reward that reads gold has label-free rows', () => {
    assert.match(table.replace(/\s+/g, ' '), /labels label-free: the edit was chosen without reading gold \(first-visible\), even when the reward that scores it reads gold; oracle UB = oracle upper bound: /);
  });

  it('lists each lattice detector\'s effect on the attacks\' margins', () => {
    assert.ok(lines.some((l) => /^ {2}L +launder +1\.2 +\d+\.\d\d% +−\d\.\d{5} +−\d\.\d{5}$/.test(l)), table);
  });

  it('marks the minimal repair {L} in the lattice and only there', () => {
    const marked = lines.filter((l) => l.includes('◀ minimal repair'));
    assert.equal(marked.length, 1);
    assert.match(marked[0]!, /^ {2}\{L\} +R0 − 1\.2·L +0\.00% \(≤ 63\.16%\) † +0\.00% \(≤ 63\.16%\) † +✓ +◀ minimal repair$/);
    assert.match(table, /Observed inclusion-minimal repair: \{L\}; U, F are in no minimal repair\./);
  });

  it('prints the worked cancellation pair, its strata and the certificate', () => {
    assert.ok(table.includes('R0 +0.81375 → R_L −0.38625 → R_full +0.41375'));
    assert.match(table, /strata under R_full: support_miss active 16\.67% \[0\.0, 50\.0\] over 3 clusters/);
    assert.ok(table.includes('λ_L = 1.2 > max gain 0.81375 ✓'));
    assert.ok(table.includes('λ_F = 1: no audited edit triggers F (vacuous) ✓'));
  });

  it('prints the sweep, retention, utility, per-pool figures and expectations', () => {
    assert.ok(lines.some((l) => /launder +first_visible +label-free +3 +ASR +50\.00% † +16\.67% † +16\.67% † +0\.00% † +0\.00% †$/.test(l)));
    // Retention over the 2 compatible clusters: all retained under R_L (the bound mirrored), none under R_full.
    assert.ok(lines.some((l) => /R_L +L +3 +3 +2 +100\.00% \(≥ 22\.36%\)$/.test(l)));
    assert.ok(lines.some((l) => /R_full +L, support_miss +3 +0 +2 +0\.00% \(≤ 77\.64%\)$/.test(l)));
    assert.ok(lines.some((l) => /^ {2}first sample +label-free +1 +100\.00%/.test(l)));
    assert.ok(lines.some((l) => /launder +R0 +first_visible +label-free +50\.00% · n=3 † +50\.00% · n=3 †$/.test(l)));
    assert.match(table, /✓ +21 +expect minimal_repair == \{L\} +observed inclusion-minimal: \{L\}/);
  });

  it('marks a failed expectation with ✗ and its actual figure', () => {
    const failing = formatTable(goldenReport(failingSpec));
    assert.match(failing, /expectations: 2 passed, 1 failed/);
    assert.match(failing, /✗ +20 +expect asr\(R0, launder, first_visible\) < 10% +asr = 50\.00% over 3 isolated-eligible clusters/);
  });

  it('keeps every line within 120 columns, also with very long names', () => {
    assertFits(table);
    const long = 'x'.repeat(150);
    const report = withAudit(goldenReport(), (a) => ({
      ...a,
      name: long,
      reward: { ...a.reward, name: `R0_${long}` },
      attacks: a.attacks.map((at) => ({ ...at, results: at.results.map((r) => ({ ...r, reward: `${r.reward}_${long}` })) })),
      cancellation: a.cancellation.map((c) => ({ ...c, example: { ...c.example, trajectory: long } })),
      expectations: a.expectations.map((e) => ({ ...e, text: `${e.text} ${long}` })),
    }));
    assertFits(formatTable(report));
  });

  it('for a file or a pipe (fit: false) cuts nothing: every long name is there whole, and only the width grows', () => {
    const long = 'x'.repeat(150);
    const report = withAudit(goldenReport(), (a) => ({
      ...a,
      name: long,
      reward: { ...a.reward, name: `R0_${long}` },
      attacks: a.attacks.map((at) => ({ ...at, results: at.results.map((r) => ({ ...r, reward: `${r.reward}_${long}` })) })),
    }));
    const fitted = formatTable(report);
    const whole = formatTable(report, { fit: false });
    assert.ok(fitted.includes('…') && !fitted.includes(`R0_${long}`));
    assert.ok(!whole.includes('…'), whole);
    assert.ok(whole.includes(`══ audit ${long}`) && whole.split('\n').some((l) => l.includes(`R0_${long}`) && /R0_x+ +first_visible/.test(l)));
    // The same words, laid out wider: nothing but cut characters and padding differs.
    const words = (t: string): string[] => t.split(/\s+/).filter((w) => !w.includes('…') && !/^[─═]+$/.test(w));
    for (const w of words(fitted)) assert.ok(whole.includes(w), w);
  });

  it('renders a 300,000-point sweep (Math.max over the rows overflowed the stack)', () => {
    const report = withAudit(goldenReport(), (a) => {
      const entry = a.sweep[0]!;
      return { ...a, sweep: Array.from({ length: 300_000 }, (_, i) => ({ ...entry, scale: i / 1000 })) };
    });
    const text = formatTable(report);
    assert.ok(text.includes('299.999'));
    assertFits(text);
  });

  it('writes no escape codes unless asked, and the same text when colored', () => {
    assert.ok(!table.includes('\u001b'));
    const colored = formatTable(goldenReport(), { color: true });
    assert.ok(colored.includes('\u001b[32m✓'));
    assert.equal(stripAnsi(colored), table);
  });
});
