import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { after, describe, it } from 'node:test';

// `npm run demo` (scripts/demo.mjs, after the build): a short summary per sample command on the
// terminal, every command's whole output in a file, and exit 0 when each command exits as the
// samples are built to (the quick start and .ci/run rely on it).

const repoRoot = path.resolve(__dirname, '../../..');

describe('npm run demo', () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'herald-demo-'));
  after(() => fs.rmSync(dir, { recursive: true, force: true }));
  const run = spawnSync(process.execPath, [path.join(repoRoot, 'scripts/demo.mjs'), '--out', dir], { cwd: repoRoot, encoding: 'utf8', maxBuffer: 64 * 1024 * 1024 });
  const lines = run.stdout.split('\n');

  it('exits 0 with every command as the samples expect', () => {
    assert.equal(run.status, 0, run.stderr);
    assert.equal(lines.filter((l) => l.startsWith('✗')).length, 0, run.stdout);
    assert.equal(lines.filter((l) => l.startsWith('✓ herald ')).length, 10, run.stdout);
  });

  it('prints a short summary: each spec\'s verdict, finding counts and key findings, under 100 lines', () => {
    assert.ok(lines.length < 100, `${lines.length} lines`);
    assert.ok(lines.includes('    spec paper.reward · 3 audits · 6 expectations: 6 passed, 0 failed'), run.stdout);
    assert.ok(lines.some((l) => /^ {4}findings: 0 errors, \d+ warnings, \d+ info \(attack-succeeds ×\d+/.test(l)), run.stdout);
    assert.ok(lines.some((l) => /^ {4}warning attack-succeeds at samples\/paper\.reward:\d+: in audit paper, /.test(l)), run.stdout);
    assert.ok(lines.some((l) => l.startsWith('    herald: matched: EM non-inferiority fails')), run.stdout);
    for (const line of lines) assert.ok([...line].length <= 200, line);
  });

  it('writes each command\'s whole output to a file it names', () => {
    const paper = fs.readFileSync(path.join(dir, 'audit-paper.txt'), 'utf8');
    assert.match(paper, /^\$ herald audit samples\/paper\.reward\n/);
    assert.match(paper, /── expectations: 3 passed, 0 failed/);
    assert.match(paper, /--- stderr ---\nsamples\/paper\.reward:\d+:\d+: warning attack-succeeds /);
    assert.ok(lines.some((l) => l.includes(`full output: ${path.relative(repoRoot, path.join(dir, 'audit-paper.txt'))} (`)), run.stdout);
    assert.equal(fs.readdirSync(dir).length, 10);
  });
});
