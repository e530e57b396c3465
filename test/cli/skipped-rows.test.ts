import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { after, describe, it } from 'node:test';
import { printRunProblems } from '../../server/src/cli/check-command.js';
import { LineIndex } from '../../server/src/problems/line-index.js';
import { maxListedRows } from '../../server/src/problems/limits.js';
import { auditSpec } from '../inputs/workspace.js';

// Every skipped row reaches the terminal as `file:line: reason` (the `$herald-rows` problem matcher's
// lines), a pool's and a candidates file's alike, at most `maxListedRows` of a file, then "… and N more".
const herald = path.resolve('dist/herald.js');
const pools = path.resolve('samples/pools');

/** The `$herald-rows` problem matcher of package.json: what VS Code reads as a data row. */
const rowMatcher = new RegExp((JSON.parse(readFileSync('package.json', 'utf8')) as { contributes: { problemMatchers: { name: string; pattern: { regexp: string } }[] } })
  .contributes.problemMatchers.find((m) => m.name === 'herald-rows')!.pattern.regexp);

const spec = auditSpec(`${pools}/corpus.jsonl`, 'many.jsonl').replace('using lexical(2)', 'using lexical(2), candidates "cands.jsonl"');

describe('herald audit prints skipped rows, bounded per file', () => {
  const dir = mkdtempSync(path.join(tmpdir(), 'herald-skipped-'));
  after(() => rmSync(dir, { recursive: true, force: true }));
  const good = readFileSync(path.join(pools, 'hotpot.jsonl'), 'utf8').split('\n').filter((l) => l !== '').slice(0, 12);
  writeFileSync(path.join(dir, 'spec.reward'), spec);
  writeFileSync(path.join(dir, 'many.jsonl'), `${[...good, ...Array.from({ length: 250 }, () => '{not json')].join('\n')}\n`);
  const trajectory = (JSON.parse(good[0]!) as { id: string }).id;
  writeFileSync(path.join(dir, 'cands.jsonl'), `${[JSON.stringify({ traj_id: trajectory, citation_index: 0, candidates: ['w:1'] }), ...Array.from({ length: 150 }, () => '{"traj_id": 7}')].join('\n')}\n`);
  const run = spawnSync(process.execPath, [herald, 'audit', 'spec.reward', '--no-cache', '--quiet', '--format', 'json', '--out', 'report.json'], { cwd: dir, encoding: 'utf8' });
  const lines = run.stderr.split('\n');

  it("lists a pool's first 100 skipped rows and a candidates file's, each as a problem-matcher line, then how many more", () => {
    assert.ok(run.status === 0 || run.status === 1, run.stderr);
    const many = lines.findIndex((l) => /^spec\.reward:2:1: error bad-rows 250 rows skipped: many\.jsonl:13: /.test(l));
    const cands = lines.findIndex((l) => /^spec\.reward:\d+:\d+: error bad-rows 150 candidate lists skipped: cands\.jsonl:2: /.test(l));
    assert.ok(many >= 0 && cands >= 0, run.stderr.slice(0, 2000));
    // Each finding's rows follow it: the first 100, each a line the problem matcher reads, then the count of the rest.
    const listed = (at: number): string[] => lines.slice(at + 1, at + 1 + maxListedRows);
    assert.deepEqual(listed(many).map((l) => l.match(rowMatcher)?.slice(1, 3)), Array.from({ length: maxListedRows }, (_, k) => ['many.jsonl', String(13 + k)]));
    assert.deepEqual(listed(cands).map((l) => l.match(rowMatcher)?.slice(1, 3)), Array.from({ length: maxListedRows }, (_, k) => ['cands.jsonl', String(2 + k)]));
    assert.match(listed(many)[0]!, /^ {2}many\.jsonl:13: skipped row: invalid JSON/);
    assert.match(listed(cands)[0]!, /^ {2}cands\.jsonl:2: skipped candidate list: /);
    assert.equal(lines[many + maxListedRows + 1], '  … and 150 more');
    assert.equal(lines[cands + maxListedRows + 1], '  … and 50 more');
    assert.doesNotMatch(lines[many + maxListedRows + 1]!, rowMatcher);
  });
});

describe('skipped rows of logs named on the command line', () => {
  it('prints the first 100 of each file, then how many more', () => {
    const printed: string[] = [];
    const issues = [...Array.from({ length: 250 }, (_, k) => ({ file: 'a.jsonl', line: k + 1, reason: 'invalid JSON' })), { file: 'b.jsonl', line: 3, reason: 'no id' }];
    printRunProblems('spec.reward', new LineIndex(''), { problems: [], dataIssues: issues }, { out: () => undefined, err: (l) => printed.push(l) });
    assert.equal(printed.filter((l) => /^a\.jsonl:\d+: /.test(l)).length, maxListedRows);
    assert.deepEqual(printed.slice(maxListedRows), ['b.jsonl:3: skipped row: no id', 'a.jsonl: … and 150 more skipped rows']);
  });
});
