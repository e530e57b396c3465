import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { describe, it } from 'node:test';
import { report } from '../../server/src/report/schema.js';

// `herald audit --tables` and an audit with `robustness` and `clusters common`, on a sample pool.
const herald = path.resolve('dist/herald.js');
const pools = path.resolve('samples/pools');

function runHerald(args: string[], cwd: string): { code: number | null; stdout: string; stderr: string } {
  const result = spawnSync(process.execPath, [herald, ...args], { cwd, encoding: 'utf8', maxBuffer: 64 * 1024 * 1024 });
  return { code: result.status, stdout: result.stdout, stderr: result.stderr };
}

const spec = `corpus wiki = "${pools}/corpus.jsonl"
pool hotpot = "${pools}/hotpot.jsonl"
detector L "cites a real passage it never retrieved" = any c in citations: c in corpus and c not in retrieved
detector F "cites an id that is not in the corpus" = any c in citations: c not in corpus
reward R0 {
  answer    1.0 * token_f1(answer, gold.answers)
  grounding 0.6 * grounding(citations, gold.answers)
}
reward R_L = R0 - 1.2 * L
audit quick {
  reward R0
  compare R_L
  corpus wiki
  pools hotpot
  attack launder targets L using lexical(2)
  attack fake_id targets F
  lattice L = 1.2, F = 1
  bootstrap 50
  clusters common
  robustness first, hash_random, best(R0)
}
`;

function workspace(): string {
  const dir = mkdtempSync(path.join(tmpdir(), 'herald-tables-'));
  writeFileSync(path.join(dir, 'spec.reward'), spec);
  return dir;
}

describe('herald audit --tables', () => {
  const dir = workspace();

  it('reports the robustness entries and the common cluster set in JSON', () => {
    const result = runHerald(['audit', 'spec.reward', '--format', 'json', '--quiet', '--no-cache'], dir);
    assert.equal(result.code, 0, result.stderr);
    const audit = report.parse(JSON.parse(result.stdout)).audits[0]!;
    assert.ok(audit.clusterSet !== undefined && audit.clusterSet.clusters > 0);
    assert.deepEqual(audit.robustness?.map((e) => [e.selection, e.visibility]), [['first', 'visible'], ['hash_random', 'visible'], ['best(R0)', 'oracle']]);
    for (const attack of audit.attacks) for (const r of attack.results) assert.ok(r.estimate.clusters <= audit.clusterSet.clusters);
  });

  it('prints Table 2 and the robustness table as CSV and Markdown', () => {
    const csv = runHerald(['audit', 'spec.reward', '--tables', 'csv', '--quiet', '--no-cache'], dir);
    assert.equal(csv.code, 0, csv.stderr);
    const lines = csv.stdout.split('\r\n');
    assert.equal(lines[0], '# audit quick: attacks × rewards');
    assert.equal(lines[1], 'attack,reward,n,first-visible,fv mean margin,fv label,oracle-worst,ow mean margin,ow label,ow strict');
    assert.ok(lines.includes('# audit quick: pool-selection robustness'));
    // 2 attacks × 2 rewards in Table 2; 3 selections × 2 attacks × 2 rewards in the robustness table.
    assert.equal(lines.filter((l) => /^(launder|fake_id),/.test(l)).length, 4);
    assert.equal(lines.filter((l) => /^(first|hash_random|best\(R0\)),/.test(l)).length, 12);
    const markdown = runHerald(['audit', 'spec.reward', '--tables', 'markdown', '--quiet', '--no-cache'], dir);
    assert.match(markdown.stdout, /^\*\*audit quick: attacks × rewards\*\*\n\n\*n = \d+ question clusters isolated-eligible for every attack/);
    assert.match(markdown.stdout, /\| best\(R0\) \| oracle \| 200\/200 \| launder \| R0 \|/);
  });

  it("prints the cross-model table of an audit over several pools: each pool, then the question-weighted aggregate, as the report has them", () => {
    const paper = path.resolve('samples/paper.reward');
    const json = runHerald(['audit', paper, '--audit', 'replication', '--format', 'json', '--quiet', '--no-cache'], dir);
    assert.equal(json.code, 0, json.stderr);
    const audit = report.parse(JSON.parse(json.stdout)).audits[0]!;
    const csv = runHerald(['audit', paper, '--audit', 'replication', '--tables', 'csv', '--quiet', '--no-cache'], dir);
    assert.equal(csv.code, 0, csv.stderr);
    const sections = csv.stdout.split('\r\n\r\n');
    const table = sections.find((t) => t.startsWith('# audit replication: across pools (models)'))!.split('\r\n').slice(1);
    assert.equal(table[0], 'pool,attack,reward,n,first-visible,fv label,oracle-worst,ow label');
    const pools = [...new Set(audit.perPool.map((p) => p.pool))];
    assert.equal(pools.length, 4);
    // Per attack × reward: one row per pool, then the aggregate.
    assert.equal(table.filter((l) => l !== '').length - 1, audit.attacks.length * (1 + audit.compared.length) * (pools.length + 1));
    const cellOf = (pool: string, reward: string): string[] => table.find((l) => l.startsWith(`${pool},launder,${reward},`))!.split(',');
    for (const reward of ['R0', 'R_L']) {
      const aggregate = audit.aggregate.find((a) => a.attack === 'launder' && a.reward === reward && a.selection === 'oracle_worst')!;
      assert.equal(aggregate.clusters, audit.perPool.filter((p) => p.attack === 'launder' && p.reward === reward && p.selection === 'oracle_worst').reduce((n, p) => n + p.clusters, 0));
      const row = cellOf('aggregate', reward);
      assert.equal(row[3], String(aggregate.clusters));
      assert.equal(row[6], aggregate.upper === null ? `${(aggregate.asr! * 100).toFixed(2)}%` : `0.00% (≤ ${(aggregate.upper * 100).toFixed(2)}%)`);
    }
    const qwen = audit.perPool.find((p) => p.pool === 'qwen3_8b' && p.attack === 'launder' && p.reward === 'R0' && p.selection === 'first_visible')!;
    assert.equal(cellOf('qwen3_8b', 'R0')[4], `${(qwen.asr! * 100).toFixed(2)}%`);
  });

  it('cuts no column into a file (--out) or a pipe: the long reward name is there whole', () => {
    const long = 'R_L_penalising_every_laundered_citation_of_a_passage_the_agent_never_retrieved_in_its_searches';
    writeFileSync(path.join(dir, 'long.reward'), spec.replaceAll('R_L', long));
    const piped = runHerald(['audit', 'long.reward', '--tables', 'text', '--quiet', '--no-cache'], dir);
    assert.equal(piped.code, 0, piped.stderr);
    const written = runHerald(['audit', 'long.reward', '--tables', 'text', '--quiet', '--no-cache', '--out', 'tables.txt'], dir);
    assert.equal(written.code, 0, written.stderr);
    const file = readFileSync(path.join(dir, 'tables.txt'), 'utf8');
    assert.equal(file, piped.stdout);
    assert.ok(!file.includes('…'), file);
    assert.ok(file.split('\n').some((line) => /^ {2}launder +R_L_penalising\S+ +\d/.test(line) && line.includes(long)), file);
    // The report's table likewise.
    const table = runHerald(['audit', 'long.reward', '--quiet', '--no-cache'], dir);
    assert.ok(!table.stdout.includes('…') && table.stdout.includes(long), table.stdout);
  });

  it('refuses --tables with another format', () => {
    const result = runHerald(['audit', 'spec.reward', '--tables', 'csv', '--format', 'json'], dir);
    assert.equal(result.code, 2);
    assert.match(result.stderr, /--tables .* use it with --format table/);
  });
});
