import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { after, describe, it } from 'node:test';
import { rmSync } from 'node:fs';
import { auditSpec } from '../inputs/workspace.js';

// `herald audit --shard I/N --partial FILE` and `herald merge` as users run them: the bundled CLI.
const herald = path.resolve('dist/herald.js');
const pools = path.resolve('samples/pools');

function runHerald(args: string[]): { code: number | null; stdout: string; stderr: string } {
  const result = spawnSync(process.execPath, [herald, ...args], { encoding: 'utf8', maxBuffer: 64 * 1024 * 1024 });
  return { code: result.status, stdout: result.stdout, stderr: result.stderr };
}

// The shared one-pool audit, with an expectation so the exit code is the expectation's.
const spec = (expected: string): string => auditSpec(`${pools}/corpus.jsonl`, `${pools}/hotpot.jsonl`, `  expect asr(R_L, launder, first_visible) ${expected}\n`);

describe('herald audit --shard and herald merge', () => {
  const dir = mkdtempSync(path.join(tmpdir(), 'herald-shards-'));
  after(() => rmSync(dir, { recursive: true, force: true }));
  const specFile = path.join(dir, 'quick.reward');
  writeFileSync(specFile, spec('== 0'));
  const partial = (i: number): string => path.join(dir, `shard-${i}.bin`);

  it('write one file per shard and no report; the merge is the whole run\'s report and exit code', () => {
    for (const i of [0, 1]) {
      const shard = runHerald(['audit', specFile, '--shard', `${i}/2`, '--partial', partial(i), '--no-cache']);
      assert.equal(shard.code, 0, shard.stderr);
      assert.equal(shard.stdout, '');
      assert.match(shard.stderr, new RegExp(`wrote ${partial(i).replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}`));
    }
    const whole = runHerald(['audit', specFile, '--format', 'json', '--no-cache', '--quiet']);
    const merged = runHerald(['merge', partial(1), partial(0), '--format', 'json', '--quiet']);
    assert.equal(merged.code, whole.code);
    assert.equal(merged.stdout, whole.stdout);
    assert.equal(JSON.parse(merged.stdout).audits[0].name, 'quick');
    // Another checkout of the same spec (the merge on another machine): --spec says where it is.
    const copy = path.join(dir, 'elsewhere.reward');
    writeFileSync(copy, readFileSync(specFile));
    const moved = runHerald(['merge', partial(0), partial(1), '--spec', copy, '--format', 'json', '--quiet']);
    assert.equal(moved.code, whole.code, moved.stderr);
    assert.deepEqual({ ...JSON.parse(moved.stdout), spec: null }, { ...JSON.parse(whole.stdout), spec: null });
  });

  it('refuse what does not fit, with exit 2 and why', () => {
    assert.match(runHerald(['audit', specFile, '--shard', '0/2']).stderr, /--shard I\/N and --partial FILE go together/);
    assert.match(runHerald(['audit', specFile, '--shard', '2/2', '--partial', partial(9)]).stderr, /--shard takes I\/N, shard I of N counted from 0/);
    assert.match(runHerald(['audit', specFile, '--shard', '0/2', '--partial', partial(9), '--format', 'json']).stderr, /--shard writes no report/);
    assert.match(runHerald(['audit', specFile, '--shard', '0/2', '--partial', partial(9), '--workers', '2']).stderr, /--shard prepares on one thread/);
    const overSpec = runHerald(['audit', specFile, '--shard', '0/2', '--partial', specFile]);
    assert.equal(overSpec.code, 2);
    assert.equal(readFileSync(specFile, 'utf8'), spec('== 0'), 'the spec is left as it was');
    const missing = runHerald(['merge', partial(0)]);
    assert.equal(missing.code, 2);
    assert.match(missing.stderr, /shard 1\/2 missing/);
    const notPartial = runHerald(['merge', specFile]);
    assert.equal(notPartial.code, 2);
    assert.match(notPartial.stderr, /quick\.reward: error: not a partial file/);
    writeFileSync(specFile, spec('<= 1'));
    const edited = runHerald(['merge', partial(0), partial(1)]);
    assert.equal(edited.code, 2);
    assert.match(edited.stderr, /not the spec the shards ran/);
  });
});
