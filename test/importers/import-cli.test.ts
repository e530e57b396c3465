// `herald import` end to end (docs/import.md): the counts on stderr, rows the pool loader reads, the
// resolution counts against the sample corpus, and the refusals (an --out that is an input, bad
// options, every record skipped). Runs the built CLI (npm run build first, like test/cli).
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, truncateSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { describe, it } from 'node:test';
import { loadCorpus, loadPool } from '../../server/src/inputs/loaders.js';
import { resolvePool } from '../../server/src/pool/resolve-ids.js';

const herald = path.resolve('dist/herald.js');
const fixtures = path.resolve('test/importers/fixtures');
const corpus = path.resolve('samples/pools/corpus.jsonl');

function runHerald(args: string[], cwd = fixtures): { code: number | null; stdout: string; stderr: string } {
  const result = spawnSync(process.execPath, [herald, 'import', ...args], { cwd, encoding: 'utf8' });
  return { code: result.status, stdout: result.stdout, stderr: result.stderr };
}

describe('herald import', () => {
  const dir = mkdtempSync(path.join(tmpdir(), 'herald-import-'));

  it('imports a verl dump: counts, skipped records by file:line, notes, resolution against the corpus', async () => {
    const out = path.join(dir, 'pool.jsonl');
    const r = runHerald(['--from', 'verl', '--option', 'dialect=search_r1', '--corpus', corpus, 'verl-search-r1.jsonl', '--out', out]);
    assert.equal(r.code, 0, r.stderr);
    const lines = r.stderr.split('\n');
    assert.ok(lines.includes('herald import: verl: 9 records read, 6 imported, 3 skipped, 6 question ids derived, 3 groups recovered'), r.stderr);
    assert.ok(lines.includes("  verl-search-r1.jsonl:6: skipped: no 'output' (the response)"), r.stderr);
    assert.ok(lines.some((l) => l.startsWith('  note: 6 question ids derived')), r.stderr);
    assert.ok(lines.includes('herald import: results against the corpus: 0 logged as ids, 11 resolved (by url 0, by text 10, by title 1), 1 unresolved'), r.stderr);
    assert.ok(lines.some((l) => l.startsWith('  verl-search-r1.jsonl:2: unresolved: 1 result not resolved')), r.stderr);

    // What was written loads with the pool loader and resolves the same way.
    const pool = await loadPool(out, 'imported');
    assert.deepEqual(pool.issues, []);
    assert.equal(pool.items.length, 6);
    const resolved = resolvePool(pool.items, (await loadCorpus(corpus)).corpus);
    assert.deepEqual(resolved.resolution?.counts.results, { logged: 0, url: 0, text: 10, title: 1, unresolved: 1 });
    assert.deepEqual(resolved.rows[0]?.steps.find((s) => s.type === 'search'), { type: 'search', query: 'director Stone Kingdom', results: ['w:1322', 'w:2630', 'w:488'] });
  });

  it('every importer on its fixture: the summary line', () => {
    const cases: [string[], string][] = [
      [['--from', 'skyrl', 'skyrl-global_step_40_evals-hotpotqa.jsonl'], 'skyrl: 4 records read, 3 imported, 1 skipped, 0 question ids derived, 2 groups recovered'],
      [['--from', 'r1_searcher', 'r1-searcher-eval.jsonl'], 'r1_searcher: 3 records read, 2 imported, 1 skipped, 2 question ids derived, no groups recovered'],
      [['--from', 'verl', '--option', 'dialect=research', 'verl-research.jsonl'], 'verl: 2 records read, 2 imported, 0 skipped, 2 question ids derived, 1 group recovered'],
      [['--from', 'verl', '--option', 'dialect=hermes', 'verl-hermes.jsonl'], 'verl: 1 records read, 1 imported, 0 skipped, 1 question ids derived, 1 group recovered'],
    ];
    for (const [args, summary] of cases) {
      const r = runHerald([...args, '--out', '-']);
      assert.equal(r.code, 0, r.stderr);
      assert.ok(r.stderr.split('\n').includes(`herald import: ${summary}`), r.stderr);
      assert.ok(r.stdout.split('\n').filter((l) => l !== '').every((l) => typeof JSON.parse(l) === 'object'));
    }
  });

  it('refuses an --out that is one of the logs or the corpus, and writes nothing', () => {
    const log = path.join(dir, 'dump.jsonl');
    const before = readFileSync(path.join(fixtures, 'verl-research.jsonl'), 'utf8');
    writeFileSync(log, before);
    const r = runHerald(['--from', 'verl', log, '--out', `${dir}/./dump.jsonl`]);
    assert.equal(r.code, 2);
    assert.match(r.stderr, /refusing to write .* it is a log this import reads; nothing was written/u);
    assert.equal(readFileSync(log, 'utf8'), before);
    assert.equal(runHerald(['--from', 'verl', log, '--corpus', corpus, '--out', corpus]).code, 2);
  });

  it('usage errors exit 2: no --from, no --out, an unknown format, dialect or option, KEY without =', () => {
    for (const args of [
      ['verl-research.jsonl', '--out', '-'],
      ['--from', 'verl', 'verl-research.jsonl'],
      ['--from', 'trl_csv', 'verl-research.jsonl', '--out', '-'],
      ['--from', 'verl', '--option', 'dialect=deepresearcher', 'verl-research.jsonl', '--out', '-'],
      ['--from', 'verl', '--option', 'colour=red', 'verl-research.jsonl', '--out', '-'],
      ['--from', 'verl', '--option', 'dialect', 'verl-research.jsonl', '--out', '-'],
      ['--from', 'verl', 'missing.jsonl', '--out', '-'],
    ]) {
      const r = runHerald(args);
      assert.equal(r.code, 2, `${args.join(' ')}: ${r.stderr}`);
      assert.equal(r.stdout, '');
    }
    assert.match(runHerald(['--from', 'verl', '--option', 'dialect=deepresearcher', 'verl-research.jsonl', '--out', '-']).stderr, /unknown dialect 'deepresearcher'; expected one of search_r1, zerosearch, r1_searcher, research, hermes, autorefine, asearcher, mmsearch_r1, webthinker/u);
  });

  it('--roundtrip: every record rendered back unedited and compared; exit 1 naming each record that is not, nothing written without --out', () => {
    const torture = runHerald(['--from', 'verl', 'torture/verl-search-r1.jsonl', '--roundtrip']);
    assert.equal(torture.code, 0, torture.stderr);
    assert.ok(torture.stderr.split('\n').includes('herald import: round trip: 13 of 13 records re-render byte-identical (meta.transcript, meta.observations)'), torture.stderr);
    assert.equal(torture.stdout, '');
    const responses = runHerald(['--from', 'messages', 'messages-responses.jsonl', '--roundtrip']);
    assert.equal(responses.code, 1, responses.stderr);
    const lines = responses.stderr.split('\n');
    assert.ok(lines.includes('herald import: round trip: 0 of 2 records re-render byte-identical (meta.messages)'), responses.stderr);
    assert.ok(lines.includes('  messages-responses.jsonl:1: not rendered: the row does not keep its logged messages (meta.messages)'), responses.stderr);
    // With --out, the pool is written as without --roundtrip.
    const out = path.join(dir, 'roundtrip.jsonl');
    assert.equal(runHerald(['--from', 'verl', 'torture/verl-search-r1.jsonl', '--roundtrip', '--out', out]).code, 0);
    assert.equal(readFileSync(out, 'utf8').split('\n').filter((l) => l !== '').length, 13);
  });

  it('reads its logs as every linked file is read: a folder, a log past the limits (unread), --max-input-mib raising them', () => {
    const out = path.join(dir, 'limited.jsonl');
    const folder = runHerald(['--from', 'verl', '--out', out, dir]);
    assert.equal(folder.code, 2);
    assert.match(folder.stderr, /herald import: cannot read .*: a folder, not a file/);
    // A sparse 200 MiB log: refused by size before it is read; under a raised limit it is read, and has no record to import.
    const big = path.join(dir, 'big-dump.jsonl');
    writeFileSync(big, '');
    truncateSync(big, 200 * 1024 * 1024);
    const refused = runHerald(['--from', 'verl', '--out', out, big]);
    assert.equal(refused.code, 2);
    assert.match(refused.stderr, /herald import: cannot read .*big-dump\.jsonl: 200 MiB, above the 128 MiB limit for one linked file \(raise it with --max-input-mib/);
    const raised = runHerald(['--from', 'verl', '--out', out, big, '--max-input-mib', '256']);
    assert.doesNotMatch(raised.stderr, /above the/);
    assert.equal(raised.code, 1, raised.stderr);
    assert.match(raised.stderr, /every record was skipped; nothing was written/);
    assert.equal(existsSync(out), false);
    const bad = runHerald(['--from', 'verl', '--out', out, big, '--max-input-mib', '64']);
    assert.equal(bad.code, 2);
    assert.match(bad.stderr, /--max-input-mib takes a whole number of MiB from 160/);
  });

  it('every record skipped: exit 1, nothing written', () => {
    const log = path.join(dir, 'bad.jsonl');
    writeFileSync(log, '{"input": "no marker here", "output": ""}\nnot json\n');
    const out = path.join(dir, 'none.jsonl');
    const r = runHerald(['--from', 'verl', log, '--out', out]);
    assert.equal(r.code, 1);
    assert.match(r.stderr, /2 skipped/u);
    assert.match(r.stderr, /every record was skipped; nothing was written/u);
    assert.equal(existsSync(out), false);
  });

  it('130,000 bad lines (260 KB) in each text format: exit 1 with the count and the first 20 reasons, never an internal error', () => {
    const log = path.join(dir, 'bad-130k.jsonl');
    writeFileSync(log, 'x\n'.repeat(130_000));
    for (const format of ['verl', 'skyrl', 'r1_searcher', 'art', 'browsecomp_plus']) {
      const r = runHerald(['--from', format, log, '--out', '-']);
      assert.equal(r.code, 1, `${format}: ${r.stderr.slice(0, 300)}`);
      assert.match(r.stderr, /130000 records read, 0 imported, 130000 skipped/u);
      assert.match(r.stderr, /bad-130k\.jsonl:20: skipped: invalid JSON at column 1/u);
      assert.doesNotMatch(r.stderr, /internal error/u);
    }
  });

  it('--help lists the formats and their options from the registry, each name apart from its summary', () => {
    const r = runHerald(['--help']);
    assert.equal(r.code, 0);
    for (const text of ['formats (--from):', '  verl ', '  skyrl ', '  r1_searcher ', '--option dialect=', '--option question_marker=']) assert.ok(r.stdout.includes(text), text);
    for (const format of ['verl', 'browsecomp_plus', 'messages']) assert.match(r.stdout, new RegExp(`^  ${format}  +\\S`, 'mu'), format);
  });

  it('every record skipped under the wrong --from: names the format the log looks like', () => {
    const r = runHerald(['--from', 'skyrl', 'verl-search-r1.jsonl', '--out', '-']);
    assert.equal(r.code, 1);
    assert.ok(r.stderr.split('\n').includes("  verl-search-r1.jsonl:1: skipped: no 'input_prompt'"), r.stderr);
    assert.ok(r.stderr.split('\n').includes('herald import: every record was skipped; nothing was written. The file looks like verl (try --from verl): it imports 4 of the first 5 records'), r.stderr);
    assert.equal(r.stdout, '');
  });

  it('prints the pool profile, and says when no row cites a passage', () => {
    const plain = runHerald(['--from', 'verl', 'verl-search-r1.jsonl', '--out', '-']);
    assert.equal(plain.code, 0, plain.stderr);
    const lines = plain.stderr.split('\n');
    assert.ok(lines.includes('herald import: profile: 6 rows: 5 with a final (5 with an answer), 0 with citations (0 in all), 5 with searches (6 in all), 0 with results that have ids, 0 with tool calls, 6 with reasoning, 1 with invalid actions, 6 with gold answers, 0 with gold support ids'), plain.stderr);
    assert.ok(lines.includes("  no citations: citation attacks (fake_id, launder) have nothing to edit, and a detector over citations (the paper's L, F) cannot fire"), plain.stderr);
    assert.ok(lines.includes('  no result has an id yet: ids come from the corpus when the pool is loaded (--corpus counts how many resolve)'), plain.stderr);
    assert.ok(lines.some((l) => l.startsWith('  logged fields (meta): ') && l.includes('score 6')), plain.stderr);
    // Against the corpus the results have ids, and the profile counts the rows resolved.
    const resolved = runHerald(['--from', 'verl', '--corpus', corpus, 'verl-search-r1.jsonl', '--out', '-']);
    assert.ok(resolved.stderr.includes(', 5 with searches (6 in all), 5 with results that have ids,'), resolved.stderr);
    assert.ok(!resolved.stderr.includes('no result has an id yet'), resolved.stderr);
  });
});
