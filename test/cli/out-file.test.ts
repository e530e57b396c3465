import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { copyFileSync, existsSync, linkSync, lstatSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, readlinkSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { describe, it } from 'node:test';
import { fitsTerminal, writeOutput } from '../../server/src/cli/output-file.js';

// `--out` never writes over the spec or a file the run reads (issue 13, item 14): however the path
// is spelled (`./`, `..`, a symbolic link to the file or to its folder, a hard link, a dangling link
// to the baseline), `herald audit`, `signal` and `compare` exit 2, say why, and write nothing.
const herald = path.resolve('dist/herald.js');
const pools = path.resolve('samples/pools');

function runHerald(args: string[], cwd: string): { code: number | null; stdout: string; stderr: string } {
  const result = spawnSync(process.execPath, [herald, ...args], { cwd, encoding: 'utf8', maxBuffer: 64 * 1024 * 1024 });
  return { code: result.status, stdout: result.stdout, stderr: result.stderr };
}

/** Every entry under `dir`: file contents, link targets, folders; to prove a refused run changed nothing. */
function snapshot(dir: string, prefix = ''): Record<string, string> {
  const entries: Record<string, string> = {};
  for (const name of readdirSync(dir).sort()) {
    const file = path.join(dir, name);
    const key = `${prefix}${name}`;
    const stat = lstatSync(file);
    if (stat.isSymbolicLink()) entries[key] = `-> ${readlinkSync(file)}`;
    else if (stat.isDirectory()) Object.assign(entries, { [key]: 'dir' }, snapshot(file, `${key}/`));
    else entries[key] = readFileSync(file, 'utf8');
  }
  return entries;
}

const auditSpec = `corpus wiki = "corpus.jsonl"
pool hotpot = "data/hotpot.jsonl"
detector L "cites a real passage it never retrieved" = any c in citations: c in corpus and c not in retrieved
reward R0 {
  answer 1.0 * token_f1(answer, gold.answers)
}
reward R_L = R0 - 1.2 * L
audit quick {
  reward R0
  compare R_L
  corpus wiki
  pools hotpot
  attack launder targets L using lexical(2)
  attack dense = launder targets L using candidates "cands.jsonl"
  lattice L = 1.2
}
`;

/** A folder with the spec, its corpus, a 40-row pool under data/, a candidates file and links of every kind. */
function auditWorkspace(): string {
  const dir = mkdtempSync(path.join(tmpdir(), 'herald-out-'));
  writeFileSync(path.join(dir, 'spec.reward'), auditSpec);
  copyFileSync(path.join(pools, 'corpus.jsonl'), path.join(dir, 'corpus.jsonl'));
  mkdirSync(path.join(dir, 'data'));
  writeFileSync(path.join(dir, 'data/hotpot.jsonl'), `${readFileSync(path.join(pools, 'hotpot.jsonl'), 'utf8').split('\n').slice(0, 40).join('\n')}\n`);
  writeFileSync(path.join(dir, 'cands.jsonl'), `${JSON.stringify({ traj_id: 'hotpot-0001#0', citation_index: 0, candidates: ['w:1157'] })}\n`);
  symlinkSync('data/hotpot.jsonl', path.join(dir, 'pool-link.jsonl'));
  symlinkSync('data', path.join(dir, 'alias'));
  linkSync(path.join(dir, 'corpus.jsonl'), path.join(dir, 'corpus-hard.jsonl'));
  symlinkSync('spec.reward.baseline.json', path.join(dir, 'dangling.json'));
  return dir;
}

describe('--out never overwrites what the run reads', () => {
  const refusals: [out: string, what: string][] = [
    ['data/hotpot.jsonl', "the pool 'hotpot' that spec.reward reads"],
    ['./data/../data/hotpot.jsonl', "the pool 'hotpot' that spec.reward reads"],
    ['pool-link.jsonl', "the pool 'hotpot' that spec.reward reads"],
    ['alias/hotpot.jsonl', "the pool 'hotpot' that spec.reward reads"],
    ['corpus.jsonl', "the corpus 'wiki' that spec.reward reads"],
    ['corpus-hard.jsonl', "the corpus 'wiki' that spec.reward reads"],
    ['cands.jsonl', 'a candidates file that spec.reward reads'],
    ['./spec.reward', 'the spec itself'],
    ['spec.reward.baseline.json', 'the baseline of spec.reward'],
    ['dangling.json', 'the baseline of spec.reward'],
  ];

  it('herald audit: exit 2, a one-line reason, and not a byte written, however the file is named', () => {
    const dir = auditWorkspace();
    const before = snapshot(dir);
    refusals.forEach(([out, what], i) => {
      const format = ['table', 'json', 'sarif', 'html'][i % 4]!;
      const result = runHerald(['audit', 'spec.reward', '--out', out, '--format', format, '--no-cache', '--update-baseline'], dir);
      assert.equal(result.code, 2, `${out}: ${result.stderr}`);
      assert.equal(result.stderr, `herald audit: refusing to write the report to ${out}: it is ${what}; nothing was written\n`);
      assert.equal(result.stdout, '');
      assert.deepEqual(snapshot(dir), before, `${out}: nothing changed`);
    });
    assert.ok(!existsSync(path.join(dir, 'spec.reward.baseline.json')), 'not even the baseline that --update-baseline would write');
  });

  it('herald audit: an absolute path and a spec named from another folder are resolved the same way', () => {
    const dir = auditWorkspace();
    const before = snapshot(dir);
    const result = runHerald(['audit', path.join(dir, 'spec.reward'), '--out', path.join(dir, 'alias', '..', 'pool-link.jsonl'), '--no-cache'], tmpdir());
    assert.equal(result.code, 2, result.stderr);
    assert.match(result.stderr, /refusing to write the report to .*pool-link\.jsonl: it is the pool 'hotpot' that .*spec\.reward reads; nothing was written/);
    assert.deepEqual(snapshot(dir), before);
  });

  it('a pool the spec links through a symbolic link is protected under its real name too', () => {
    const dir = auditWorkspace();
    writeFileSync(path.join(dir, 'spec.reward'), auditSpec.replace('"data/hotpot.jsonl"', '"pool-link.jsonl"'));
    const before = snapshot(dir);
    const result = runHerald(['audit', 'spec.reward', '--out', 'data/hotpot.jsonl', '--no-cache'], dir);
    assert.equal(result.code, 2, result.stderr);
    assert.match(result.stderr, /it is the pool 'hotpot' that spec\.reward reads/);
    assert.deepEqual(snapshot(dir), before);
  });

  it('every file a pool\'s glob matches is protected, imported or not', () => {
    const dir = auditWorkspace();
    writeFileSync(path.join(dir, 'spec.reward'), auditSpec.replace('pool hotpot = "data/hotpot.jsonl"', 'pool hotpot = "data/*.jsonl"\npool runs = "dumps/*.jsonl" from verl'));
    mkdirSync(path.join(dir, 'dumps'));
    writeFileSync(path.join(dir, 'dumps/7.jsonl'), '{}\n');
    const before = snapshot(dir);
    for (const [out, what] of [['data/hotpot.jsonl', "the pool 'hotpot'"], ['dumps/7.jsonl', "the pool 'runs'"]] as const) {
      const result = runHerald(['audit', 'spec.reward', '--out', out, '--no-cache'], dir);
      assert.equal(result.code, 2, result.stderr);
      assert.equal(result.stderr, `herald audit: refusing to write the report to ${out}: it is ${what} that spec.reward reads; nothing was written\n`);
    }
    assert.deepEqual(snapshot(dir), before);
  });

  it('any other file is written as before', () => {
    const dir = auditWorkspace();
    const result = runHerald(['audit', 'spec.reward', '--out', 'alias/report.json', '--format', 'json', '--no-cache'], dir);
    assert.ok(result.code === 0 || result.code === 1, result.stderr);
    assert.match(result.stderr, /^herald: wrote alias\/report\.json$/m);
    assert.equal((JSON.parse(readFileSync(path.join(dir, 'data/report.json'), 'utf8')) as { spec: string }).spec, 'spec.reward');
  });

  it('a report that cannot be written is exit 2 with the reason, not an internal error', () => {
    const dir = auditWorkspace();
    const result = runHerald(['audit', 'spec.reward', '--out', 'data', '--format', 'json', '--no-cache'], dir);
    assert.equal(result.code, 2, result.stderr);
    assert.equal(result.stderr, 'herald audit: refusing to write the report to data: a folder, not a file; nothing was written\n');
    const missing = runHerald(['audit', 'spec.reward', '--out', 'no-such-folder/report.json', '--format', 'json', '--no-cache', '--quiet'], dir);
    assert.equal(missing.code, 2, missing.stderr);
    assert.match(missing.stderr, /^herald: cannot write no-such-folder\/report\.json: ENOENT.*; nothing was written$/m);
  });
});

/** samples/training.reward with the pools it reads, in a folder of its own. */
function trainingWorkspace(): string {
  const dir = mkdtempSync(path.join(tmpdir(), 'herald-out-'));
  copyFileSync(path.resolve('samples/training.reward'), path.join(dir, 'training.reward'));
  mkdirSync(path.join(dir, 'pools'));
  for (const file of ['corpus.jsonl', 'train-R_L.jsonl', 'eval-R0.jsonl', 'eval-R_L.jsonl']) copyFileSync(path.join(pools, file), path.join(dir, 'pools', file));
  copyFileSync(path.join(pools, 'train-R_L.jsonl'), path.join(dir, 'other-log.jsonl'));
  symlinkSync('pools/eval-R_L.jsonl', path.join(dir, 'treatment-link.jsonl'));
  return dir;
}

describe('--out of herald signal and herald compare', () => {
  const cases: [string[], RegExp][] = [
    [['signal', 'training.reward', '--out', 'pools/train-R_L.jsonl'], /^herald signal: refusing to write the report to pools\/train-R_L\.jsonl: it is the pool 'train_RL' that training\.reward reads; nothing was written$/m],
    [['signal', 'training.reward', '--out', './training.reward', '--format', 'json'], /^herald signal: refusing .*: it is the spec itself; nothing was written$/m],
    [['signal', 'training.reward', '--log', 'other-log.jsonl', '--out', './other-log.jsonl'], /^herald signal: refusing .*: it is a training log named by --log; nothing was written$/m],
    [['compare', 'training.reward', '--out', 'pools/../pools/eval-R0.jsonl'], /^herald compare: refusing .*: it is the pool 'eval_R0' that training\.reward reads; nothing was written$/m],
    [['compare', 'training.reward', '--out', 'pools/corpus.jsonl', '--format', 'html'], /^herald compare: refusing .*: it is the corpus 'wiki' that training\.reward reads; nothing was written$/m],
    [['compare', 'training.reward', '--base', 'other-log.jsonl', '--treatment', 'treatment-link.jsonl', '--out', 'pools/eval-R_L.jsonl'], /^herald compare: refusing .*: it is (the pool 'eval_RL' that training\.reward reads|an evaluation log named by --treatment); nothing was written$/m],
  ];

  it('exit 2 before the run, and the logs, corpus and spec stay as they were', () => {
    const dir = trainingWorkspace();
    const before = snapshot(dir);
    for (const [args, reason] of cases) {
      const result = runHerald(args, dir);
      assert.equal(result.code, 2, `${args.join(' ')}: ${result.stderr}`);
      assert.match(result.stderr, reason);
      assert.equal(result.stderr.split('\n').length, 2, 'one line');
      assert.deepEqual(snapshot(dir), before, `${args.join(' ')}: nothing changed`);
    }
  });
});

describe('writeOutput', () => {
  it('writes a report given in pieces, in order, to a file or to stdout, as one string would be written', () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'herald-pieces-'));
    const file = path.join(dir, 'pool.jsonl');
    writeFileSync(file, 'an older, longer pool that the new one replaces entirely\n'.repeat(10));
    const errors: string[] = [];
    const written: string[] = [];
    const io = { out: () => undefined, err: (text: string) => errors.push(text), write: (text: string) => written.push(text) };
    function* pieces(): Generator<string> {
      for (let i = 0; i < 3; i++) yield `{"row":${i}}\n`;
    }
    assert.equal(writeOutput({ kind: 'file', file, real: file, reads: [] }, pieces(), io), true);
    assert.equal(readFileSync(file, 'utf8'), '{"row":0}\n{"row":1}\n{"row":2}\n');
    assert.deepEqual(errors, [`herald: wrote ${file}`]);
    assert.equal(writeOutput({ kind: 'stdout' }, pieces(), io), true);
    assert.equal(written.join(''), '{"row":0}\n{"row":1}\n{"row":2}\n');
  });
});

describe('fitsTerminal', () => {
  it('cuts text tables to the width only on their way to a terminal: never into a file or a pipe', () => {
    const io = (terminal: boolean | undefined) => ({ out: () => undefined, err: () => undefined, ...(terminal === undefined ? {} : { terminal }) });
    assert.equal(fitsTerminal({ kind: 'stdout' }, io(true)), true);
    assert.equal(fitsTerminal({ kind: 'stdout' }, io(false)), false);
    assert.equal(fitsTerminal({ kind: 'stdout' }, io(undefined)), false);
    assert.equal(fitsTerminal({ kind: 'file', file: 'a.txt', real: '/w/a.txt', reads: [] }, io(true)), false);
  });
});
