// Issue 13, item 13: `herald signal --log /dev/urandom` used to read forever; a file that cannot be
// read printed as `:0: skipped row:`. It is refused as not a regular file, printed `FILE: cannot read: why`.
import assert from 'node:assert/strict';
import * as path from 'node:path';
import { describe, it } from 'node:test';
import { runCompareCommand } from '../../server/src/cli/compare-command.js';
import { runSignalCommand } from '../../server/src/cli/signal-command.js';
import { workspace } from './workspace.js';

const spec = path.resolve('samples/training.reward');

async function run(command: typeof runSignalCommand, args: string[]): Promise<{ code: number; err: string[] }> {
  const err: string[] = [];
  let timer: ReturnType<typeof setTimeout> | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error('the command did not end within 20 s')), 20_000);
  });
  try {
    const code = await Promise.race([command(args, { out: () => undefined, err: (l) => err.push(l), write: () => undefined }), timeout]);
    return { code, err };
  } finally {
    clearTimeout(timer);
  }
}

describe('files that cannot be read, on the command line', () => {
  const ws = workspace();

  it('herald signal --log /dev/urandom ends at once: FILE: cannot read: not a regular file', async () => {
    const { code, err } = await run(runSignalCommand, [spec, '--log', '/dev/urandom']);
    assert.equal(code, 2);
    assert.deepEqual(err.filter((l) => l.includes('urandom')), ['/dev/urandom: cannot read: not a regular file (a character device)']);
    assert.ok(!err.some((l) => l.includes(':0: skipped row')), err.join('\n'));
  });

  it('herald compare with a missing and a FIFO log names each file', async () => {
    const missing = path.join(ws.dir, 'missing.jsonl');
    const fifo = ws.fifo('pipe.jsonl');
    const { code, err } = await run(runCompareCommand, [spec, '--base', missing, '--treatment', fifo]);
    assert.equal(code, 2);
    assert.deepEqual(err.filter((l) => l.includes('cannot read')), [`${missing}: cannot read: file not found`, `${fifo}: cannot read: not a regular file (a FIFO)`]);
  });
});
