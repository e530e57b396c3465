// `npm run test:shards`: three shard processes of the paper's sample run through GNU parallel, as a
// user runs them on one machine (docs/sharding.md), then merged; the merged report must be the
// one-process report byte for byte. Needs GNU parallel (Debian's `parallel`): `.ci/run` installs it;
// `npm test` never runs this file.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { performance } from 'node:perf_hooks';
import { after, describe, it } from 'node:test';

const herald = path.resolve('dist/herald.js');
const specFile = path.resolve('samples/paper.reward');

describe('shards through GNU parallel', () => {
  const dir = mkdtempSync(path.join(tmpdir(), 'herald-parallel-'));
  after(() => rmSync(dir, { recursive: true, force: true }));

  it('three shard processes merged give the one-process report, byte for byte', () => {
    const version = spawnSync('parallel', ['--version'], { encoding: 'utf8' });
    assert.equal(version.status, 0, 'test:shards needs GNU parallel on PATH (Debian: apt-get install parallel)');
    console.log(`# ${version.stdout.split('\n')[0]}`);
    const whole = path.join(dir, 'whole.json');
    const one = spawnSync(process.execPath, [herald, 'audit', specFile, '--format', 'json', '--no-cache', '--quiet', '--out', whole], { encoding: 'utf8' });
    assert.ok(one.status === 0 || one.status === 1, one.stderr);

    const shards = spawnSync('parallel', ['--will-cite', '--halt', 'now,fail=1', process.execPath, herald, 'audit', specFile, '--shard', '{}/3', '--partial', path.join(dir, 'shard-{}.bin'), '--no-cache', '--quiet', ':::', '0', '1', '2'], { encoding: 'utf8' });
    assert.equal(shards.status, 0, shards.stderr);
    const files = readdirSync(dir).filter((f) => f.endsWith('.bin')).sort();
    assert.deepEqual(files, ['shard-0.bin', 'shard-1.bin', 'shard-2.bin']);

    const merged = path.join(dir, 'merged.json');
    const start = performance.now();
    const merge = spawnSync(process.execPath, [herald, 'merge', ...files.map((f) => path.join(dir, f)), '--format', 'json', '--quiet', '--out', merged], { encoding: 'utf8' });
    const ms = performance.now() - start;
    assert.equal(merge.status, one.status, merge.stderr);
    assert.equal(readFileSync(merged, 'utf8'), readFileSync(whole, 'utf8'));
    const bytes = files.reduce((sum, f) => sum + statSync(path.join(dir, f)).size, 0);
    console.log(`# merged ${files.length} shards (${(bytes / 1024 / 1024).toFixed(1)} MiB of partial files) in ${(ms / 1000).toFixed(2)} s; the report is identical to the one-process report`);
  });
});
