import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { describe, it } from 'node:test';
import { compareSpec } from '../../server/src/compare/compare-spec.js';
import { comparisonHoverLines } from '../../server/src/lsp/comparison-hover.js';

describe('comparison block hover', () => {
  it('shows the failed gate with its lower bounds, the run note and each blocked claim\'s power statement', async () => {
    const file = resolve('samples/training.reward');
    const outcome = await compareSpec(readFileSync(file, 'utf8'), file);
    const symbol = outcome.model.globals.get('matched')!;
    const text = comparisonHoverLines(outcome.reports, symbol, false).join('\n');
    assert.match(text, /EM non-inferiority fails ✗ .*hotpot −7\.03 ✗/);
    assert.match(text, /Runs: run-level variance is not estimated/);
    assert.match(text, /natural L incidence, hotpot: with 128 questions × 2 trajectories per arm not even a reduction to zero is detected/);
    assert.deepEqual(comparisonHoverLines(outcome.reports, outcome.model.globals.get('R0')!, false), []);
  });
});
