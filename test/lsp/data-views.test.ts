import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { pathToFileURL } from 'node:url';
import { after, before, describe, it } from 'node:test';
import {
  CodeActionRequest, DidOpenTextDocumentNotification, DocumentDiagnosticRequest, HoverRequest,
  type CodeAction, type Diagnostic, type FullDocumentDiagnosticReport, type MarkupContent,
} from 'vscode-languageserver-protocol/node';
import {
  auditStatusNotification, openWorkedPairCommand, reportRequest, workedPairRequest,
  type AuditStatusParams, type ReportResult, type WorkedPairParams, type WorkedPairResult,
} from '../../server/src/contract/protocol.js';
import type { WorkedPair } from '../../server/src/report/schema.js';
import { positionIn, pullClientCapabilities, pushClientCapabilities, rangeOf, repoRoot, tempFolder, TestClient } from './lsp-test-client.js';

// From a finding to the data, over stdio as an editor drives it: worked pairs rebuilt on request and
// offered from findings and hovers, and the `.jsonl` files a spec links checked and explained.

const pools = path.join(repoRoot, 'samples/pools');
const lines = (file: string): string[] => fs.readFileSync(file, 'utf8').split('\n');

// `extra` mixes valid rows with two the audit skips (lines 3 and 5).
const extraRows = [
  ...lines(path.join(pools, '2wiki.jsonl')).slice(0, 2),
  '{"id": "broken", "question_id": ',
  lines(path.join(pools, '2wiki.jsonl'))[2]!,
  JSON.stringify({ id: 'no-gold', question_id: 'q', question: 'x', steps: [], final: null }),
];

const spec = `corpus wiki = "${pools}/corpus.jsonl"
pool hotpot = "${pools}/hotpot.jsonl"
pool extra = "extra.jsonl"

detector L "cites a real passage it never retrieved" = any c in citations: c in corpus and c not in retrieved
signal support_miss "no citation is gold support" = misses(citations, gold.support)

reward R0 {
  answer    1.0 * token_f1(answer, gold.answers)
  grounding 0.6 * grounding(citations, gold.answers)
}

reward R_L = R0 - 1.2 * L
reward R_full = R_L - 0.8 * support_miss

audit quick {
  reward R0
  compare R_L, R_full
  corpus wiki
  pools hotpot, extra
  attack launder targets L using lexical(4)
  lattice L = 1.2
}
`;

const finished = new Set(['passed', 'failed', 'error', 'cancelled']);

/** The audit's status notifications, and a promise for the next finished one. */
function auditStatuses(client: TestClient): () => Promise<AuditStatusParams> {
  let waiting: ((p: AuditStatusParams) => void) | undefined;
  client.connection.onNotification(auditStatusNotification, (p: AuditStatusParams) => {
    if (finished.has(p.state)) waiting?.(p);
  });
  return () => new Promise((resolve) => {
    waiting = resolve;
  });
}

function openData(client: TestClient, uri: string, text: string): Promise<void> {
  return client.connection.sendNotification(DidOpenTextDocumentNotification.type, { textDocument: { uri, languageId: 'jsonl', version: 1, text } });
}

async function hoverText(client: TestClient, uri: string, position: { line: number; character: number }): Promise<string | undefined> {
  const hover = await client.connection.sendRequest(HoverRequest.type, { textDocument: { uri }, position });
  return hover === null ? undefined : (hover.contents as MarkupContent).value;
}

/** The arguments of every `herald.openWorkedPair` link in a markdown text. */
function pairLinks(markdown: string): WorkedPairParams[] {
  return [...markdown.matchAll(new RegExp(`\\(command:${openWorkedPairCommand.replace('.', '\\.')}\\?([^ )]+)`, 'g'))]
    .map((m) => (JSON.parse(decodeURIComponent(m[1]!)) as WorkedPairParams[])[0]!);
}

const jsonLines = (text: string): string => text.split('\n').filter((l) => !l.startsWith('//')).join('\n');

describe('from a finding to the data (stdio, a client that opens worked pairs)', () => {
  const folder = tempFolder();
  const uri = folder.uri('data.reward');
  const extraUri = folder.uri('extra.jsonl');
  const hotpotUri = pathToFileURL(path.join(pools, 'hotpot.jsonl')).href;
  let client: TestClient;
  let report: ReportResult['report']['audits'][number];
  let specDiagnostics: Diagnostic[];

  const pull = async (target: string): Promise<Diagnostic[]> =>
    ((await client.connection.sendRequest(DocumentDiagnosticRequest.type, { textDocument: { uri: target } })) as FullDocumentDiagnosticReport).items;

  before(async () => {
    fs.writeFileSync(path.join(folder.dir, 'data.reward'), spec);
    fs.writeFileSync(path.join(folder.dir, 'extra.jsonl'), `${extraRows.join('\n')}\n`);
    client = await TestClient.start({ capabilities: pullClientCapabilities, workspace: { initializationOptions: { workspaceTrusted: true, openWorkedPair: true } } });
    const next = auditStatuses(client);
    const done = next();
    await client.open(uri, spec);
    assert.equal((await done).state, 'passed');
    const result = (await client.connection.sendRequest(reportRequest, { uri })) as ReportResult | null;
    report = result!.report.audits[0]!;
    specDiagnostics = await pull(uri);
  });

  after(async () => {
    await client.stop();
    folder.remove();
  });

  const cancellationPair = (): WorkedPair => report.cancellation.find((c) => c.larger === 'R_full' && c.term === 'support_miss')!.example;

  it('links every finding that names rows to them: the cancellation, the attacks that win, the skipped rows', () => {
    const byCode = (code: string) => specDiagnostics.filter((d) => d.code === code);
    const pair = cancellationPair();
    const related = byCode('penalty-cancellation')[0]!.relatedInformation ?? [];
    assert.deepEqual(related.map((r) => [r.location.uri, r.location.range.start.line]), [[hotpotUri, pair.line - 1]]);
    // Both attack-succeeds findings (R0 on the reward line, R_full in compare) name a winning edit.
    assert.equal(byCode('attack-succeeds').length, 2);
    for (const d of byCode('attack-succeeds')) {
      assert.equal(d.relatedInformation?.length, 1, d.message as string);
      assert.match(d.relatedInformation![0]!.message, /^(the launder edit of largest margin under R0|a launder edit that wins under R_full)/);
    }
    const bad = byCode('bad-rows')[0]!;
    assert.deepEqual(bad.relatedInformation?.map((r) => [r.location.uri, r.location.range.start.line]), [[extraUri, 2], [extraUri, 4]]);
  });

  it('offers to open each worked pair side by side, from the finding\'s code actions', async () => {
    const cancellation = specDiagnostics.find((d) => d.code === 'penalty-cancellation')!;
    const actions = (await client.connection.sendRequest(CodeActionRequest.type, {
      textDocument: { uri }, range: cancellation.range, context: { diagnostics: [cancellation] },
    })) as CodeAction[];
    const pair = cancellationPair();
    const open = actions.filter((a) => a.command?.command === openWorkedPairCommand);
    assert.deepEqual(open.map((a) => a.title), [`Show the worked pair ${pair.trajectory}, launder citation ${pair.position} → ${pair.replacement} side by side`]);
    assert.deepEqual(open[0]!.command!.arguments, [{
      uri, audit: 'quick', trajectory: pair.trajectory, pool: 'hotpot', line: pair.line, attack: 'launder', position: pair.position, replacement: pair.replacement,
    }]);
  });

  it('rebuilds a worked pair with the margins the audit reported, term by term', async () => {
    const pairs = [...report.cancellation.map((c) => c.example), ...report.certificate.flatMap((c) => (c.example === null ? [] : [c.example]))];
    for (const pair of pairs) {
      const params: WorkedPairParams = { uri, audit: 'quick', ...pair };
      const answer = (await client.connection.sendRequest(workedPairRequest, params)) as WorkedPairResult;
      assert.equal(answer.kind, 'pair', answer.kind === 'unavailable' ? answer.reason : '');
      if (answer.kind !== 'pair') continue;
      assert.deepEqual(Object.fromEntries(answer.rewards.map((r) => [r.reward, r.margin])), pair.margins);
      const row = lines(path.join(pools, 'hotpot.jsonl'))[pair.line - 1]!;
      assert.deepEqual([answer.file, answer.line], [path.join(pools, 'hotpot.jsonl'), pair.line]);
      assert.deepEqual(JSON.parse(answer.original), JSON.parse(row));
      // The edit changes the citation (and the id in the final text), nothing else.
      const { final: editedFinal, ...editedRest } = JSON.parse(jsonLines(answer.edited)) as { final: { citations: string[]; text: string } };
      const { final: originalFinal, ...originalRest } = JSON.parse(row) as { final: { citations: string[]; text: string } };
      assert.deepEqual(editedRest, originalRest);
      assert.deepEqual(editedFinal.citations, originalFinal.citations.map((c, i) => (i === pair.position ? pair.replacement : c)));
      assert.notEqual(editedFinal.text, originalFinal.text);
      assert.match(answer.edited, new RegExp(`^// HERALD worked pair: trajectory ${pair.trajectory.replace(/[#.]/g, '\\$&')} \\(pool hotpot, \\S*hotpot\\.jsonl:${pair.line}\\)`));
    }
  });

  it('says why a pair cannot be rebuilt', async () => {
    const pair = cancellationPair();
    const ask = (params: Partial<WorkedPairParams>) => client.connection.sendRequest(workedPairRequest, { uri, audit: 'quick', ...pair, ...params }) as Promise<WorkedPairResult>;
    assert.deepEqual(await ask({ audit: 'nope' }), { kind: 'unavailable', reason: 'the spec has no audit nope' });
    assert.deepEqual(await ask({ trajectory: 'no-such-row' }), { kind: 'unavailable', reason: `no valid row of ${path.relative(folder.dir, path.join(pools, 'hotpot.jsonl'))} has the id no-such-row` });
    assert.deepEqual(await ask({ uri: folder.uri('closed.reward') }), { kind: 'unavailable', reason: 'open the spec (saved to a file) to rebuild its worked pairs' });
  });

  it('links the worked pairs a reward\'s hover names', async () => {
    const text = await hoverText(client, uri, rangeOf(spec, 'R_full = ').start);
    const links = pairLinks(text ?? '');
    const pair = cancellationPair();
    assert.ok(links.some((l) => l.trajectory === pair.trajectory && l.line === pair.line && l.uri === uri), text);
    const detector = await hoverText(client, uri, rangeOf(spec, 'L "cites').start);
    assert.match(detector ?? '', /Certificate: .*; that edit: \[/);
  });

  it('checks the rows of a linked data file open in the editor, one diagnostic per skipped row', async () => {
    await openData(client, extraUri, `${extraRows.join('\n')}\n`);
    const diagnostics = await pull(extraUri);
    assert.deepEqual(diagnostics.map((d) => [d.range.start.line, d.code, d.severity]), [[2, 'bad-rows', 1], [4, 'bad-rows', 1]]);
    assert.match(diagnostics[0]!.message as string, /^the audits skip this row: invalid JSON at column \d+: [a-z ]+ \(read as the pool 'extra' of data\.reward\)$/);
    assert.match(diagnostics[1]!.message as string, /^the audits skip this row: missing field 'gold'/);
    assert.equal(diagnostics[1]!.range.end.character, extraRows[4]!.length);
  });

  it('explains a data row on hover: what it holds, or why it is skipped', async () => {
    const good = await hoverText(client, extraUri, { line: 0, character: 3 });
    const first = JSON.parse(extraRows[0]!) as { id: string; question_id: string };
    assert.match(good ?? '', new RegExp(`^\\*\\*trajectory\\*\\* \`${first.id}\` · question \`${first.question_id}\``));
    assert.match(good ?? '', /final answer `[^`]*`, citing `w:\d+`/);
    assert.match(good ?? '', /Line 1, read as the pool `extra` of data\.reward\./);
    assert.match(await hoverText(client, extraUri, { line: 2, character: 0 }) ?? '', /^\*\*skipped row\*\*: the audits leave it out: invalid JSON/);
  });

  it('names the findings of the spec\'s audits on the rows they are about, with a link to the pair', async () => {
    await openData(client, hotpotUri, fs.readFileSync(path.join(pools, 'hotpot.jsonl'), 'utf8'));
    const pair = cancellationPair();
    const text = await hoverText(client, hotpotUri, { line: pair.line - 1, character: 1 }) ?? '';
    // The attack that wins under R_full names it, and so does the cancellation it wins by; one link opens the pair.
    assert.match(text, /Findings that name this row:\n- \*\*attack-succeeds\*\* \(audit `quick`\): a launder edit that wins under R\\_full/);
    assert.match(text, /\n- \*\*penalty-cancellation\*\* \(audit `quick`\): worked pair: R0 \+0\.\d{5} → R\\_L −0\.\d{5} → R\\_full \+0\.\d{5}\n/);
    assert.deepEqual(pairLinks(text), [{ uri, audit: 'quick', trajectory: pair.trajectory, pool: 'hotpot', line: pair.line, attack: 'launder', position: pair.position, replacement: pair.replacement }]);
    // Valid rows of a linked pool have no diagnostics; nothing reads the pool as a spec.
    assert.deepEqual(await pull(hotpotUri), []);
  });

  it('leaves a data file that no open spec links alone', async () => {
    const other = folder.uri('other.jsonl');
    await openData(client, other, 'not json at all\n');
    assert.deepEqual(await pull(other), []);
    assert.equal(await hoverText(client, other, { line: 0, character: 0 }), undefined);
  });
});

describe('data files and worked pairs for other clients (stdio, push diagnostics)', () => {
  const folder = tempFolder();
  const uri = folder.uri('data.reward');
  const extraUri = folder.uri('extra.jsonl');
  let client: TestClient;

  before(async () => {
    const text = spec.replace(/ {2}attack launder.*\n {2}lattice L = 1\.2\n/, '');
    fs.writeFileSync(path.join(folder.dir, 'data.reward'), text);
    fs.writeFileSync(path.join(folder.dir, 'extra.jsonl'), `${extraRows.join('\n')}\n`);
    client = await TestClient.start({ capabilities: pushClientCapabilities });
    await client.open(uri, text);
  });

  after(async () => {
    await client.stop();
    folder.remove();
  });

  it('publishes the skipped rows of a linked data file, and never a spec\'s diagnostics on it', async () => {
    const published = client.diagnostics.next((p) => p.uri === extraUri && p.diagnostics.length > 0);
    await openData(client, extraUri, `${extraRows.join('\n')}\n`);
    const { diagnostics } = await published;
    assert.deepEqual(diagnostics.map((d) => [d.range.start.line, d.code]), [[2, 'bad-rows'], [4, 'bad-rows']]);
  });

  it('offers no link to a command the client does not have', async () => {
    const hover = await client.connection.sendRequest(HoverRequest.type, { textDocument: { uri: extraUri }, position: positionIn(extraRows[0]!, '"id"') });
    assert.doesNotMatch(JSON.stringify(hover), /command:/);
  });
});
