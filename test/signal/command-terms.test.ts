// A training block and a comparison read a reward computed by the user's program as they read one
// written in the language (docs/reward-commands.md): the program runs once over the logged rows
// (a comparison: once per arm, over its rows and its attacks' edits), with the same consent, and
// the reports equal those of the same reward in the language.
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { after, describe, it } from 'node:test';
import { compareSpec } from '../../server/src/compare/compare-spec.js';
import { WorkspaceTrust } from '../../server/src/inputs/trust.js';
import { signalSpec } from '../../server/src/signal/signal-spec.js';

const samples = path.resolve('samples');
const program = path.resolve('test/fixtures/command-terms/reward.mjs');

/** samples/training.reward's pools and detector, with `reward` as the training and comparison scorer. */
function spec(reward: string): string {
  return `corpus wiki = ${JSON.stringify(path.join(samples, 'pools/corpus.jsonl'))}
pool train_RL = ${JSON.stringify(path.join(samples, 'pools/train-R_L.jsonl'))}
pool eval_R0 = ${JSON.stringify(path.join(samples, 'pools/eval-R0.jsonl'))}
pool eval_RL = ${JSON.stringify(path.join(samples, 'pools/eval-R_L.jsonl'))}
detector L "cites a real corpus passage it never retrieved" = any c in citations: c in corpus and c not in retrieved
${reward}
reward T_L "the trained reward" = T - 1.2 * L
training exposure "the penalty's signal" {
  reward T_L
  corpus wiki
  log train_RL
}
comparison cmp "two policies" {
  reward T
  corpus wiki
  base eval_R0
  treatment eval_RL
  detectors L
  attack launder targets L using lexical(4)
}
`;
}

describe('command terms in training blocks and comparisons', () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'herald-signal-terms-'));
  after(() => fs.rmSync(dir, { recursive: true, force: true }));
  const record = path.join(dir, 'out');
  const byProgram = spec(`reward T "exact match, by a program" = command ${JSON.stringify(`node ${program} --value em --record ${record}`)}`);
  const inLanguage = spec('reward T "exact match" { em 1 * exact_match(answer, gold.answers) }');
  const specFile = path.join(dir, 'spec.reward');
  const runs = (): number => (fs.existsSync(`${record}.runs`) ? fs.readFileSync(`${record}.runs`, 'utf8').split('\n').filter((l) => l !== '').length : 0);

  it('a training block gives the report of the same reward in the language, running the program once', async () => {
    const request = { cacheDir: path.join(dir, 'cache') };
    const command = await signalSpec(byProgram, specFile, request);
    const language = await signalSpec(inLanguage, specFile, request);
    assert.equal(command.runError, undefined);
    assert.ok(command.reports !== undefined && language.reports !== undefined);
    assert.deepEqual(command.reports, language.reports);
    assert.equal(runs(), 1);
  });

  it('a comparison gives the report of the same reward in the language, one run per arm', async () => {
    const before = runs();
    const command = await compareSpec(byProgram, specFile, { cacheDir: false });
    const language = await compareSpec(inLanguage, specFile, { cacheDir: false });
    assert.equal(command.runError, undefined);
    assert.ok(command.reports !== undefined && language.reports !== undefined);
    assert.deepEqual(command.reports, language.reports);
    assert.equal(runs() - before, 2);
  });

  it('runs nothing without consent, and says how to allow it', async () => {
    const before = runs();
    const trust = WorkspaceTrust.everything.withCommands({ allowed: false, howToAllow: 'pass --allow-commands' });
    const signal = await signalSpec(byProgram, specFile, { trust });
    assert.match(signal.runError ?? '', /^training block 'exposure' could not run: 'T' command ".*" was not run: a spec's programs run only with consent; pass --allow-commands$/);
    const compared = await compareSpec(byProgram, specFile, { trust });
    assert.match(compared.runError ?? '', /^comparison 'cmp' could not run: 'T' command ".*" was not run/);
    assert.equal(runs(), before);
  });
});
