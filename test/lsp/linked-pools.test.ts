import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { after, before, describe, it } from 'node:test';
import {
  CompletionRequest, DidOpenTextDocumentNotification, DocumentDiagnosticRequest, HoverRequest,
  type Diagnostic, type FullDocumentDiagnosticReport, type MarkupContent,
} from 'vscode-languageserver-protocol/node';
import {
  openWorkedPairCommand, reportRequest, workedPairRequest,
  type ReportResult, type WorkedPairParams, type WorkedPairResult,
} from '../../server/src/contract/protocol.js';
import type { AuditReport, WorkedPair } from '../../server/src/report/schema.js';
import { auditFinished, pullClientCapabilities, repoRoot, tempFolder, TestClient } from './lsp-test-client.js';

// The editor on pools linked by a glob and pools imported from another framework's log, over stdio:
// a file of such a pool open in the editor gets the diagnostics and hovers of the rows the audit
// reads from it (for an imported log, the importer's skipped records and the rows it made), and a
// worked pair opens from the file its row is in.

const pools = path.join(repoRoot, 'samples/pools');
const rollouts = path.join(repoRoot, 'samples/search-r1/rollout');
const lines = (file: string): string[] => fs.readFileSync(file, 'utf8').split('\n').filter((l) => l !== '');

// glob/b.jsonl repeats a row of glob/a.jsonl (a duplicate across files) and has a broken line.
const wiki = lines(path.join(pools, '2wiki.jsonl'));
const globA = wiki.slice(0, 20);
const globB = [wiki[2]!, '{"id": "broken", ', ...wiki.slice(20, 40)];
// A verl dump of two steps; the second ends with a record that has no prompt.
const dump1 = lines(path.join(rollouts, '1.jsonl')).slice(0, 12);
const dump2 = [...lines(path.join(rollouts, '2.jsonl')).slice(0, 12), JSON.stringify({ output: 'x', gts: 'y' })];

const spec = `corpus wiki = "${pools}/corpus.jsonl"
pool g = "glob/*.jsonl"
pool rollouts = "rollout/*.jsonl" from verl(dialect: search_r1)

detector U "nonempty final answer and no search at all" = has_final and answer != "" and search_calls == 0
detector L "cites a real corpus passage it never retrieved" = any c in citations: c in corpus and c not in retrieved
signal support_miss "no citation is gold support" = misses(citations, gold.support)

reward R0 {
  answer     1.0  * token_f1(answer, gold.answers)
  grounding  0.6  * grounding(citations, gold.answers)
  tool_cost -0.03 * search_calls
}
reward R_L = R0 - 1.2 * L
reward R_full = R_L - 0.8 * support_miss

audit a {
  reward R0
  compare R_L, R_full
  corpus wiki
  pools g
  attack launder targets L using lexical(4)
  attack same_final targets U
  lattice U = 0.5, L = 1.2
}

audit b {
  reward R0
  corpus wiki
  pools rollouts
  attack same_final targets U
  lattice U = 0.5
}
`;

const messageOf = (d: Diagnostic): string => (typeof d.message === 'string' ? d.message : d.message.value);
const text = (rows: readonly string[]): string => `${rows.join('\n')}\n`;
const jsonPart = (document: string): unknown => JSON.parse(document.split('\n').filter((l) => !l.startsWith('//')).join('\n'));

/** The arguments of every `herald.openWorkedPair` link in a markdown text. */
function pairLinks(markdown: string): WorkedPairParams[] {
  return [...markdown.matchAll(new RegExp(`\\(command:${openWorkedPairCommand.replace('.', '\\.')}\\?([^ )]+)`, 'g'))]
    .map((m) => (JSON.parse(decodeURIComponent(m[1]!)) as WorkedPairParams[])[0]!);
}

describe('pools linked by a glob or imported, in the editor (stdio)', () => {
  const folder = tempFolder();
  const uri = folder.uri('spec.reward');
  const file = (name: string): string => path.join(folder.dir, name);
  let client: TestClient;
  let audits: readonly AuditReport[];

  const pull = async (target: string): Promise<Diagnostic[]> =>
    ((await client.connection.sendRequest(DocumentDiagnosticRequest.type, { textDocument: { uri: target } })) as FullDocumentDiagnosticReport).items;
  const openData = (name: string, rows: readonly string[]): Promise<void> =>
    client.connection.sendNotification(DidOpenTextDocumentNotification.type, { textDocument: { uri: folder.uri(name), languageId: 'jsonl', version: 1, text: text(rows) } });
  const hover = async (name: string, line: number): Promise<string> => {
    const answer = await client.connection.sendRequest(HoverRequest.type, { textDocument: { uri: folder.uri(name) }, position: { line, character: 1 } });
    return answer === null ? '' : (answer.contents as MarkupContent).value;
  };
  const ask = (pair: WorkedPair, audit: string): Promise<WorkedPairResult> =>
    client.connection.sendRequest(workedPairRequest, { uri, audit, trajectory: pair.trajectory, pool: pair.pool, line: pair.line, attack: pair.attack, position: pair.position, replacement: pair.replacement }) as Promise<WorkedPairResult>;
  const examples = (audit: AuditReport): WorkedPair[] => [...audit.cancellation.map((c) => c.example), ...audit.certificate.flatMap((c) => (c.example === null ? [] : [c.example]))];

  before(async () => {
    fs.mkdirSync(file('glob'));
    fs.mkdirSync(file('rollout'));
    fs.writeFileSync(file('spec.reward'), spec);
    fs.writeFileSync(file('glob/a.jsonl'), text(globA));
    fs.writeFileSync(file('glob/b.jsonl'), text(globB));
    fs.writeFileSync(file('rollout/1.jsonl'), text(dump1));
    fs.writeFileSync(file('rollout/2.jsonl'), text(dump2));
    fs.writeFileSync(file('other.jsonl'), 'not json\n');
    client = await TestClient.start({ capabilities: pullClientCapabilities, workspace: { initializationOptions: { workspaceTrusted: true, openWorkedPair: true } } });
    const done = auditFinished(client);
    await client.open(uri, spec);
    assert.equal((await done).state, 'passed');
    const result = (await client.connection.sendRequest(reportRequest, { uri })) as ReportResult | null;
    audits = result!.report.audits;
    assert.deepEqual(audits.map((a) => a.name), ['a', 'b']);
  });

  after(async () => {
    await client.stop();
    folder.remove();
  });

  it('a file a glob matches: the rows the audit skips from it, a duplicate of an earlier file\'s row included', async () => {
    await openData('glob/b.jsonl', globB);
    const diagnostics = await pull(folder.uri('glob/b.jsonl'));
    assert.deepEqual(diagnostics.map((d) => [d.range.start.line, d.code, d.severity]), [[0, 'bad-rows', 1], [1, 'bad-rows', 1]]);
    const id = (JSON.parse(globB[0]!) as { id: string }).id;
    assert.equal(messageOf(diagnostics[0]!), `the audits skip this row: duplicate id '${id}' (first on glob/a.jsonl line 3) (read as the pool 'g' of spec.reward)`);
    assert.match(messageOf(diagnostics[1]!), /^the audits skip this row: invalid JSON at column \d+/);
    // The same rows the audit reported skipped, on the same lines.
    const reported = audits[0]!.pools.find((p) => p.name === 'g')!.issues.filter((i) => i.file === 'glob/b.jsonl');
    assert.deepEqual(diagnostics.map((d) => [d.range.start.line + 1, messageOf(d).replace(/^the audits skip this row: | \(read as .*\)$/g, '')]), reported.map((i) => [i.line, i.reason]));
    await openData('glob/a.jsonl', globA);
    assert.deepEqual(await pull(folder.uri('glob/a.jsonl')), []);
    assert.match(await hover('glob/a.jsonl', 0), /^\*\*trajectory\*\* `[^`]+` · question/);
    assert.match(await hover('glob/a.jsonl', 0), /Line 1, read as the pool `g` of spec\.reward\./);
  });

  it('a file of an imported pool: the records its importer skips, and the rows it made on hover', async () => {
    await openData('rollout/2.jsonl', dump2);
    const diagnostics = await pull(folder.uri('rollout/2.jsonl'));
    assert.deepEqual(diagnostics.map((d) => [d.range.start.line, d.code, d.severity, d.range.end.character]), [[12, 'bad-rows', 1, dump2[12]!.length]]);
    assert.equal(messageOf(diagnostics[0]!), "the audits skip this record: no 'input' (the prompt) (read as the pool 'rollouts' of spec.reward, imported by 'verl' from the file as saved)");
    const reported = audits[1]!.pools.find((p) => p.name === 'rollouts')!.issues;
    assert.deepEqual(reported.map((i) => [i.file, i.line]), [['rollout/2.jsonl', 13]]);
    const row = await hover('rollout/2.jsonl', 0);
    // verl logs no ids: the row is the first sample of the first group recovered in step 2, its question id derived.
    assert.match(row, /^\*\*trajectory\*\* `2\/0#0` · question `q-[0-9a-f]{16}` · sample `0`, group `2\/0`\n\nQuestion: /);
    assert.match(row, /final answer `[^`]*`, citing nothing · \d+ searches, 0 invalid steps, \d+ reasoning steps\n/);
    assert.match(row, /Line 1, read as the pool `rollouts` of spec\.reward, imported by `verl` from the file as saved\./);
    assert.match(await hover('rollout/2.jsonl', 12), /^\*\*skipped record\*\*: the audits leave it out: no 'input' \(the prompt\)/);
    await openData('rollout/1.jsonl', dump1);
    assert.deepEqual(await pull(folder.uri('rollout/1.jsonl')), []);
  });

  it('a file of a pool that cannot be imported at all: said once, on its first line', async () => {
    fs.mkdirSync(file('bad'));
    fs.writeFileSync(file('bad/x.jsonl'), text(dump1.slice(0, 2)));
    const badSpec = `corpus wiki = "${pools}/corpus.jsonl"\npool bad = "bad/*.jsonl" from verl(dialect: nope)\n`;
    fs.writeFileSync(file('bad.reward'), badSpec);
    await client.open(folder.uri('bad.reward'), badSpec);
    await openData('bad/x.jsonl', dump1.slice(0, 2));
    const diagnostics = await pull(folder.uri('bad/x.jsonl'));
    assert.deepEqual(diagnostics.map((d) => [d.range.start.line, d.code]), [[0, 'bad-rows']]);
    assert.match(messageOf(diagnostics[0]!), /^the audits read none of this file: \S*bad\/x\.jsonl: cannot import as verl: option dialect: unknown dialect 'nope'; expected one of search_r1, /);
    assert.match(await hover('bad/x.jsonl', 0), /^\*\*not read\*\*: /);
    assert.equal(await hover('bad/x.jsonl', 1), '');
  });

  it('a file of an imported pool too large to import on the server\'s thread: one note, not an import', async () => {
    fs.mkdirSync(file('big'));
    // 17 MiB of the same record (the editor imports 16 MiB at most); the audit would read it as usual.
    const record = dump1[0]!;
    const copies = Math.ceil((17 * 1024 * 1024) / (record.length + 1));
    fs.writeFileSync(file('big/x.jsonl'), `${record}\n`.repeat(copies));
    const bigSpec = `corpus wiki = "${pools}/corpus.jsonl"\npool big = "big/*.jsonl" from verl(dialect: search_r1)\n`;
    fs.writeFileSync(file('big.reward'), bigSpec);
    await client.open(folder.uri('big.reward'), bigSpec);
    await openData('big/x.jsonl', [record, record]);
    const diagnostics = await pull(folder.uri('big/x.jsonl'));
    assert.deepEqual(diagnostics.map((d) => [d.range.start.line, d.code, d.severity]), [[0, 'bad-rows', 3]]);
    assert.match(messageOf(diagnostics[0]!), /^not checked in the editor: the pool's files are together 17(\.0)? MiB, more than the 16 MiB the editor imports itself; the audit reads them/);
    assert.match(await hover('big/x.jsonl', 0), /^\*\*not checked in the editor\*\*: /);
    assert.equal(await hover('big/x.jsonl', 1), '');
  });

  it('a data file no pool of an open spec reads is left alone', async () => {
    await openData('other.jsonl', ['not json']);
    assert.deepEqual(await pull(folder.uri('other.jsonl')), []);
    assert.equal(await hover('other.jsonl', 0), '');
  });

  it('opens a worked pair of a glob pool from its own file, with the margins the audit reported', async () => {
    const pairs = examples(audits[0]!);
    assert.deepEqual(new Set(pairs.map((p) => p.file)), new Set(['glob/a.jsonl', 'glob/b.jsonl']));
    for (const pair of pairs) {
      const answer = await ask(pair, 'a');
      assert.equal(answer.kind, 'pair', answer.kind === 'unavailable' ? answer.reason : '');
      if (answer.kind !== 'pair') continue;
      assert.deepEqual([answer.file, answer.line], [file(pair.file!), pair.line]);
      assert.deepEqual(Object.fromEntries(answer.rewards.map((r) => [r.reward, r.margin])), pair.margins);
      assert.deepEqual(JSON.parse(answer.original), JSON.parse(lines(file(pair.file!))[pair.line - 1]!));
      assert.ok(answer.edited.startsWith(`// HERALD worked pair: trajectory ${pair.trajectory} (pool g, ${pair.file}:${pair.line})`), answer.edited.slice(0, 200));
    }
  });

  it('links a pair from the row of a glob\'s file that a finding names', async () => {
    const pair = audits[0]!.certificate.find((c) => c.example?.file === 'glob/b.jsonl')!.example!;
    const links = pairLinks(await hover('glob/b.jsonl', pair.line - 1));
    assert.deepEqual(links.map((l) => [l.trajectory, l.pool, l.line, l.attack]), [[pair.trajectory, 'g', pair.line, pair.attack]]);
  });

  it('opens a worked pair of an imported pool: the row the importer made, the source at the record\'s file:line', async () => {
    const pairs = examples(audits[1]!);
    assert.ok(pairs.length > 0);
    for (const pair of pairs) {
      const answer = await ask(pair, 'b');
      assert.equal(answer.kind, 'pair', answer.kind === 'unavailable' ? answer.reason : '');
      if (answer.kind !== 'pair') continue;
      const [, step] = /^(\d+)\//.exec(pair.trajectory) ?? [];
      assert.deepEqual([answer.file, answer.line], [file(`rollout/${step}.jsonl`), pair.line]);
      assert.deepEqual(Object.fromEntries(answer.rewards.map((r) => [r.reward, r.margin])), pair.margins);
      const said = `// The row the verl importer made from the record at rollout/${step}.jsonl:${pair.line} (the log has no pool row of its own), as the audit read it: ids resolved against the corpus.`;
      assert.ok(answer.original.startsWith(`${said}\n{`), answer.original.slice(0, 300));
      assert.ok(answer.edited.includes(`\n${said}\n`), answer.edited.slice(0, 600));
      const original = jsonPart(answer.original) as { id: string; steps: { type: string; results?: { id?: string; resolvedBy?: string }[] }[]; meta: { step: string } };
      const edited = jsonPart(answer.edited) as typeof original;
      assert.equal(original.id, pair.trajectory);
      // Search-R1 logs passages without ids: each result carries the id the audit resolved it to.
      const searches = original.steps.filter((s) => s.type === 'search');
      assert.ok(searches.length > 0 && searches.every((s) => s.results!.every((r) => r.id !== undefined && r.resolvedBy === 'text')), JSON.stringify(searches[0]));
      // The same-final edit: the searches gone, and the response written back without them (their
      // calls and <information> blocks, docs/import.md "Rendering"); every other step and field kept.
      const logged = (original.meta as { transcript?: string }).transcript ?? '';
      const written = (edited.meta as { transcript?: string }).transcript ?? '';
      assert.ok(logged.includes('<information>') && !written.includes('<information>'), written);
      assert.deepEqual(edited, { ...original, steps: original.steps.filter((s) => s.type !== 'search'), meta: { ...original.meta, transcript: written, observations: [] } });
      // Both documents show the response again line by line, so the diff shows the lines the edit took out.
      assert.ok(answer.original.includes('\n// meta.transcript, line by line:\n// '), answer.original.slice(-400));
      assert.ok(answer.edited.endsWith(`${written.split('\n').map((l) => `// ${l}`.trimEnd()).join('\n')}\n`), answer.edited.slice(-400));
    }
  });

  it('links a pair from the record of an imported log that a finding names', async () => {
    const pair = examples(audits[1]!)[0]!;
    const [, step] = /^(\d+)\//.exec(pair.trajectory) ?? [];
    await openData(`rollout/${step}.jsonl`, step === '1' ? dump1 : dump2);
    const text = await hover(`rollout/${step}.jsonl`, pair.line - 1);
    assert.match(text, /Findings that name this row:\n- \*\*attack-succeeds\*\* \(audit `b`\)/);
    assert.ok(pairLinks(text).some((l) => l.trajectory === pair.trajectory && l.pool === 'rollouts' && l.attack === pair.attack), text);
  });

  it('says so when no row of a glob or an imported pool has the id', async () => {
    const pair = examples(audits[1]!)[0]!;
    assert.deepEqual(await ask({ ...pair, trajectory: 'nope' }, 'b'), { kind: 'unavailable', reason: 'no valid row of rollout/*.jsonl has the id nope' });
    assert.deepEqual(await ask({ ...examples(audits[0]!)[0]!, trajectory: 'nope' }, 'a'), { kind: 'unavailable', reason: 'no valid row of glob/*.jsonl has the id nope' });
  });
});

describe('an imported pool is imported off the server thread (issue 33)', () => {
  const folder = tempFolder();
  let client: TestClient;

  before(async () => {
    client = await TestClient.start({ capabilities: pullClientCapabilities });
  });

  after(async () => {
    await client.stop();
    folder.remove();
  });

  it('while a data file\'s 15 MiB log is imported, completions on a spec are answered at once', async () => {
    fs.mkdirSync(path.join(folder.dir, 'big'));
    // 15 MiB of distinct verl records (the editor imports up to 16 MiB): seconds of importing.
    const records = lines(path.join(rollouts, '1.jsonl'));
    const log: string[] = [];
    for (let size = 0, i = 0; size < 15 * 1024 * 1024; i++) {
      const record = JSON.parse(records[i % records.length]!) as { input: string };
      const line = JSON.stringify({ ...record, input: `${record.input} #${i}` });
      log.push(line);
      size += line.length + 1;
    }
    fs.writeFileSync(path.join(folder.dir, 'big/x.jsonl'), text(log));
    const bigSpec = `corpus wiki = "${pools}/corpus.jsonl"\npool big = "big/*.jsonl" from verl(dialect: search_r1)\n`;
    fs.writeFileSync(path.join(folder.dir, 'big.reward'), bigSpec);
    await client.open(folder.uri('big.reward'), bigSpec);
    await client.open('untitled:other', 'signal s = has_final and \n');
    await client.connection.sendNotification(DidOpenTextDocumentNotification.type, { textDocument: { uri: folder.uri('big/x.jsonl'), languageId: 'jsonl', version: 1, text: text(log.slice(0, 2)) } });

    let imported = false;
    const pulled = client.connection.sendRequest(DocumentDiagnosticRequest.type, { textDocument: { uri: folder.uri('big/x.jsonl') } }).finally(() => {
      imported = true;
    });
    const latencies: number[] = [];
    while (!imported) {
      const asked = Date.now();
      await client.connection.sendRequest(CompletionRequest.type, { textDocument: { uri: 'untitled:other' }, position: { line: 0, character: 25 } });
      latencies.push(Date.now() - asked);
    }
    assert.deepEqual(((await pulled) as FullDocumentDiagnosticReport).items, [], 'the records are read as the audit reads them');
    assert.ok(latencies.length >= 5, `${latencies.length} completions answered during the import`);
    assert.ok(Math.max(...latencies) < 1000, `completion latencies during the import: at most ${Math.max(...latencies)} ms`);
  });
});
