import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { describe, it } from 'node:test';
import { compareSpec } from '../../server/src/compare/compare-spec.js';
import { simulatedPower } from '../stats/power-simulation.js';

// The power statement on the shipped sample (samples/training.reward: 128 questions × 2 samples per
// benchmark), checked against a seeded simulation of that design at the sample's own base rate.
describe('the sample\'s power statement', () => {
  it('natural L incidence: per benchmark (128 questions × 2) no reduction is detectable; equal-suite (384 × 2) the detectable reduction is, about 80% of the time', async () => {
    const file = resolve('samples/training.reward');
    const outcome = await compareSpec(readFileSync(file, 'utf8'), file);
    const cells = outcome.reports![0]!.metrics.find((m) => m.key === 'incidence:L')!.cells;
    const hotpot = cells.find((c) => c.benchmark === 'hotpot')!;
    assert.equal(hotpot.verdict, 'blocks a reduction claim');
    assert.deepEqual([hotpot.power!.questions, hotpot.power!.perQuestion, hotpot.power!.detectable, hotpot.power!.underpowered], [128, 2, null, true]);
    // Even eliminating L from the 1.95% base rate is detected less than 80% of the time.
    assert.ok(simulatedPower(128, 2, hotpot.power!.baseRate, 0, 4000, 29) < 0.8);
    const suite = cells.find((c) => c.benchmark === 'equal-suite')!.power!;
    assert.equal(suite.questions, 384);
    const simulated = simulatedPower(384, 2, suite.baseRate, suite.baseRate - suite.detectable!, 4000, 29);
    assert.ok(Math.abs(simulated - 0.8) < 0.05, `simulated ${simulated} at δ = ${suite.detectable}, p₀ = ${suite.baseRate}`);
    const atClaim = simulatedPower(suite.questionsNeeded!, 2, suite.baseRate, suite.baseRate - suite.claim, 1000, 31);
    assert.ok(Math.abs(atClaim - 0.8) < 0.05, `n = ${suite.questionsNeeded}: simulated ${atClaim}`);
  });
});
