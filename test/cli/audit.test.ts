import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, truncateSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { describe, it } from 'node:test';
import { report } from '../../server/src/report/schema.js';

// `herald audit` as users run it: the bundled CLI on the bundled sample pools.
const herald = path.resolve('dist/herald.js');
const pools = path.resolve('samples/pools');

function runHerald(args: string[], cwd = process.cwd()): { code: number | null; stdout: string; stderr: string } {
  const result = spawnSync(process.execPath, [herald, ...args], { cwd, encoding: 'utf8', maxBuffer: 64 * 1024 * 1024 });
  return { code: result.status, stdout: result.stdout, stderr: result.stderr };
}

/** A small audit over one sample pool, with an expect line the caller chooses. */
function spec(expect: string, extraPool = ''): string {
  return `corpus wiki = "${pools}/corpus.jsonl"
pool hotpot = "${pools}/hotpot.jsonl"
${extraPool}
detector L "cites a real passage it never retrieved" = any c in citations: c in corpus and c not in retrieved
reward R0 {
  answer    1.0 * token_f1(answer, gold.answers)
  grounding 0.6 * grounding(citations, gold.answers)
}
reward R_L = R0 - 1.2 * L
audit quick {
  reward R0
  compare R_L
  corpus wiki
  pools hotpot${extraPool === '' ? '' : ', broken'}
  attack launder targets L using lexical(2)
  lattice L = 1.2
  ${expect}
}
`;
}

function workspace(text: string, files: Record<string, string> = {}): string {
  const dir = mkdtempSync(path.join(tmpdir(), 'herald-audit-'));
  writeFileSync(path.join(dir, 'spec.reward'), text);
  for (const [name, content] of Object.entries(files)) writeFileSync(path.join(dir, name), content);
  return dir;
}

describe('herald audit', () => {
  it('prints the documented JSON shape and exits 0 when every expect holds', () => {
    const dir = workspace(spec('expect asr(R_L, launder, oracle_worst) == 0'));
    const result = runHerald(['audit', 'spec.reward', '--format', 'json', '--quiet'], dir);
    assert.equal(result.code, 0, result.stderr);
    const parsed = report.parse(JSON.parse(result.stdout));
    const audit = parsed.audits[0]!;
    assert.equal(audit.name, 'quick');
    assert.deepEqual(audit.lattice.minimal, [['L']]);
    assert.equal(audit.expectations[0]?.passed, true);
    assert.ok(audit.attacks[0]!.counts.rows.isolatedEligible > 0);
  });

  it('exits 1 and names the failing expect line', () => {
    const dir = workspace(spec('expect asr(R0, launder, oracle_worst) == 0'));
    const result = runHerald(['audit', 'spec.reward'], dir);
    assert.equal(result.code, 1);
    assert.match(result.stderr, /^spec\.reward:17:3: error expect-failed expectation fails in audit quick: `expect asr\(R0, launder, oracle_worst\) == 0`: asr = \d+\.\d\d% over \d+ isolated-eligible clusters$/m);
    assert.match(result.stdout, /✗/);
  });

  it('writes SARIF 2.1.0 to a file with the failing expect on its spec line', () => {
    const dir = workspace(spec('expect asr(R0, launder, oracle_worst) == 0'));
    const result = runHerald(['audit', 'spec.reward', '--format', 'sarif', '--out', 'audit.sarif', '--quiet'], dir);
    assert.equal(result.code, 1);
    const sarif = JSON.parse(readFileSync(path.join(dir, 'audit.sarif'), 'utf8')) as {
      version: string;
      runs: { results: { ruleId: string; locations: { physicalLocation: { region: { startLine: number } } }[] }[] }[];
    };
    assert.equal(sarif.version, '2.1.0');
    const failed = sarif.runs[0]!.results.find((r) => r.ruleId === 'expect-failed');
    assert.equal(failed?.locations[0]?.physicalLocation.region.startLine, 17);
  });

  it('skips bad pool rows with file:line and goes on', () => {
    const good = readFileSync(path.join(pools, 'hotpot.jsonl'), 'utf8').split('\n')[0]!;
    const row = JSON.parse(good) as { id: string };
    const broken = [JSON.stringify({ ...row, id: 'x-1' }), '{not json', JSON.stringify({ ...row, id: 'x-2', steps: 'none' })].join('\n');
    const dir = workspace(spec('expect asr(R_L, launder, oracle_worst) == 0', 'pool broken = "broken.jsonl"'), { 'broken.jsonl': broken });
    const result = runHerald(['audit', 'spec.reward', '--format', 'json', '--quiet'], dir);
    assert.equal(result.code, 0, result.stderr);
    assert.match(result.stderr, /broken\.jsonl:2: skipped row: invalid JSON/);
    assert.match(result.stderr, /broken\.jsonl:3: skipped row: steps: /);
    const pool = report.parse(JSON.parse(result.stdout)).audits[0]!.pools.find((p) => p.name === 'broken');
    assert.deepEqual([pool?.rows, pool?.skipped], [1, 2]);
  });

  it('accepts a baseline and then exits 1 with the regression on the weight that changed', () => {
    const text = spec('expect asr(R_L, launder, oracle_worst) <= 100%');
    const dir = workspace(text);
    const accepted = runHerald(['audit', 'spec.reward', '--update-baseline'], dir);
    assert.equal(accepted.code, 0, accepted.stderr);
    assert.match(accepted.stderr, /wrote the baseline spec\.reward\.baseline\.json/);
    const quiet = runHerald(['audit', 'spec.reward', '--update-baseline', '--quiet', '--format', 'json', '--out', 'r.json'], dir);
    assert.doesNotMatch(quiet.stderr, /herald: (wrote|audit|evaluating)/, '--quiet prints no progress and not what it wrote, only findings');
    assert.equal(runHerald(['audit', 'spec.reward', '--quiet'], dir).code, 0, 'no regression against itself');
    writeFileSync(path.join(dir, 'spec.reward'), text.replace('R0 - 1.2 * L', 'R0 - 0.2 * L'));
    const result = runHerald(['audit', 'spec.reward', '--quiet'], dir);
    assert.equal(result.code, 1);
    assert.match(result.stderr, /^spec\.reward:9:17: error asr-regression regression against the baseline: launder under R_L/m);
  });

  it('refuses a spec with errors (exit 2) and prints them', () => {
    const dir = workspace(spec('expect asr(R_L, launder, oracle_worst) == 0').replace('lexical(2)', 'lexicl(2)'));
    const result = runHerald(['audit', 'spec.reward'], dir);
    assert.equal(result.code, 2);
    assert.match(result.stderr, /spec\.reward:15:34: error unknown-generator unknown generator 'lexicl'/);
  });
});

// The small specs under test/fixtures/honest, whose figures are known by hand.
describe('herald audit: ties, non-finite numbers and undefined figures', () => {
  const honest = path.resolve('test/fixtures/honest');

  it('counts an exact tie that floating point sums to −5.55e-17 as a success', () => {
    assert.ok(Math.abs(-0.1 - 0.2 + 0.3) > 0, 'the sum really is not 0 in doubles');
    const result = runHerald(['audit', 'tie.reward', '--format', 'json', '--no-cache'], honest);
    assert.equal(result.code, 0, result.stderr);
    const audit = report.parse(JSON.parse(result.stdout)).audits[0]!;
    for (const r of audit.attacks[0]!.results) {
      assert.equal(r.estimate.asr, 1, `${r.selection}: both edits tie, and a tie is a success`);
      assert.equal(r.estimate.meanMargin, 0, 'the tie is reported as exactly 0');
    }
    assert.equal(audit.settings.tieTolerance, 1e-12);
  });

  it('takes --workers N for a whole N from 1 to 64, and refuses anything else as bad usage', () => {
    assert.equal(runHerald(['audit', 'tie.reward', '--no-cache', '--quiet', '--workers', '2'], honest).code, 0);
    for (const bad of ['0', '2.5', 'all', '65']) {
      const result = runHerald(['audit', 'tie.reward', '--no-cache', '--quiet', '--workers', bad], honest);
      assert.equal(result.code, 2, bad);
      assert.match(result.stderr, new RegExp(`--workers takes a whole number from 1 to 64, not "${bad.replace('.', '\\.')}"`));
    }
  });

  it('takes --max-input-mib N to raise the input limits, and refuses N below the defaults as bad usage', () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'herald-limit-'));
    // A sparse pool of 200 MiB: refused unread under the defaults; read (and stopped by its NUL bytes) under a raised limit.
    const pool = path.join(dir, 'big.jsonl');
    writeFileSync(pool, '');
    truncateSync(pool, 200 * 1024 * 1024);
    writeFileSync(path.join(dir, 'big.reward'), spec('').replace(`${pools}/hotpot.jsonl`, pool));
    const refused = runHerald(['audit', 'big.reward', '--no-cache', '--quiet'], dir);
    assert.equal(refused.code, 2);
    assert.match(refused.stderr, /big\.jsonl: cannot read: 200 MiB, above the 128 MiB limit for one linked file \(raise it with --max-input-mib or the setting herald\.maxInputMiB; see Limits in docs\/language\.md\)/);
    const raised = runHerald(['audit', 'big.reward', '--no-cache', '--quiet', '--max-input-mib', '256'], dir);
    assert.equal(raised.code, 2);
    assert.match(raised.stderr, /big\.jsonl: cannot read: a NUL byte on line 1/);
    assert.doesNotMatch(raised.stderr, /above the/);
    for (const command of ['audit', 'signal', 'compare']) {
      for (const bad of ['100', '159', '2.5', 'lots', '', '65537']) {
        const result = runHerald([command, 'big.reward', '--max-input-mib', bad], dir);
        assert.equal(result.code, 2, `${command} ${bad}`);
        assert.match(result.stderr, new RegExp(`herald ${command}: --max-input-mib takes a whole number of MiB from 160 \\(the default limit\\) to 65,536, not "${bad.replace('.', '\\.')}"`));
      }
    }
  });

  it('rejects a weight that overflows a double with its code, at its place', () => {
    const result = runHerald(['check', 'overflow.reward'], honest);
    assert.equal(result.code, 1);
    assert.deepEqual(result.stdout.trim().split('\n'), [
      'overflow.reward:8:9: error non-finite-number 1e309 is too large for a double: it would be Infinity, and every margin it enters would be NaN',
    ]);
    assert.equal(runHerald(['audit', 'overflow.reward'], honest).code, 2, 'never audited');
  });

  it('fails the audit (exit 2, audit-failed) when a term overflows on the data, instead of counting NaN as a failed attack', () => {
    const dir = workspace(readFileSync(path.join(honest, 'tie.reward'), 'utf8')
      .replaceAll('"corpus.jsonl"', `"${path.join(honest, 'corpus.jsonl')}"`).replaceAll('"tie.jsonl"', `"${path.join(honest, 'tie.jsonl')}"`)
      .replace('dup   -0.3 * duplicate', 'dup   -0.3 * duplicate\n  huge  1 * (count(citations) * 1e308)'));
    const result = runHerald(['audit', 'spec.reward', '--no-cache', '--quiet'], dir);
    assert.equal(result.code, 2, result.stderr);
    assert.match(result.stderr, /^spec\.reward:\d+:7: error audit-failed the audit could not run: term 'R\.huge' is Infinity; every term must be a finite number \(trajectory t1, \S*tie\.jsonl:1\)$/m);
  });

  it('fails the audit (exit 2, audit-failed) naming the edit and the row when an edit grows past its bounds, in seconds', () => {
    const doubling = (edit: string): string => readFileSync(path.join(honest, 'tie.reward'), 'utf8')
      .replaceAll('"corpus.jsonl"', `"${path.join(honest, 'corpus.jsonl')}"`).replaceAll('"tie.jsonl"', `"${path.join(honest, 'tie.jsonl')}"`)
      .replace('audit tie {', `edit grow "doubles a part, again and again" = ${edit}\naudit tie {`)
      .replace('attack fake_id targets F', 'attack fake_id targets F\n  attack grow');
    for (const [edit, reason] of [
      [Array.from({ length: 32 }, () => 'set answer = concat(answer, answer)').join(', '), /characters to the answer and final text, more than the 10,000,000 an edit may add/],
      [Array.from({ length: 30 }, () => 'duplicate all s in steps').join(', '), /steps and citations, more than the 10,000 an edit may add/],
    ] as const) {
      const started = Date.now();
      const result = runHerald(['audit', 'spec.reward', '--no-cache', '--quiet'], workspace(doubling(edit)));
      assert.equal(result.code, 2, result.stderr);
      assert.match(result.stderr, /^spec\.reward:\d+:7: error audit-failed the audit could not run: edit 'grow': a variant would add .* \(trajectory t1, \S*tie\.jsonl:1\)$/m);
      assert.match(result.stderr, reason);
      assert.ok(Date.now() - started < 60_000, `took ${Date.now() - started} ms`);
    }
  });

  it('writes figures over zero clusters as null and n/a, and says the lattice has nothing to repair', () => {
    const json = runHerald(['audit', 'nothing.reward', '--format', 'json', '--no-cache', '--quiet'], honest);
    assert.equal(json.code, 1, 'both expectations fail: nothing was tested');
    const audit = report.parse(JSON.parse(json.stdout)).audits[0]!;
    const e = audit.attacks[0]!.results[0]!.estimate;
    assert.deepEqual([e.clusters, e.asr, e.meanMargin, e.worstMargin, e.interval], [0, null, null, null, { low: null, high: null, method: 'none' }]);
    for (const point of audit.sweep) assert.deepEqual([point.clusters, point.asr, point.upper, point.meanMargin, point.method], [0, null, null, null, 'none']);
    assert.equal(audit.lattice.vacuous, true);
    assert.deepEqual(audit.lattice.minimal, []);
    assert.ok(audit.lattice.subsets.every((s) => !s.sufficient));
    assert.deepEqual(audit.expectations.map((x) => [x.passed, x.actual]), [
      [false, 'nothing to repair: no isolated-eligible edit'],
      [false, 'asr is undefined: no isolated-eligible fake_id edit, so nothing was tested'],
    ]);
    const table = runHerald(['audit', 'nothing.reward', '--no-cache', '--quiet'], honest).stdout;
    assert.match(table, /fake_id +first_visible +label-free +0 +ASR +n\/a +n\/a +n\/a +n\/a +n\/a$/m);
    assert.match(table, /Nothing to repair: no isolated-eligible edit\./);
    assert.doesNotMatch(table, /0\.00%/, 'no rate over zero clusters is written as zero');
  });
});
