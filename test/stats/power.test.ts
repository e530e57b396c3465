import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { reductionPower, zSum } from '../../server/src/stats/power.js';
import { simulatedPower } from './power-simulation.js';

const design = (questions: number, perQuestion: number, baseRate: number) => {
  const rows = questions * perQuestion;
  return { questions, perQuestion, baseEvents: Math.round(baseRate * rows), baseRows: rows, treatmentEvents: Math.round(baseRate * rows), treatmentRows: rows, differences: [] };
};

const bernoulli = (p: number): number => p * (1 - p);

describe('power and sample size of a paired rate reduction', () => {
  it('the closed form: δ is the fixed point of (z.975 + z.80)·√((p₀(1−p₀) + p₁(1−p₁))/(k·n)), and n_c solves it at δ = c', () => {
    const power = reductionPower(design(128, 2, 0.1), 0.03)!;
    const p0 = 26 / 256;
    assert.equal(power.baseRate, p0);
    assert.equal(power.designEffect, 1);
    const d = power.detectable!;
    assert.ok(Math.abs(d - zSum * Math.sqrt((bernoulli(p0) + bernoulli(p0 - d)) / 256)) < 1e-10);
    assert.equal(power.questionsNeeded, Math.ceil((zSum ** 2 * (bernoulli(p0) + bernoulli(p0 - 0.03))) / (2 * 0.03 ** 2)));
  });

  for (const [questions, perQuestion, rate] of [[128, 2, 0.1], [128, 2, 0.3], [384, 2, 0.05], [256, 4, 0.05]] as const) {
    it(`${questions} questions × ${perQuestion} at a base rate of ${rate * 100}%: the detectable reduction is detected about 80% of the time in simulation`, () => {
      const power = reductionPower(design(questions, perQuestion, rate), 0.01)!;
      const simulated = simulatedPower(questions, perQuestion, power.baseRate, power.baseRate - power.detectable!, 4000, 17);
      assert.ok(Math.abs(simulated - 0.8) < 0.04, `simulated power ${simulated} for δ = ${power.detectable}`);
    });
  }

  it('the questions needed for the claim reach about 80% power in simulation', () => {
    const power = reductionPower(design(128, 2, 0.1), 0.03)!;
    const simulated = simulatedPower(power.questionsNeeded!, 2, 0.1, 0.07, 2000, 23);
    assert.ok(Math.abs(simulated - 0.8) < 0.04, `n = ${power.questionsNeeded}: simulated power ${simulated}`);
  });

  it('too rare to detect even a reduction to zero: detectable is null, and simulation agrees (power below 80%)', () => {
    const power = reductionPower(design(128, 2, 5 / 256), 0.01)!;
    assert.equal(power.detectable, null);
    assert.ok(simulatedPower(128, 2, 5 / 256, 0, 4000, 5) < 0.8);
  });

  it('no base event: the figures assume the zero-event bound over the base rows, and say so; a claim above it needs n/a', () => {
    const power = reductionPower({ ...design(128, 2, 0), differences: [0, 0] }, 0.01)!;
    assert.equal(power.rateSource, 'zero-event bound');
    assert.ok(Math.abs(power.baseRate - (1 - 0.05 ** (1 / 256))) < 1e-15);
    assert.equal(power.questionsNeeded, Math.ceil((zSum ** 2 * (bernoulli(power.baseRate) + bernoulli(power.baseRate - 0.01))) / (2 * 0.01 ** 2)));
    assert.equal(reductionPower({ ...design(128, 2, 0), differences: [] }, 0.02)!.questionsNeeded, null);
  });

  it('clustered trajectories: the design effect from the observed differences widens the detectable reduction', () => {
    const differences = Array.from({ length: 128 }, (_, i) => (i % 4 === 0 ? 1 : i % 4 === 1 ? -1 : 0));
    const clustered = reductionPower({ ...design(128, 2, 0.2), differences }, 0.01)!;
    const independent = reductionPower(design(128, 2, 0.2), 0.01)!;
    assert.ok(clustered.designEffect > 1);
    assert.ok(clustered.detectable! > independent.detectable!);
  });

  it('nothing to plan over: undefined', () => {
    assert.equal(reductionPower(design(0, 2, 0), 0.01), undefined);
  });
});
