import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import * as path from 'node:path';
import { describe, it } from 'node:test';
import { report, type AttackReport } from '../../server/src/report/schema.js';

// samples/attacks.reward through the CLI: the paper's Table 2 with all five attacks written in the edit
// algebra, and a user-written padding attack that finds a loophole of a sub-EM reward and its repair.
const herald = path.resolve('dist/herald.js');

function audit(name: string): ReturnType<typeof report.parse>['audits'][number] {
  const run = spawnSync(process.execPath, [herald, 'audit', 'samples/attacks.reward', '--audit', name, '--format', 'json', '--quiet', '--no-cache'], { encoding: 'utf8', maxBuffer: 64 * 1024 * 1024 });
  assert.equal(run.status, 0, run.stderr);
  return report.parse(JSON.parse(run.stdout)).audits[0]!;
}

const asr = (attack: AttackReport, reward: string, selection: 'first_visible' | 'oracle_worst'): number | null =>
  attack.results.find((r) => r.reward === reward && r.selection === selection)!.estimate.asr;

describe('samples/attacks.reward', () => {
  it("Table 2: five attacks on the common clusters, outcome-only loses to all, tool cost stops only the repeated query, R0 and R[L] as the paper's", () => {
    const table2 = audit('table2');
    assert.deepEqual(table2.attacks.map((a) => [a.name, a.kind]), [
      ['same_final', 'same_final'], ['launder', 'launder'], ['fake_id', 'fake_id'], ['repeated_query', 'repeat_search'], ['unsupported', 'unsupported_citation'],
    ]);
    const byName = new Map(table2.attacks.map((a) => [a.name, a]));
    const common = table2.clusterSet?.clusters;
    assert.ok(common !== undefined && common > 0);
    for (const attack of table2.attacks) {
      for (const r of attack.results) assert.equal(r.estimate.clusters, common, `${attack.name} ${r.reward}: every figure's n is the common n`);
      assert.equal(asr(attack, 'outcome', 'oracle_worst'), 1, `${attack.name} ties under outcome-only`);
    }
    assert.equal(asr(byName.get('repeated_query')!, 'outcome_cost', 'oracle_worst'), 0);
    for (const name of ['same_final', 'launder', 'fake_id', 'unsupported']) assert.equal(asr(byName.get(name)!, 'outcome_cost', 'oracle_worst'), 1, name);
    for (const name of ['same_final', 'fake_id', 'repeated_query']) assert.equal(asr(byName.get(name)!, 'R0', 'oracle_worst'), 0, name);
    assert.ok(asr(byName.get('launder')!, 'R0', 'first_visible')! > 0);
    assert.equal(asr(byName.get('launder')!, 'R_L', 'oracle_worst'), 0);
    // The unsupported-citation edit reads gold: all its figures are oracle upper bounds, by taint.
    assert.deepEqual([...new Set(byName.get('unsupported')!.results.map((r) => r.label))], ['oracle upper bound']);
    assert.ok(byName.get('launder')!.results.some((r) => r.label === 'label-free'));
  });

  it('padding: the padded answer wins under sub-EM on comparison questions, and the length cap is the certified minimal repair', () => {
    const padding = audit('padding');
    const pad = padding.attacks[0]!;
    const worst = pad.results.find((r) => r.reward === 'subem' && r.selection === 'oracle_worst')!.estimate;
    assert.equal(worst.worstMargin, 1, 'a wrong answer padded with the question gains the whole sub-EM point');
    assert.ok(worst.meanMargin! > 0);
    assert.equal(asr(pad, 'subem_capped', 'oracle_worst'), 0);
    assert.deepEqual(padding.lattice.minimal, [['long_answer']]);
    assert.deepEqual(padding.certificate.map((c) => [c.detector, c.maxGain, c.certified]), [['long_answer', 1, true]]);
    assert.equal(padding.certificate[0]!.example?.change, 'pad_answer edit');
  });
});
