import assert from 'node:assert/strict';
import { spawn, spawnSync } from 'node:child_process';
import { once } from 'node:events';
import { readFileSync } from 'node:fs';
import * as path from 'node:path';
import { describe, it } from 'node:test';
import { auditCommand } from '../../server/src/cli/audit-command.js';
import { checkCommand } from '../../server/src/cli/check-command.js';
import { compareCommand } from '../../server/src/cli/compare-command.js';
import { importCommand } from '../../server/src/cli/import-command.js';
import { signalCommand } from '../../server/src/cli/signal-command.js';

// Usage as users meet it: the bundled CLI in a child process. Every usage error says what was wrong
// and exits 2 before any audit runs, so these runs are quick even on the sample specs.
const herald = path.resolve('dist/herald.js');
const paper = path.resolve('samples/paper.reward');
const training = path.resolve('samples/training.reward');

function runHerald(args: string[]): { code: number | null; stdout: string; stderr: string } {
  const result = spawnSync(process.execPath, [herald, ...args], { encoding: 'utf8', maxBuffer: 64 * 1024 * 1024 });
  return { code: result.status, stdout: result.stdout, stderr: result.stderr };
}

const commands = [checkCommand, auditCommand, signalCommand, compareCommand, importCommand];

describe('herald <command> --help', () => {
  for (const command of commands) {
    it(`${command.name}: --help and -h print every option the command parses, on stdout, exit 0`, () => {
      const long = runHerald([command.name, '--help']);
      assert.equal(long.code, 0, long.stderr);
      assert.equal(long.stderr, '');
      assert.match(long.stdout, new RegExp(`^usage: herald ${command.name} `));
      // The table parseArgs reads is the table the help prints: no option parses without its line.
      for (const name of [...Object.keys(command.options), 'help']) assert.match(long.stdout, new RegExp(`^  (-\\w, )?--${name}\\b`, 'm'), `--${name} in herald ${command.name} --help`);
      assert.match(long.stdout, /^exit: 0 /m);
      assert.equal(runHerald([command.name, '-h']).stdout, long.stdout);
    });
  }

  it('check --help prints the help and never reads "--help" as a spec', () => {
    const result = runHerald(['check', '--help']);
    assert.equal(result.code, 0);
    assert.doesNotMatch(result.stdout + result.stderr, /cannot read/);
    assert.match(result.stdout, /^usage: herald check <spec\.reward…>/);
  });

  it('herald --help lists every command', () => {
    const result = runHerald(['--help']);
    assert.equal(result.code, 0);
    for (const command of commands) assert.match(result.stdout, new RegExp(`^  ${command.name} `, 'm'));
  });
});

describe('herald usage errors', () => {
  it('an unknown --audit name is a usage error that names it, suggests the closest and lists the audits', () => {
    const typo = runHerald(['audit', paper, '--audit', 'papr']);
    assert.equal(typo.code, 2);
    assert.equal(typo.stdout, '');
    assert.match(typo.stderr, /^herald audit: --audit: unknown audit 'papr'; did you mean 'paper'\? \(the spec's audits: paper, replication, sensitivity\)$/m);
    const far = runHerald(['audit', paper, '--audit', 'nope', '--format', 'json']);
    assert.equal(far.code, 2);
    assert.equal(far.stdout, '', 'no report with zero audits');
    assert.match(far.stderr, /unknown audit 'nope' \(the spec's audits: paper, replication, sensitivity\)/);
  });

  it('unknown --training, --reward and --comparison names are usage errors too', () => {
    const block = runHerald(['signal', training, '--training', 'exposur']);
    assert.equal(block.code, 2);
    assert.match(block.stderr, /^herald signal: --training: unknown training block 'exposur'; did you mean 'exposure'\? \(the spec's training blocks: exposure\)$/m);
    const reward = runHerald(['signal', training, '--reward', 'R9', '--log', 'x.jsonl']);
    assert.equal(reward.code, 2);
    assert.match(reward.stderr, /^herald signal: --reward: unknown reward 'R9'.*\(the spec's rewards: /m);
    const comparison = runHerald(['compare', training, '--comparison', 'other']);
    assert.equal(comparison.code, 2);
    assert.match(comparison.stderr, /^herald compare: --comparison: unknown comparison 'other' \(the spec's comparisons: matched\)$/m);
  });

  it('--format xml says what was wrong and which formats there are', () => {
    const audit = runHerald(['audit', paper, '--format', 'xml']);
    assert.equal(audit.code, 2);
    assert.match(audit.stderr, /^herald audit: unknown format 'xml'; expected one of table, json, sarif, html$/m);
    assert.match(audit.stderr, /herald audit --help/);
    const signal = runHerald(['signal', training, '--format', 'sarif']);
    assert.equal(signal.code, 2);
    assert.match(signal.stderr, /^herald signal: unknown format 'sarif'; expected one of table, json, html$/m);
  });

  it('an unknown option, a missing spec or a half-given pair of arms says so', () => {
    const option = runHerald(['audit', paper, '--frobnicate']);
    assert.equal(option.code, 2);
    assert.match(option.stderr, /^herald audit: Unknown option '--frobnicate'/m);
    const none = runHerald(['audit']);
    assert.equal(none.code, 2);
    assert.match(none.stderr, /^herald audit: expected 1 <spec\.reward>, got none$/m);
    const arms = runHerald(['compare', training, '--base', 'a.jsonl']);
    assert.equal(arms.code, 2);
    assert.match(arms.stderr, /--base and --treatment go together/);
  });
});

describe('herald --version', () => {
  it('prints the package version, with --version and -V', () => {
    const { version } = JSON.parse(readFileSync('package.json', 'utf8')) as { version: string };
    for (const flag of ['--version', '-V']) {
      const result = runHerald([flag]);
      assert.equal(result.code, 0);
      assert.equal(result.stdout, `${version}\n`);
    }
  });
});

describe('herald with its output closed early (herald audit … | head)', () => {
  it('stops with the status of a program stopped by SIGPIPE (141), and no stack trace', async () => {
    const child = spawn(process.execPath, [herald, 'audit', 'samples/paper.reward', '--format', 'json', '--quiet'], { stdio: ['ignore', 'pipe', 'pipe'] });
    // The reader goes away before herald writes its report.
    child.stdout.destroy();
    let stderr = '';
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString('utf8')));
    const [code] = (await once(child, 'close')) as [number | null];
    assert.equal(code, 141, stderr);
    assert.doesNotMatch(stderr, /internal error|EPIPE|\n\s+at /);
  });
});
