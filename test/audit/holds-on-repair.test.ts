import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { holdsOnRepair } from '../../server/src/audit/expectations.js';
import type { ExpectPlan } from '../../server/src/audit/plan.js';
import type { LatticeReport } from '../../server/src/report/schema.js';

// Which failing expects about the audited reward the repair's quick fix may move to the repair: the
// lattice must show them holding on the repair's subset, at the repair's λ.

const span = { start: 0, end: 0 };
const expect = (metric: 'asr' | 'upper' | 'mean_margin' | 'worst_margin', op: '==' | '<=' | '>=' | '<', value: number, selection: 'oracle_worst' | 'first_visible' = 'oracle_worst'): ExpectPlan =>
  ({ kind: 'metric', metric, reward: 'R0', attack: 'launder', selection, op, value, text: '', span });

const figures = (selection: 'oracle_worst' | 'first_visible', asr: number, upper: number, meanMargin: number) =>
  ({ attack: 'launder', selection, label: 'label-free' as const, asr, upper, method: 'exact-zero' as const, meanMargin, clusters: 40 });

const lattice: LatticeReport = {
  detectors: [{ name: 'L', lambda: 1.2 }, { name: 'U', lambda: 0.5 }],
  subsets: [
    { detectors: [], results: [figures('oracle_worst', 0.7, 0.8, 0.2), figures('first_visible', 0.5, 0.6, 0.1)], sufficient: false, minimal: false },
    { detectors: ['L'], results: [figures('oracle_worst', 0, 0.072, -0.6), figures('first_visible', 0, 0.072, -0.7)], sufficient: true, minimal: true },
    { detectors: ['U'], results: [figures('oracle_worst', 0.7, 0.8, 0.2), figures('first_visible', 0.5, 0.6, 0.1)], sufficient: false, minimal: false },
  ],
  minimal: [['L']],
  vacuous: false,
};

describe('expects the minimal repair makes hold', () => {
  it('at the lattice\'s λ: any figure of the subset, compared as the line says', () => {
    const repair = [{ detector: 'L', lambda: 1.2 }];
    assert.equal(holdsOnRepair(expect('asr', '==', 0), lattice, repair), true);
    assert.equal(holdsOnRepair(expect('asr', '==', 0, 'first_visible'), lattice, repair), true);
    assert.equal(holdsOnRepair(expect('upper', '<=', 0.1), lattice, repair), true);
    assert.equal(holdsOnRepair(expect('mean_margin', '<', 0), lattice, repair), true);
    // Lines the repair's figures do not satisfy stay where they are.
    assert.equal(holdsOnRepair(expect('upper', '<=', 0.01), lattice, repair), false);
    assert.equal(holdsOnRepair(expect('asr', '>=', 0.5), lattice, repair), false);
  });

  it('never on a subset that is not sufficient, nor on a figure the lattice does not have', () => {
    assert.equal(holdsOnRepair(expect('asr', '<=', 0.9), lattice, [{ detector: 'U', lambda: 0.5 }]), false);
    assert.equal(holdsOnRepair(expect('worst_margin', '<', 10), lattice, [{ detector: 'L', lambda: 1.2 }]), false);
    assert.equal(holdsOnRepair({ kind: 'minimal', detectors: ['L'], text: '', span }, lattice, [{ detector: 'L', lambda: 1.2 }]), false);
  });

  it('at a larger (certified) λ: only an upper bound on the ASR, which a larger penalty can only lower', () => {
    const certified = [{ detector: 'L', lambda: 1.3 }];
    assert.equal(holdsOnRepair(expect('asr', '==', 0), lattice, certified), true);
    assert.equal(holdsOnRepair(expect('asr', '<=', 0.05), lattice, certified), true);
    assert.equal(holdsOnRepair(expect('upper', '<=', 0.1), lattice, certified), false);
    assert.equal(holdsOnRepair(expect('mean_margin', '<', 0), lattice, certified), false);
    // A smaller λ than the lattice's is not the repair the lattice measured.
    assert.equal(holdsOnRepair(expect('asr', '==', 0), lattice, [{ detector: 'L', lambda: 1.1 }]), false);
  });
});
