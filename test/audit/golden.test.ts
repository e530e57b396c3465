import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { zeroEventUpperBound, estimate } from '../../server/src/stats/estimands.js';
import { minimalSubsets } from '../../server/src/audit/lattice.js';
import type { AuditReport } from '../../server/src/report/schema.js';
import { goldenAudit, goldenSpec } from '../helpers/golden-audit.js';

// Every expected number below is computed by hand from the definitions in HERALD.md.

const spec = goldenSpec;
const audit = goldenAudit;

const close = (actual: number | null, expected: number, what: string): void => {
  assert.ok(actual !== null, `${what}: undefined (null), expected ${expected}`);
  assert.ok(Math.abs(actual - expected) < 1e-9, `${what}: ${actual} ≠ ${expected}`);
};

function result(report: AuditReport, attack: string, reward: string, selection: 'first_visible' | 'oracle_worst') {
  const r = report.attacks.find((a) => a.name === attack)?.results.find((x) => x.reward === reward && x.selection === selection);
  assert.ok(r, `${attack}/${reward}/${selection}`);
  return r;
}

describe('audit golden: the paper worked pair', () => {
  const report = audit();

  it('gives +0.81375 under R0, −0.38625 under R0 − 1.2·L, +0.41375 when an active 0.8 support penalty is switched off', () => {
    const finding = report.cancellation.find((c) => c.smaller === 'R_L' && c.larger === 'R_full' && c.selection === 'first_visible');
    assert.ok(finding, JSON.stringify(report.cancellation));
    assert.equal(finding.term, 'support_miss');
    assert.equal(finding.termWeight, -0.8);
    assert.equal(finding.example.trajectory, 't1');
    assert.equal(finding.example.replacement, 'p2');
    close(finding.example.margins['R0']!, 0.81375, 'base gain');
    close(finding.example.margins['R_L']!, -0.38625, 'under R[L]');
    close(finding.example.margins['R_full']!, 0.41375, 'under R_full');
  });

  it('counts the cancellation and stratifies by the active penalty', () => {
    const finding = report.cancellation.find((c) => c.smaller === 'R_L' && c.larger === 'R_full' && c.selection === 'first_visible')!;
    assert.equal(finding.count, 1);
    assert.equal(finding.clusters, 1);
    // Every original misses the gold support p2, so the penalty is active on all of them. Under R_full, first visible:
    // t1 wins (+0.41375); t2 → p3 loses; t3 → p2 gives 0 − 1.2 + 0.8 = −0.4 and loses; t5 loses. Clusters: q1 = 1/2, q2 = 0, q4 = 0.
    assert.equal(finding.strata.active.clusters, 3);
    close(finding.strata.active.asr, 0.5 / 3, 'active-stratum ASR');
    assert.equal(finding.strata.inactive.clusters, 0);
  });
});

describe('audit golden: eligibility, isolation and cluster weighting', () => {
  const report = audit();
  const launder = report.attacks.find((a) => a.name === 'launder')!;

  it('counts constructible, eligible and isolated-eligible edits, rows and clusters', () => {
    // Edits: t1 ×2, t2 ×1, t3 ×1, t4 ×2 and t5 ×2 (one per citation position) = 8 constructible.
    // Eligible (L 0 → 1): all but t4's two (L is already 1) = 6. Isolated: t5 position 1 flips F → 5.
    assert.deepEqual(launder.counts.edits, { constructible: 8, eligible: 6, isolatedEligible: 5 });
    assert.deepEqual(launder.counts.rows, { constructible: 5, eligible: 4, isolatedEligible: 4 });
    assert.deepEqual(launder.counts.clusters, { constructible: 4, eligible: 3, isolatedEligible: 3 });
  });

  it('takes the mean over clusters of within-cluster means: a split two-row cluster gives a half', () => {
    const r0 = result(report, 'launder', 'R0', 'first_visible').estimate;
    // R0 margins, first visible: t1 +0.81375 (win), t2 −0.81375 (lose), t3 0 (tie = win), t5 pos 0 → p3: 0.81375·(0/2 − 1/2) (lose).
    // Clusters: q1 = 1/2, q2 = 1, q4 = 0. ASR = 1.5 / 3.
    assert.equal(r0.clusters, 3);
    assert.equal(r0.rows, 4);
    close(r0.asr, 0.5, 'ASR');
    close(r0.successes, 1.5, 'cluster-weighted successes');
    close(r0.meanMargin, (0 + 0 + -0.81375 / 2) / 3, 'mean margin');
    close(r0.worstMargin, 0.81375, 'worst margin');
    assert.equal(r0.interval.method, 'bootstrap');
  });

  it('gives the exact zero-event bound when nothing succeeds', () => {
    const rl = result(report, 'launder', 'R_L', 'oracle_worst').estimate;
    assert.equal(rl.asr, 0);
    assert.equal(rl.interval.method, 'exact-zero');
    close(rl.interval.high, 1 - Math.pow(0.05, 1 / 3), 'bound at n = 3');
  });

  it('labels oracle-worst figures under gold-reading rewards as oracle upper bounds, from taint', () => {
    assert.equal(report.reward.visibility, 'oracle');
    assert.equal(result(report, 'launder', 'R0', 'oracle_worst').label, 'oracle upper bound');
    assert.equal(result(report, 'launder', 'R0', 'first_visible').label, 'label-free');
    const visibleSpec = spec.replace('grounding(citations, gold.answers)', 'grounding(citations, answer)').replace('reward R_full = R_L - 0.8 * support_miss', 'reward R_full = R_L - 0.8 * F');
    const visible = audit(visibleSpec);
    assert.equal(visible.reward.visibility, 'visible');
    assert.equal(result(visible, 'launder', 'R0', 'oracle_worst').label, 'label-free');
  });

  it('evaluates the same-final attack with its two targets', () => {
    const same = report.attacks.find((a) => a.name === 'same_final')!;
    // Same-final needs a final and a search: t1..t5. Eligible needs U 0 → 1 and L 0 → 1: t4 has L = 1 already.
    // Isolated: F unchanged (t5 keeps its fake id, F stays 1).
    assert.deepEqual(same.counts.rows, { constructible: 5, eligible: 4, isolatedEligible: 4 });
  });
});

describe('audit golden: lattice, certificate, expectations', () => {
  const report = audit();

  it('finds {L} as the observed inclusion-minimal repair by checking every proper subset', () => {
    const sufficient = report.lattice.subsets.filter((s) => s.sufficient).map((s) => s.detectors.join('+'));
    assert.deepEqual(sufficient, ['L', 'U+L', 'L+F', 'U+L+F']);
    assert.deepEqual(report.lattice.minimal, [['L']]);
  });

  it('certifies λ_L against the largest base gain among edits that trigger L', () => {
    const L = report.certificate.find((c) => c.detector === 'L')!;
    close(L.maxGain!, 0.81375, 'max gain');
    assert.equal(L.certified, true);
    assert.equal(L.example?.trajectory, 't1');
  });

  it('checks expect lines against the figures', () => {
    assert.deepEqual(report.expectations.map((e) => e.passed), [true, true, true]);
    const failing = audit(spec.replace('expect asr(R0, launder, first_visible) <= 50%', 'expect asr(R0, launder, first_visible) < 10%'));
    assert.equal(failing.expectations[1]?.passed, false);
    assert.match(failing.expectations[1]!.actual, /asr = 50\.00% over 3 isolated-eligible clusters/);
  });

  it('sweeps the penalty scale: scale 0 is R0, scale 1 is R_{U,L,F}', () => {
    const at = (scale: number) => report.sweep.find((s) => s.scale === scale && s.attack === 'launder' && s.selection === 'first_visible')!;
    close(at(0).asr, 0.5, 'scale 0');
    close(at(1).asr, 0, 'scale 1');
  });
});

describe('audit golden: a lattice of ten detectors', () => {
  it('evaluates all 1,024 subsets and still finds {L} as the only inclusion-minimal repair', () => {
    // Seven more visible detectors that never fire on these pools: penalties that change no margin.
    const extra = Array.from({ length: 7 }, (_, i) => `D${i}`);
    const text = goldenSpec
      .replace('reward R0 {', `${extra.map((d) => `detector ${d} "never fires" = search_calls > ${100 + Number(d.slice(1))}`).join('\n')}\nreward R0 {`)
      .replace('lattice U = 0.5, L = 1.2, F = 1', `lattice U = 0.5, L = 1.2, F = 1, ${extra.map((d) => `${d} = 1`).join(', ')}`);
    const report = audit(text);
    assert.equal(report.lattice.subsets.length, 1024);
    assert.deepEqual(report.lattice.minimal, [['L']]);
    assert.equal(report.lattice.subsets.filter((s) => s.sufficient).length, 512, 'exactly the subsets that contain L');
  });
});

describe('estimands', () => {
  it('gives the exact one-sided 95% bound after zero events', () => {
    assert.equal((zeroEventUpperBound(593) * 100).toFixed(3), '0.504');
    assert.equal((zeroEventUpperBound(904) * 100).toFixed(3), '0.331');
    assert.equal((zeroEventUpperBound(995) * 100).toFixed(3), '0.301');
  });

  it('reproduces the paper’s 25.5/593 = 4.30% from cluster halves', () => {
    const outcomes = [];
    for (let c = 0; c < 593; c++) {
      if (c < 25) outcomes.push({ cluster: c, margin: 0.1 });
      else if (c === 25) outcomes.push({ cluster: c, margin: 0.1 }, { cluster: c, margin: -0.1 });
      else outcomes.push({ cluster: c, margin: -0.5 });
    }
    const e = estimate(outcomes, { resamples: 500, seed: 1 });
    assert.ok(e.asr !== null && e.interval.method === 'bootstrap');
    assert.equal((e.asr * 100).toFixed(2), '4.30');
    assert.equal(e.successes, 25.5);
    assert.ok(e.interval.low < e.asr && e.asr < e.interval.high);
    assert.deepEqual(estimate(outcomes, { resamples: 500, seed: 1 }).interval, e.interval, 'seeded: the same interval twice');
  });
});

describe('minimalSubsets', () => {
  it('finds inclusion-minimal sets where sufficiency is not monotone', () => {
    // Over {A, B, C} (bit 0 = A): sufficient are AB, C, BC and ABC, but not AC: a superset of C that is not sufficient.
    const sufficient = [false, false, false, true, true, false, true, true];
    assert.deepEqual(minimalSubsets(sufficient), [false, false, false, true, true, false, false, false]);
  });
});
