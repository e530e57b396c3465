// Issue 15 §2: a pool that links a glob of files or a foreign log (`from verl(...)`): the glob's
// files in sorted order under the trust rule, the log imported through the registry (the code
// `herald import` runs), its skipped records as the pool's skipped rows, and one import per
// unchanged dump.
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { describe, it } from 'node:test';
import type { ImportFile, RawOptions, RowSink } from '../../server/src/importers/importer.js';
import { registered } from '../../server/src/importers/registry.js';
import { verlImporter } from '../../server/src/importers/verl-importer.js';
import { globFiles, isGlobLink } from '../../server/src/inputs/glob-files.js';
import { InputCache } from '../../server/src/inputs/input-cache.js';
import { IssueLog, loadInputs, type NamedFile } from '../../server/src/inputs/load-inputs.js';
import { probeFile } from '../../server/src/inputs/file-probe.js';
import { specInputs } from '../../server/src/inputs/spec-inputs.js';
import { WorkspaceTrust } from '../../server/src/inputs/trust.js';
import { parse } from '../../server/src/syntax/parse.js';
import { secret, workspace } from './workspace.js';
import { v2Corpus, v2Rows } from '../helpers/v2-pool.js';

/** One verl dump line (Search-R1 tags) over two passages of the sample corpus, by title. */
function verlLine(question: string, answer: string, step: number): string {
  return JSON.stringify({
    input: `<|im_start|>user\nAnswer the question. Question: ${question}\n<|im_end|>`,
    output: `<think>look it up</think><search>${question}</search><information>Doc 1(Title: Stone Kingdom) a film.\nDoc 2(Title: Lupo) a director.</information><answer>${answer}</answer>`,
    gts: { target: [answer] }, score: 1, step,
  });
}

const row = (id: string): string => fs.readFileSync('samples/pools/hotpot.jsonl', 'utf8').split('\n').find((l) => l.includes(`"id":"${id}"`))!;

describe('glob links', () => {
  const ws = workspace();
  const trusted = WorkspaceTrust.everything;

  it('are links with *, ? or {a,b}; brackets are not glob syntax', () => {
    for (const link of ['dumps/*.jsonl', 'd/**/x.jsonl', 'run?.jsonl', 'run-{a,b}.jsonl']) assert.ok(isGlobLink(link), link);
    for (const link of ['pool.jsonl', 'run[1].jsonl', 'a{b}.jsonl']) assert.ok(!isGlobLink(link), link);
  });

  it('list the matched files in sorted order, nested ones with **, hidden ones only when named', () => {
    for (const name of ['g/b.jsonl', 'g/a.jsonl', 'g/sub/c.jsonl', 'g/.hidden.jsonl', 'g/notes.txt', 'g/10.jsonl', 'g/2.jsonl']) ws.write(name, '{}\n');
    const names = (glob: string): string[] => {
      const listed = globFiles(path.join(ws.dir, glob), trusted);
      assert.ok(listed.ok);
      return listed.files.map((f) => path.relative(ws.dir, f).split(path.sep).join('/'));
    };
    assert.deepEqual(names('g/*.jsonl'), ['g/10.jsonl', 'g/2.jsonl', 'g/a.jsonl', 'g/b.jsonl']);
    assert.deepEqual(names('g/**/*.jsonl'), ['g/10.jsonl', 'g/2.jsonl', 'g/a.jsonl', 'g/b.jsonl', 'g/sub/c.jsonl']);
    assert.deepEqual(names('g/{a,b}.jsonl'), ['g/a.jsonl', 'g/b.jsonl']);
    assert.deepEqual(names('g/?.jsonl'), ['g/2.jsonl', 'g/a.jsonl', 'g/b.jsonl']);
    assert.deepEqual(names('g/.*.jsonl'), ['g/.hidden.jsonl']);
    assert.deepEqual(names('nowhere/*.jsonl'), []);
    assert.equal(probeFile(path.join(ws.dir, 'g/*.jsonl')), 'ok');
    assert.equal(probeFile(path.join(ws.dir, 'g/*.parquet')), 'missing');
  });

  it('in an untrusted workspace, never list a linked file or folder that leads outside', () => {
    ws.write('t/inside.jsonl', '{}\n');
    ws.link('t/out.jsonl', path.join(ws.outside, 'hotpot.jsonl'));
    ws.link('t/folder', ws.outside);
    const untrusted = new WorkspaceTrust(false, [ws.dir]);
    const listed = globFiles(path.join(ws.dir, 't/**/*.jsonl'), untrusted);
    assert.ok(listed.ok);
    assert.deepEqual(listed.files, [path.join(ws.dir, 't/inside.jsonl')]);
    // Trusted, the linked file is read as linked; a linked folder is never walked into.
    const all = globFiles(path.join(ws.dir, 't/**/*.jsonl'), trusted);
    assert.ok(all.ok);
    assert.deepEqual(all.files, [path.join(ws.dir, 't/inside.jsonl'), path.join(ws.dir, 't/out.jsonl')]);
    assert.deepEqual(globFiles(path.join(ws.outside, '*.jsonl'), untrusted), { ok: true, files: [] });
  });

  it('load a native pool from every file in order; an id taken by an earlier file is a skipped row', async () => {
    ws.write('n/b.jsonl', `${row('hotpot-0001#1')}\n${row('hotpot-0001#0')}\n`);
    ws.write('n/a.jsonl', `${row('hotpot-0001#0')}\n`);
    const issues = new IssueLog();
    const pool: NamedFile = { name: 'runs', file: path.join(ws.dir, 'n/*.jsonl'), glob: true };
    const load = await loadInputs(ws.dir, { corpus: { name: 'wiki', file: path.join(ws.dir, 'data/corpus.jsonl') }, pools: [pool] }, { cache: new InputCache(), trust: trusted, issues });
    assert.ok(load.ok);
    const [loaded] = load.inputs.pools;
    assert.equal(loaded!.file, 'n/*.jsonl');
    assert.deepEqual(loaded!.rows.map((r) => [r.id, path.relative(ws.dir, r.source.file), r.source.line]), [['hotpot-0001#0', 'n/a.jsonl', 1], ['hotpot-0001#1', 'n/b.jsonl', 1]]);
    assert.deepEqual(loaded!.issues, [{ file: 'n/b.jsonl', line: 2, reason: "duplicate id 'hotpot-0001#0' (first on n/a.jsonl line 1)" }]);
    assert.deepEqual(load.files.slice(1), [path.join(ws.dir, 'n/a.jsonl'), path.join(ws.dir, 'n/b.jsonl')]);
  });

  it("list a glob's skipped rows file by file, those its corpus skips among them, then by line", async () => {
    ws.write('v-corpus.jsonl', `${v2Corpus.map((p) => JSON.stringify(p)).join('\n')}\n`);
    // v/a.jsonl line 3 is skipped when its citation marker does not resolve; v/b.jsonl line 1 is not JSON.
    ws.write('v/a.jsonl', `${v2Rows.slice(0, 3).map((r) => JSON.stringify(r)).join('\n')}\n`);
    ws.write('v/b.jsonl', `{not json\n${JSON.stringify({ ...v2Rows[4], id: 'b5' })}\n`);
    const pool: NamedFile = { name: 'runs', file: path.join(ws.dir, 'v/*.jsonl'), glob: true };
    const load = await loadInputs(ws.dir, { corpus: { name: 'c', file: path.join(ws.dir, 'v-corpus.jsonl') }, pools: [pool] }, { cache: new InputCache(), trust: trusted, issues: new IssueLog() });
    assert.ok(load.ok);
    assert.deepEqual(load.inputs.pools[0]!.issues.map((i) => `${i.file}:${i.line}`), ['v/a.jsonl:3', 'v/b.jsonl:1']);
  });

  it('record the declaration each file is read for: every file of a glob is its pool\'s', async () => {
    ws.write('o/1.jsonl', `${row('hotpot-0001#0')}\n`);
    ws.write('o/2.jsonl', `${row('hotpot-0001#1')}\n`);
    const issues = new IssueLog();
    const pool: NamedFile = { name: 'runs', file: path.join(ws.dir, 'o/*.jsonl'), glob: true };
    const corpusFile = path.join(ws.dir, 'data/corpus.jsonl');
    const load = await loadInputs(ws.dir, { corpus: { name: 'wiki', file: corpusFile }, pools: [pool], candidates: [{ link: 'c.jsonl', file: path.join(ws.dir, 'data/hotpot.jsonl') }] }, { cache: new InputCache(), trust: trusted, issues });
    assert.ok(load.ok);
    assert.deepEqual([...issues.owners], [
      [corpusFile, { kind: 'corpus', name: 'wiki' }],
      [path.join(ws.dir, 'o/1.jsonl'), { kind: 'pool', name: 'runs' }],
      [path.join(ws.dir, 'o/2.jsonl'), { kind: 'pool', name: 'runs' }],
      [path.join(ws.dir, 'data/hotpot.jsonl'), { kind: 'candidates', link: 'c.jsonl' }],
    ]);
  });

  it('fail the load at the glob when it matches nothing', async () => {
    const issues = new IssueLog();
    const pool: NamedFile = { name: 'runs', file: path.join(ws.dir, 'none/*.jsonl'), glob: true };
    const load = await loadInputs(ws.dir, { corpus: { name: 'wiki', file: path.join(ws.dir, 'data/corpus.jsonl') }, pools: [pool] }, { cache: new InputCache(), trust: trusted, issues });
    assert.equal(load.ok, false);
    assert.deepEqual(issues.issues, [{ file: pool.file, line: 0, reason: `${pool.file}: cannot read: no file matches this glob` }]);
  });
});

describe('pools imported from a foreign log', () => {
  const ws = workspace();
  const trusted = WorkspaceTrust.everything;
  const corpus = (dir: string): NamedFile => ({ name: 'wiki', file: path.join(dir, 'data/corpus.jsonl') });

  it('are listed by specInputs with their glob and importer', () => {
    const spec = parse('pool runs = "dumps/*.jsonl" from verl(dialect: search_r1, question_marker: "Q:")\npool one = "x.jsonl"\n').spec;
    const [runs, one] = specInputs(spec, path.join(ws.dir, 'a.reward'));
    assert.deepEqual(runs, { kind: 'pool', name: 'runs', link: (spec.decls[0] as { path: unknown }).path, path: path.join(ws.dir, 'dumps/*.jsonl'), glob: true, importer: { format: 'verl', options: { dialect: 'search_r1', question_marker: 'Q:' } } });
    assert.equal(one!.glob, undefined);
    assert.equal(one!.importer, undefined);
  });

  it('load through the registry: rows parsed as pool rows at file:line, skipped records as skipped rows, counts and notes on the pool', async () => {
    ws.write('dumps/2.jsonl', `${verlLine('Where was Lupo born?', 'Rome', 2)}\n`);
    ws.write('dumps/1.jsonl', `${verlLine('Who directed Stone Kingdom?', 'Lupo', 1)}\n{not json\n${verlLine('Who directed Stone Kingdom?', 'Rao', 1)}\n`);
    const issues = new IssueLog();
    const pool: NamedFile = { name: 'runs', file: path.join(ws.dir, 'dumps/*.jsonl'), glob: true, importer: { format: 'verl', options: { dialect: 'search_r1' } } };
    const load = await loadInputs(ws.dir, { corpus: corpus(ws.dir), pools: [pool] }, { cache: new InputCache(), trust: trusted, issues });
    assert.ok(load.ok);
    const [loaded] = load.inputs.pools;
    assert.deepEqual(loaded!.rows.map((r) => [path.relative(ws.dir, r.source.file), r.source.line, r.source.pool, r.final?.answer]), [
      ['dumps/1.jsonl', 1, 'runs', 'Lupo'], ['dumps/1.jsonl', 3, 'runs', 'Rao'], ['dumps/2.jsonl', 1, 'runs', 'Rome'],
    ]);
    assert.equal(loaded!.issues.length, 1);
    assert.deepEqual([loaded!.issues[0]!.file, loaded!.issues[0]!.line], ['dumps/1.jsonl', 2]);
    assert.equal(loaded!.imported?.format, 'verl');
    assert.deepEqual([loaded!.imported!.counts.read, loaded!.imported!.counts.imported, loaded!.imported!.counts.skipped], [4, 3, 1]);
    assert.ok(loaded!.imported!.notes.length > 0);
    // The skipped record is in the log the CLI and the editor show, with the absolute file.
    assert.deepEqual(issues.issues.map((i) => [i.file, i.line]), [[path.join(ws.dir, 'dumps/1.jsonl'), 2]]);
  });

  it('are imported once while no file changes; a changed file, a new match or other options import again', async () => {
    let runs = 0;
    const counting = registered({ ...verlImporter, run: (files: readonly ImportFile[], options: Parameters<typeof verlImporter.run>[1], emit: RowSink) => { runs += 1; return verlImporter.run(files, options, emit); } });
    const cache = new InputCache();
    ws.write('c/1.jsonl', `${verlLine('Who directed Stone Kingdom?', 'Lupo', 1)}\n`);
    const files = (): string[] => { const g = globFiles(path.join(ws.dir, 'c/*.jsonl'), trusted); assert.ok(g.ok); return [...g.files]; };
    const importOnce = (options: RawOptions = {}): Promise<unknown> => cache.importedPool(path.join(ws.dir, 'c/*.jsonl'), { files: files(), name: 'runs', specDir: ws.dir }, counting, { format: 'verl', options }, trusted);
    const first = await importOnce();
    assert.equal(await importOnce(), first);
    assert.equal(runs, 1);
    ws.write('c/2.jsonl', `${verlLine('Where was Lupo born?', 'Rome', 2)}\n`);
    await importOnce();
    assert.equal(runs, 2);
    await importOnce({ dialect: 'hermes' });
    assert.equal(runs, 3);
    // Each set of options keeps its own import.
    await importOnce();
    assert.equal(runs, 3);
    fs.appendFileSync(path.join(ws.dir, 'c/1.jsonl'), `${verlLine('Who directed Stone Kingdom?', 'Rao', 1)}\n`);
    await importOnce();
    assert.equal(runs, 4);
  });

  it('a second audit load of an unchanged dump is a cache hit (the same loaded rows)', async () => {
    ws.write('h/1.jsonl', `${verlLine('Who directed Stone Kingdom?', 'Lupo', 1)}\n`);
    const cache = new InputCache();
    const pool: NamedFile = { name: 'runs', file: path.join(ws.dir, 'h/1.jsonl'), importer: { format: 'verl', options: {} } };
    const once = async (): Promise<unknown> => {
      const load = await loadInputs(ws.dir, { corpus: corpus(ws.dir), pools: [pool] }, { cache, trust: trusted, issues: new IssueLog() });
      assert.ok(load.ok);
      return load.inputs.pools[0]!.imported;
    };
    assert.equal(await once(), await once());
  });

  it('in an untrusted workspace, a glob never imports a linked file outside it', async () => {
    ws.write('u/in.jsonl', `${verlLine('Who directed Stone Kingdom?', 'Lupo', 1)}\n`);
    fs.writeFileSync(path.join(ws.outside, 'dump.jsonl'), `${verlLine(`Who knows ${secret}?`, secret, 1)}\n`);
    ws.link('u/out.jsonl', path.join(ws.outside, 'dump.jsonl'));
    const trust = new WorkspaceTrust(false, [ws.dir]);
    const issues = new IssueLog();
    const pool: NamedFile = { name: 'runs', file: path.join(ws.dir, 'u/*.jsonl'), glob: true, importer: { format: 'verl', options: {} } };
    const load = await loadInputs(ws.dir, { corpus: corpus(ws.dir), pools: [pool] }, { cache: new InputCache(), trust, issues });
    assert.ok(load.ok);
    assert.equal(load.inputs.pools[0]!.rows.length, 1);
    assert.ok(!JSON.stringify(load.inputs).includes(secret));
    assert.ok(!JSON.stringify(issues.issues).includes(secret));
  });
});
