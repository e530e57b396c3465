import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { groupAdvantages } from '../../server/src/signal/group-advantages.js';
import { analyseTrainingSignal, type SignalRow } from '../../server/src/signal/training-signal.js';

// Hand-built update groups; every expected figure below was worked out on paper from
// A_i = (r_i − r̄_g) [/ s_g, the sample deviation], with R = R0 − 1.2·L.
const lambda = 1.2;
const row = (group: string, step: number, reward: number, fires: number): SignalRow => ({ group, step, reward, fires: [fires] });
const groups: SignalRow[] = [
  // g1, mixed: L fires on one sample of four. R = [1, 0, 0.5, 0.5]; without the penalty [2.2, 0, 0.5, 0.5].
  row('g1', 0, 1, 1), row('g1', 0, 0, 0), row('g1', 0, 0.5, 0), row('g1', 0, 0.5, 0),
  // g2, all-positive: L fires on every sample; without the penalty [1, 0, 0.5]: the same centred rewards.
  row('g2', 1, -0.2, 1), row('g2', 1, -1.2, 1), row('g2', 1, -0.7, 1),
  // g3, all-negative: L never fires, and both rewards are equal (no gradient at all).
  row('g3', 0, 0.3, 0), row('g3', 0, 0.3, 0),
  // g4, mixed but two-valued: L fires exactly on the two zero-reward samples. R = [1, 1, −1.2, −1.2],
  // without it [1, 1, 0, 0]: an affine image, so dividing by the deviation cancels it exactly.
  row('g4', 1, 1, 0), row('g4', 1, 1, 0), row('g4', 1, -1.2, 1), row('g4', 1, -1.2, 1),
];

function close(actual: readonly number[], expected: readonly number[], tolerance = 1e-6): void {
  assert.equal(actual.length, expected.length);
  actual.forEach((a, i) => assert.ok(Math.abs(a - expected[i]!) <= tolerance, `index ${i}: ${a} vs ${expected[i]}`));
}

describe('group-normalised advantages', () => {
  it('centres by the group mean', () => {
    close(groupAdvantages([1, 0, 0.5, 0.5], 'mean'), [0.5, -0.5, 0, 0]);
    close(groupAdvantages([2.2, 0, 0.5, 0.5], 'mean'), [1.4, -0.8, -0.3, -0.3]);
  });

  it('divides by the sample standard deviation, and gives zero to a flat group or a group of one', () => {
    // s = sqrt((0.25 + 0.25) / 3) = 0.4082483
    close(groupAdvantages([1, 0, 0.5, 0.5], 'std'), [1.2247449, -1.2247449, 0, 0]);
    // s = sqrt((1.96 + 0.64 + 0.09 + 0.09) / 3) = 0.9626353
    close(groupAdvantages([2.2, 0, 0.5, 0.5], 'std'), [1.4543411, -0.8310520, -0.3116445, -0.3116445]);
    assert.deepEqual(groupAdvantages([0.3, 0.3], 'std'), [0, 0]);
    assert.deepEqual(groupAdvantages([0.7], 'std'), [0]);
  });

  it('keeps the identity r̃′ = (r − r̄) − λ(ℓ − ℓ̄) under centring', () => {
    const fires = [1, 0, 0, 0];
    const mean = 0.25;
    const shift = groupAdvantages([1, 0, 0.5, 0.5], 'mean').map((a, i) => a - groupAdvantages([2.2, 0, 0.5, 0.5], 'mean')[i]!);
    close(shift, fires.map((f) => -lambda * (f - mean)));
  });
});

describe('training-signal audit on hand-built groups', () => {
  it('with std normalisation: g1 changes, g2 and g4 are exactly cancelled', () => {
    const result = analyseTrainingSignal(groups, [{ name: 'L', lambda }], 'std');
    assert.equal(result.rows, 13);
    assert.equal(result.groups, 4);
    assert.equal(result.flatGroups, 1);
    const [L] = result.detectors;
    assert.ok(L !== undefined);
    assert.deepEqual(
      { rows: L.firingRows, groups: L.firingGroups, mixed: L.mixedGroups, all: L.allFiringGroups, changed: L.changedGroups, cancelled: L.cancelledGroups },
      { rows: 6, groups: 3, mixed: 2, all: 1, changed: 1, cancelled: 2 },
    );
    // max |1.2247449 − 1.4543411|, |−1.2247449 + 0.8310520|, |0 + 0.3116445| = 0.3936929
    assert.ok(Math.abs(L.largestShift - 0.3936929) < 1e-6, String(L.largestShift));
    assert.equal(L.changedExample?.group, 'g1');
    assert.equal(L.cancelledExample?.group, 'g2');
    assert.equal(L.cancelledExample?.firing, 3);
  });

  it('with centring only: the two-valued group g4 changes too, the all-firing g2 stays cancelled', () => {
    const [L] = analyseTrainingSignal(groups, [{ name: 'L', lambda }], 'mean').detectors;
    assert.ok(L !== undefined);
    assert.equal(L.changedGroups, 2);
    assert.equal(L.cancelledGroups, 1);
    assert.equal(L.cancelledExample?.group, 'g2');
    // g1 moves sample 1 by λ(1 − 1/4) = 0.9; g4 moves every sample by λ/2 = 0.6.
    assert.ok(Math.abs(L.largestShift - 0.9) < 1e-9);
  });

  it('counts exposure per step, ascending', () => {
    const std = analyseTrainingSignal(groups, [{ name: 'L', lambda }], 'std').steps;
    assert.deepEqual(std.map((s) => [s.step, s.rows, s.groups, s.detectors[0]!.firingRows, s.detectors[0]!.firingGroups, s.detectors[0]!.changedGroups]), [
      [0, 6, 2, 1, 1, 1],
      [1, 7, 2, 5, 2, 0],
    ]);
    const mean = analyseTrainingSignal(groups, [{ name: 'L', lambda }], 'mean').steps;
    assert.deepEqual(mean.map((s) => s.detectors[0]!.changedGroups), [1, 1]);
  });

  it('treats a row without a group as a group of one, which never carries a detector', () => {
    const result = analyseTrainingSignal([{ group: undefined, step: 0, reward: -1.2, fires: [1] }, { group: undefined, step: 0, reward: 0, fires: [0] }], [{ name: 'L', lambda }], 'mean');
    assert.equal(result.groups, 2);
    assert.equal(result.ungroupedRows, 2);
    assert.equal(result.detectors[0]!.changedGroups, 0);
    assert.equal(result.detectors[0]!.cancelledGroups, 1);
  });
});
