// Issue 33, items 8 and 10: `--out` is written to a new file beside it and renamed into place. A
// write that fails (a value too deep for JSON.stringify) used to leave the old pool at 0 bytes, and
// an `out.jsonl` swapped for a link to the input while `herald import` ran had the input overwritten.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { lstatSync, mkdtempSync, readdirSync, readFileSync, readlinkSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { describe, it } from 'node:test';
import { outputTarget, writeOutput } from '../../server/src/cli/output-file.js';
import { replaceFile } from '../../server/src/inputs/replace-file.js';

const herald = path.resolve('dist/herald.js');

function folder(): string {
  return mkdtempSync(path.join(tmpdir(), 'herald-rename-'));
}

function recorder(): { io: { out: (t: string) => void; err: (t: string) => void; write: (t: string) => void }; errors: string[] } {
  const errors: string[] = [];
  return { io: { out: () => undefined, err: (text) => errors.push(text), write: () => undefined }, errors };
}

const oldPool = '{"id":"kept"}\n'.repeat(50);

/** A folder with an input log (`oldPool`) and an older output beside it. */
function logAndOut(): { dir: string; input: string; out: string } {
  const dir = folder();
  const input = path.join(dir, 'log.jsonl');
  const out = path.join(dir, 'out.jsonl');
  writeFileSync(input, oldPool);
  writeFileSync(out, 'an older pool\n');
  return { dir, input, out };
}

/** A verl record (the importer's minimal fields) with `extra` merged in. */
function verlRecord(extra = ''): string {
  const record = JSON.stringify({ input: 'Question: who directed Stone Kingdom?', output: '<search>x</search><information>Doc 1(Title: A) b.</information><answer>Lupo</answer>', gts: { target: ['Lupo'] }, score: 1, step: 1 });
  return extra === '' ? record : `${record.slice(0, -1)},${extra}}`;
}

describe('--out is replaced by rename, only on success', () => {
  it('a write that fails partway leaves an existing file byte for byte as it was, and no temporary file', () => {
    const dir = folder();
    const out = path.join(dir, 'pool.jsonl');
    writeFileSync(out, oldPool);
    const { io, errors } = recorder();
    function* failing(): Generator<string> {
      yield '{"id":"new"}\n';
      throw new RangeError('Maximum call stack size exceeded');
    }
    const target = outputTarget('import', out, [], io);
    assert.ok(target !== undefined);
    assert.equal(writeOutput(target, failing(), io), false);
    assert.equal(readFileSync(out, 'utf8'), oldPool);
    assert.deepEqual(readdirSync(dir), ['pool.jsonl']);
    assert.deepEqual(errors, [`herald: cannot write ${out}: Maximum call stack size exceeded; it was left as it was`]);
  });

  it('herald import: a failed import leaves an existing --out byte for byte, and no temporary file', () => {
    const dir = folder();
    // A value nested 100,000 deep parses, but overflows JSON.stringify when the row is written.
    writeFileSync(path.join(dir, 'deep.jsonl'), `${verlRecord()}\n${verlRecord(`"deep":${'['.repeat(100_000)}${']'.repeat(100_000)}`)}\n`);
    writeFileSync(path.join(dir, 'pool.jsonl'), oldPool);
    const result = spawnSync(process.execPath, [herald, 'import', '--from', 'verl', 'deep.jsonl', '--out', 'pool.jsonl'], { cwd: dir, encoding: 'utf8', timeout: 60_000 });
    assert.deepEqual(readdirSync(dir).sort(), ['deep.jsonl', 'pool.jsonl']);
    if (result.status === 0) {
      // An importer that bounds nesting skips the deep record instead: then the pool is the good row.
      assert.match(result.stderr, /deep\.jsonl:2: skipped/);
      assert.equal(readFileSync(path.join(dir, 'pool.jsonl'), 'utf8').split('\n').filter((l) => l !== '').length, 1);
    } else {
      assert.equal(result.status, 2, result.stderr);
      assert.match(result.stderr, /^herald: cannot write pool\.jsonl: .*; it was left as it was$/m);
      assert.equal(readFileSync(path.join(dir, 'pool.jsonl'), 'utf8'), oldPool);
    }
  });

  it('an --out swapped for a link to the input during the run: refused, and the input is unchanged', () => {
    const { dir, input, out } = logAndOut();
    const { io, errors } = recorder();
    const target = outputTarget('import', out, [{ file: input, what: 'a log this import reads' }], io);
    assert.ok(target !== undefined, errors.join('\n'));
    // Between the check and the write, as a slow import would leave time for.
    function* swapping(): Generator<string> {
      yield '{"id":"new"}\n';
      rmSync(out);
      symlinkSync('log.jsonl', out);
      yield '{"id":"newer"}\n';
    }
    assert.equal(writeOutput(target, swapping(), io), false);
    assert.equal(readFileSync(input, 'utf8'), oldPool);
    assert.equal(readlinkSync(out), 'log.jsonl');
    assert.deepEqual(readdirSync(dir).sort(), ['log.jsonl', 'out.jsonl']);
    assert.deepEqual(errors, [`herald: cannot write ${out}: it is a log this import reads now (it changed during the run); it was left as it was`]);
  });

  it('a link put in place after the last check is replaced by the rename, never written through', () => {
    const { input, out } = logAndOut();
    const swapped = replaceFile(out, ['{"id":"new"}\n'], {
      beforeRename: () => {
        rmSync(out);
        symlinkSync('log.jsonl', out);
        return undefined;
      },
    });
    assert.deepEqual(swapped, { ok: true });
    assert.equal(readFileSync(input, 'utf8'), oldPool);
    assert.ok(lstatSync(out).isFile());
    assert.equal(readFileSync(out, 'utf8'), '{"id":"new"}\n');
  });

  it('keeps the permission bits of the file it replaces', () => {
    const dir = folder();
    const out = path.join(dir, 'report.json');
    writeFileSync(out, '{}\n', { mode: 0o600 });
    assert.deepEqual(replaceFile(out, ['{"new":1}\n']), { ok: true });
    assert.equal(lstatSync(out).mode & 0o777, 0o600);
  });

  it('a link named by --out to another file is written through to that file by rename; the link stays', () => {
    const dir = folder();
    writeFileSync(path.join(dir, 'report-1.json'), 'old\n');
    symlinkSync('report-1.json', path.join(dir, 'latest.json'));
    const { io, errors } = recorder();
    const target = outputTarget('audit', path.join(dir, 'latest.json'), [], io);
    assert.ok(target !== undefined, errors.join('\n'));
    assert.equal(writeOutput(target, 'new\n', io, true), true);
    assert.equal(readlinkSync(path.join(dir, 'latest.json')), 'report-1.json');
    assert.equal(readFileSync(path.join(dir, 'report-1.json'), 'utf8'), 'new\n');
  });
});
