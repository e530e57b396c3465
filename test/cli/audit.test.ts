import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
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
    assert.match(result.stderr, /expectation failed: quick: expect asr\(R0, launder, oracle_worst\) == 0 \(asr = \d+\.\d\d% over \d+ isolated-eligible clusters\)/);
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
    const accepted = runHerald(['audit', 'spec.reward', '--update-baseline', '--quiet'], dir);
    assert.equal(accepted.code, 0, accepted.stderr);
    assert.match(accepted.stderr, /wrote the baseline spec\.reward\.baseline\.json/);
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
