import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { after, describe, it } from 'node:test';

// The problem matchers package.json contributes for the `herald` tasks, run over what the bundled CLI
// really prints: `$herald` takes every `file:line:col: severity code message` line (information and
// hint lines take the matcher's `info`), `$herald-rows` the data rows under a finding and skipped
// rows; progress lines match neither, and no line matches both.

const repoRoot = path.resolve(__dirname, '../../..');

interface Pattern {
  readonly regexp: string;
  readonly file: number;
  readonly line: number;
  readonly column?: number;
  readonly severity?: number;
  readonly code?: number;
  readonly message: number;
}
interface Matcher {
  readonly name: string;
  readonly severity: string;
  readonly fileLocation: readonly string[];
  readonly pattern: Pattern;
}

const matchers = (JSON.parse(fs.readFileSync(path.join(repoRoot, 'package.json'), 'utf8')) as { contributes: { problemMatchers: Matcher[] } }).contributes.problemMatchers;

interface Match {
  readonly matcher: string;
  readonly file: string;
  readonly line: number;
  readonly column: number | undefined;
  readonly severity: string;
  readonly code: string | undefined;
  readonly message: string;
}

/** What VS Code's task system makes of a line: group by group, the matcher's severity where the group is empty. */
function matchesOf(text: string): Match[] {
  return matchers.flatMap((m) => {
    const found = new RegExp(m.pattern.regexp).exec(text);
    if (found === null) return [];
    const group = (n: number | undefined): string | undefined => (n === undefined ? undefined : found[n]);
    const column = group(m.pattern.column);
    return [{
      matcher: m.name, file: group(m.pattern.file) ?? '', line: Number(group(m.pattern.line)), column: column === undefined ? undefined : Number(column),
      severity: group(m.pattern.severity) ?? m.severity, code: group(m.pattern.code), message: group(m.pattern.message) ?? '',
    }];
  });
}

function herald(args: readonly string[], cwd: string): string {
  return spawnSync(process.execPath, [path.join(repoRoot, 'dist/herald.js'), ...args], { cwd, encoding: 'utf8' }).stderr;
}

describe('the $herald problem matchers over herald audit output', () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'herald-matchers-'));
  fs.cpSync(path.join(repoRoot, 'walkthrough/sample'), path.join(dir, 'specs'), { recursive: true });
  after(() => fs.rmSync(dir, { recursive: true, force: true }));

  it('resolves files from the workspace folder the task runs in', () => {
    for (const m of matchers) assert.deepEqual(m.fileLocation, ['autodetect', '${workspaceFolder}']);
    assert.deepEqual(matchers.map((m) => m.name), ['herald', 'herald-rows']);
  });

  it('turns every finding line into one problem with its severity and code, and every row line into one on the pool', () => {
    const lines = herald(['audit', 'specs/paper.reward', '--no-cache', '--format', 'json', '--out', path.join(dir, 'out.json')], dir).split('\n').filter((l) => l !== '');
    const findings = lines.filter((l) => l.startsWith('specs/paper.reward:'));
    const rows = lines.filter((l) => /^\s+specs\/pools\/\w+\.jsonl:\d+: /.test(l));
    assert.ok(findings.length >= 5 && rows.length >= 1, lines.join('\n'));
    for (const line of lines) {
      const found = matchesOf(line);
      if (findings.includes(line)) assert.equal(found.length === 1 && found[0]!.matcher, 'herald', line);
      else if (rows.includes(line)) assert.equal(found.length === 1 && found[0]!.matcher, 'herald-rows', line);
      else assert.deepEqual(found, [], `progress or a summary line: ${line}`);
    }
    const all = findings.map((l) => matchesOf(l)[0]!);
    const attack = all.find((m) => m.code === 'attack-succeeds');
    assert.ok(attack);
    assert.equal(attack.file, 'specs/paper.reward');
    assert.equal(attack.severity, 'warning');
    assert.match(attack.message, /^in audit paper, launder beats R0: \d+\.\d+% /);
    assert.deepEqual(new Set(all.filter((m) => m.code === 'redundant-detector').map((m) => m.severity)), new Set(['info']));
    const pairRows = rows.map((r) => matchesOf(r)[0]!);
    assert.ok(pairRows.every((r) => /^specs\/pools\/[\w-]+\.jsonl$/.test(r.file) && r.line > 0), rows.join('\n'));
    assert.ok(pairRows.some((r) => /^worked pair: R0 /.test(r.message)), rows.join('\n'));
  });

  it('matches the checker\'s errors, and skipped rows', () => {
    fs.writeFileSync(path.join(dir, 'specs/broken.reward'), fs.readFileSync(path.join(dir, 'specs/paper.reward'), 'utf8').replace('reward R0\n  compare', 'reward R9\n  compare'));
    const [error] = herald(['audit', 'specs/broken.reward'], dir).split('\n').filter((l) => l !== '').map(matchesOf);
    assert.deepEqual(error?.map((m) => [m.matcher, m.severity, m.code]), [['herald', 'error', 'unknown-name']]);
    assert.deepEqual(matchesOf('specs/pools/hotpot.jsonl:12: skipped row: not valid JSON').map((m) => [m.matcher, m.file, m.line, m.message]),
      [['herald-rows', 'specs/pools/hotpot.jsonl', 12, 'skipped row: not valid JSON']]);
  });
});
