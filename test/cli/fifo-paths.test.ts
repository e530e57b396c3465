// Issue 33, item 14: a FIFO (or any file that is not a regular file) named on the command line is
// refused at once with exit 2, never waited on. A FIFO spec hung `check` and `audit` (the spec was
// read with readFileSync, which waits for a writer), and `import --out FIFO` hung (opened with 'w',
// which waits for a reader). Every case runs the built CLI under a timeout.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { copyFileSync, existsSync, mkdirSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { describe, it } from 'node:test';
import { makeFifo } from '../inputs/workspace.js';

const herald = path.resolve('dist/herald.js');
const pools = path.resolve('samples/pools');
const verlDump = path.resolve('test/importers/fixtures/verl-search-r1.jsonl');
/** `makeFifo` runs coreutils' mkfifo; without it there is no FIFO to test with, and the test says so. */
const noMkfifo = existsSync('/usr/bin/mkfifo') ? undefined : 'mkfifo (coreutils) is not installed at /usr/bin/mkfifo: no FIFO to test with';

/** samples/training.reward and its pools, with FIFOs named `pipe.reward`, `pipe.jsonl` and `pipe`. */
function fifoWorkspace(): string {
  const dir = mkdtempSync(path.join(tmpdir(), 'herald-fifo-'));
  copyFileSync(path.resolve('samples/training.reward'), path.join(dir, 'training.reward'));
  mkdirSync(path.join(dir, 'pools'));
  for (const file of ['corpus.jsonl', 'train-R_L.jsonl', 'eval-R0.jsonl', 'eval-R_L.jsonl']) copyFileSync(path.join(pools, file), path.join(dir, 'pools', file));
  for (const name of ['pipe.reward', 'pipe.jsonl', 'pipe']) makeFifo(path.join(dir, name));
  return dir;
}

describe('a FIFO named on the command line is refused at once', () => {
  const cases: [args: string[], stderr: RegExp][] = [
    [['check', 'pipe.reward'], /^pipe\.reward: error: cannot read: not a regular file \(a FIFO\)$/m],
    [['audit', 'pipe.reward'], /^pipe\.reward: error: cannot read: not a regular file \(a FIFO\)$/m],
    [['signal', 'pipe.reward'], /^pipe\.reward: error: cannot read: not a regular file \(a FIFO\)$/m],
    [['compare', 'pipe.reward'], /^pipe\.reward: error: cannot read: not a regular file \(a FIFO\)$/m],
    [['audit', 'training.reward', '--out', 'pipe'], /^herald audit: refusing to write the report to pipe: not a regular file \(a FIFO\); nothing was written$/m],
    [['signal', 'training.reward', '--out', 'pipe'], /^herald signal: refusing to write the report to pipe: not a regular file \(a FIFO\); nothing was written$/m],
    [['compare', 'training.reward', '--out', 'pipe'], /^herald compare: refusing to write the report to pipe: not a regular file \(a FIFO\); nothing was written$/m],
    [['signal', 'training.reward', '--log', 'pipe.jsonl'], /pipe\.jsonl: cannot read: not a regular file \(a FIFO\)$/m],
    [['compare', 'training.reward', '--base', 'pipe.jsonl', '--treatment', 'pools/eval-R0.jsonl'], /pipe\.jsonl: cannot read: not a regular file \(a FIFO\)$/m],
    [['compare', 'training.reward', '--base', 'pools/eval-R0.jsonl', '--treatment', 'pipe.jsonl'], /pipe\.jsonl: cannot read: not a regular file \(a FIFO\)$/m],
    [['import', '--from', 'verl', 'pipe.jsonl', '--out', 'pool.jsonl'], /^herald import: cannot read .*pipe\.jsonl: not a regular file \(a FIFO\)$/m],
    [['import', '--from', 'verl', verlDump, '--out', 'pipe'], /^herald import: refusing to write the report to pipe: not a regular file \(a FIFO\); nothing was written$/m],
    [['import', '--from', 'verl', verlDump, '--corpus', 'pipe.jsonl', '--out', 'pool.jsonl'], /^herald import: cannot read the corpus: .*pipe\.jsonl: cannot read: not a regular file \(a FIFO\)$/m],
  ];
  for (const [args, stderr] of cases) {
    it(`herald ${args.join(' ')}: exit 2 with the reason, within seconds`, (t) => {
      if (noMkfifo !== undefined) {
        t.skip(noMkfifo);
        return;
      }
      const dir = fifoWorkspace();
      const started = performance.now();
      const result = spawnSync(process.execPath, [herald, ...args], { cwd: dir, encoding: 'utf8', timeout: 30_000 });
      const took = performance.now() - started;
      assert.equal(result.signal, null, `killed after ${took.toFixed(0)} ms: blocked on the FIFO`);
      assert.equal(result.status, 2, result.stderr);
      assert.match(result.stderr, stderr);
      assert.ok(took < 15_000, `${took.toFixed(0)} ms`);
      assert.ok(!existsSync(path.join(dir, 'pool.jsonl')), 'nothing written');
    });
  }
});
