// Issue 33, item 2: `herald audit` runs a spec's program only when asked (--allow-commands or
// HERALD_ALLOW_COMMANDS=1): a CI job auditing a pull request from a fork must not run its code.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import * as path from 'node:path';
import { describe, it } from 'node:test';
import { auditSpec, markingCommand, markingRuns, workspace, writeMarkingProgram } from '../inputs/workspace.js';

const herald = path.resolve('dist/herald.js');

const command = `candidates command ${JSON.stringify(markingCommand)}`;
const withCommands = auditSpec('data/corpus.jsonl', 'data/hotpot.jsonl', `  attack dense = launder targets L using ${command}\n  attack again = launder targets L using lexical(2), ${command}\n`);
// The same audit without the commands, as a second block named `plain`.
const plain = auditSpec('data/corpus.jsonl', 'data/hotpot.jsonl');
const spec = `${withCommands}\n${plain.slice(plain.indexOf('audit quick')).replace('audit quick', 'audit plain')}`;

describe('herald audit and the programs a spec names', () => {
  const ws = workspace();
  writeMarkingProgram(ws.dir);
  const specFile = ws.write('spec.reward', spec);
  const run = (args: string[], env: Record<string, string> = {}): { code: number | null; stderr: string } => {
    const clean = { ...process.env };
    delete clean['HERALD_ALLOW_COMMANDS'];
    const result = spawnSync(process.execPath, [herald, 'audit', specFile, '--quiet', '--no-cache', ...args], { cwd: ws.dir, encoding: 'utf8', env: { ...clean, ...env }, timeout: 120_000 });
    return { code: result.status, stderr: result.stderr };
  };
  const runs = (): number => markingRuns(ws.dir);

  it('without consent stops with exit 2, names each place the program is named at its line, and runs nothing', () => {
    const { code, stderr } = run([]);
    assert.equal(code, 2, stderr);
    assert.equal(runs(), 0, 'the program ran');
    const lines = stderr.trimEnd().split('\n');
    assert.equal(lines[0], "herald audit: the spec would run a program (named at 2 places), and herald runs a spec's programs only when asked, so nothing was run:");
    // Each place is the command's string in the spec, as line:column (one-based).
    const places = spec.split('\n').flatMap((line, i) => (line.includes(command) ? [`${i + 1}:${line.indexOf(command) + command.length - markingCommand.length - 1}`] : []));
    assert.equal(places.length, 2);
    assert.deepEqual(lines.slice(1, 3), places.map((p) => `${specFile}:${p}: audit quick: candidates command "node mark.js"`));
    assert.match(lines[3] ?? '', /^herald audit: run herald again with --allow-commands \(or HERALD_ALLOW_COMMANDS=1 in the environment, for CI\)/);
  });

  it('HERALD_ALLOW_COMMANDS counts only as 1: "true" or "yes" is no consent', () => {
    for (const value of ['true', 'yes', '0', '']) {
      assert.equal(run([], { HERALD_ALLOW_COMMANDS: value }).code, 2, value);
    }
    assert.equal(runs(), 0);
  });

  it('an audit that names no program runs without consent', () => {
    const { code, stderr } = run(['--audit', 'plain']);
    assert.ok(code === 0 || code === 1, stderr);
    assert.equal(runs(), 0);
  });

  it('with --allow-commands, or HERALD_ALLOW_COMMANDS=1, the program runs (once per audit)', () => {
    const flag = run(['--allow-commands', '--audit', 'quick']);
    assert.ok(flag.code === 0 || flag.code === 1, flag.stderr);
    assert.equal(runs(), 1);
    const variable = run(['--audit', 'quick'], { HERALD_ALLOW_COMMANDS: '1' });
    assert.ok(variable.code === 0 || variable.code === 1, variable.stderr);
    assert.equal(runs(), 2);
  });
});
