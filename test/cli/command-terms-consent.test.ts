// Issue 36: `herald audit` runs a field's or reward's program only when asked, like a candidates
// command (issue 33): without --allow-commands it lists each `field NAME: command "…"` and
// `reward NAME: command "…"` at its file:line:col, exits 2 and runs nothing.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import * as path from 'node:path';
import { describe, it } from 'node:test';
import { rolloutPool, termWorkspace } from '../helpers/term-workspace.js';

const herald = path.resolve('dist/herald.js');

describe('herald audit and the programs of command fields and rewards', () => {
  const ws = termWorkspace([1]);
  const field = 'command "node reward.mjs --value rendered --record out/n"';
  const reward = 'command "node reward.mjs --value em --record out/t"';
  const spec = `${rolloutPool}field n_searched "searches" : number = ${field}
reward t "EM" =
  ${reward}
detector U "nonempty final answer and no search at all" = has_final and answer != "" and n_searched == 0
audit a {
  reward t
  corpus wiki
  pools rollouts
  attack same_final targets U
  lattice U = 0.5
}
`;
  const specFile = ws.write('spec.reward', spec);
  const run = (args: string[]): { code: number | null; stdout: string; stderr: string } => {
    const env = { ...process.env };
    delete env['HERALD_ALLOW_COMMANDS'];
    const result = spawnSync(process.execPath, [herald, 'audit', specFile, '--quiet', '--no-cache', ...args], { cwd: ws.dir, encoding: 'utf8', env, timeout: 120_000 });
    return { code: result.status, stdout: result.stdout, stderr: result.stderr };
  };
  /** One-based line:column of the program's string in the spec. */
  const place = (source: string): string => {
    const at = spec.indexOf(source) + 'command '.length;
    const before = spec.slice(0, at).split('\n');
    return `${before.length}:${before.at(-1)!.length + 1}`;
  };

  it('without --allow-commands: exit 2, each program at its file:line:col, nothing run', () => {
    const { code, stderr } = run([]);
    assert.equal(code, 2, stderr);
    const lines = stderr.trimEnd().split('\n');
    assert.equal(lines[0], "herald audit: the spec would run 2 programs, and herald runs a spec's programs only when asked, so nothing was run:");
    assert.deepEqual(lines.slice(1, 3), [
      `${specFile}:${place(field)}: field n_searched: ${field}`,
      `${specFile}:${place(reward)}: reward t: ${reward}`,
    ]);
    assert.match(lines[3] ?? '', /^herald audit: run herald again with --allow-commands/);
    assert.equal(ws.runs('n') + ws.runs('t'), 0);
  });

  it('with --allow-commands: each program runs once, and the JSON report records it', () => {
    const { code, stdout, stderr } = run(['--allow-commands', '--format', 'json']);
    assert.ok(code === 0 || code === 1, stderr);
    const report = JSON.parse(stdout) as { audits: { commandTerms: { term: string; requests: number; ran: number }[] }[] };
    assert.deepEqual(report.audits[0]!.commandTerms.map((c) => [c.term, c.ran === c.requests && c.requests > 32]), [['n_searched', true], ['t', true]]);
    assert.deepEqual([ws.runs('n'), ws.runs('t')], [1, 1]);
  });
});
