import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { after, describe, it } from 'node:test';
import { DEFAULT_SEED, generate } from '../../samples/generator/generate.js';
import { auditSpec } from '../../server/src/audit/audit-spec.js';
import { specFindings } from '../../server/src/findings/spec-findings.js';

// The walkthrough's sample (walkthrough/sample, shipped in the .vsix): its pools are the sample
// generator's output at a tenth of the scale over 300 passages, and its audit tells the story the
// walkthrough's pages tell (every expectation holds, laundering beats R0, {L} is the repair).

const sample = path.resolve(__dirname, '../../../walkthrough/sample');

describe('the walkthrough sample', () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'herald-walkthrough-'));
  after(() => fs.rmSync(dir, { recursive: true, force: true }));

  it('is the generator\'s output: node out/samples/generator/main.js --out DIR --scale 0.1 --corpus-size 300', () => {
    generate({ outDir: dir, seed: DEFAULT_SEED, scale: 0.1, corpusSize: 300 });
    for (const file of fs.readdirSync(path.join(sample, 'pools'))) {
      assert.ok(fs.readFileSync(path.join(dir, file)).equals(fs.readFileSync(path.join(sample, 'pools', file))), `${file} differs from the generator's`);
    }
  });

  it('audits in a moment: every expectation holds, laundering beats R0, and the repair is {L}', async () => {
    const specFile = path.join(sample, 'paper.reward');
    const text = fs.readFileSync(specFile, 'utf8');
    const outcome = await auditSpec(text, specFile, { candidateCache: false });
    const audit = outcome.report?.audits[0];
    assert.deepEqual(audit?.expectations.map((e) => e.passed), [true, true, true]);
    assert.equal(audit?.clusters, 40);
    const findings = specFindings({ model: outcome.model, text, specDir: sample, report: outcome.report, dataIssues: outcome.dataIssues, dataOwners: outcome.dataOwners, failures: outcome.failures, baseline: undefined });
    assert.ok(findings.some((f) => f.code === 'attack-succeeds' && /^in audit paper, launder beats R0: .*observed minimal repair \{L\}: R_L, compared here, already is R0 − 1\.2·L$/.test(f.message)), findings.map((f) => f.message).join('\n'));
    assert.deepEqual(outcome.dataIssues, []);
  });
});
