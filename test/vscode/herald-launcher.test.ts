import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { after, describe, it } from 'node:test';
import { heraldLaunchers } from '../../client/src/herald-launcher.js';
import { heraldVersion } from '../../server/src/version.js';

// The `herald` launcher the extension puts on the terminal's PATH (client/src/herald-launcher.ts),
// run as a terminal would run it: found on PATH, it starts the bundled command line with the runtime
// it names, whatever quotes and spaces the extension's folder holds.

const repoRoot = path.resolve(__dirname, '../../..');

describe('the herald launcher', { skip: process.platform === 'win32' ? 'a POSIX shell script' : false }, () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'herald-launcher-'));
  after(() => fs.rmSync(dir, { recursive: true, force: true }));

  it("runs the bundled command line from PATH, from an extension folder with a quote and a space in its name", () => {
    const extension = path.join(dir, "it's an extension");
    fs.mkdirSync(path.join(extension, 'dist'), { recursive: true });
    for (const file of ['herald.js', 'engine.js']) fs.copyFileSync(path.join(repoRoot, 'dist', file), path.join(extension, 'dist', file));
    const bin = path.join(dir, 'bin');
    fs.mkdirSync(bin);
    for (const launcher of heraldLaunchers(process.execPath, path.join(extension, 'dist/herald.js'), process.platform)) {
      fs.writeFileSync(path.join(bin, launcher.name), launcher.text, { mode: launcher.executable ? 0o755 : 0o644 });
    }
    const out = execFileSync('/bin/sh', ['-c', 'herald --version'], { env: { PATH: `${bin}${path.delimiter}/usr/bin:/bin` }, encoding: 'utf8' });
    assert.equal(out.trim(), heraldVersion);
  });

  it('writes a .cmd for Windows that keeps the variable to itself and passes every argument', () => {
    const [cmd] = heraldLaunchers('C:\\Program Files\\Code\\Code.exe', 'C:\\ext\\dist\\herald.js', 'win32');
    assert.equal(cmd?.name, 'herald.cmd');
    assert.equal(cmd?.text, '@echo off\r\nsetlocal\r\nset ELECTRON_RUN_AS_NODE=1\r\n"C:\\Program Files\\Code\\Code.exe" "C:\\ext\\dist\\herald.js" %*\r\n');
  });
});
