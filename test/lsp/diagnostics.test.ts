import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { after, before, describe, test } from 'node:test';
import {
  CodeActionRequest, DiagnosticSeverity, DiagnosticTag, DocumentDiagnosticRequest, FileChangeType,
  type CodeAction, type Diagnostic, type DocumentDiagnosticReport, type FullDocumentDiagnosticReport,
} from 'vscode-languageserver-protocol/node';
import { pullClientCapabilities, pushClientCapabilities, tempFolder, TestClient } from './lsp-test-client.js';

// A detector whose one use is misspelt: the use is unknown (with a suggestion) and so the detector is unused.
const misspelt = [
  'detector cites_unretrieved "cites a passage it never retrieved" =',
  '  any c in citations: c in corpus and c not in retrieved',
  '',
  'reward R "r" {',
  '  penalty -1.0 * cites_unretreived',
  '}',
  '',
].join('\n');
const fixed = misspelt.replace('cites_unretreived', 'cites_unretrieved');

const summary = (d: Diagnostic) => [d.code, d.range.start.line, d.range.start.character, d.range.end.line, d.range.end.character];

function full(report: DocumentDiagnosticReport): FullDocumentDiagnosticReport {
  assert.equal(report.kind, 'full');
  return report as FullDocumentDiagnosticReport;
}

describe('pull diagnostics (a client that declares textDocument.diagnostic)', () => {
  let client: TestClient;
  const folder = tempFolder();
  before(async () => {
    client = await TestClient.start({ capabilities: pullClientCapabilities });
  });
  after(async () => {
    await client.stop();
    folder.remove();
  });
  const pull = (uri: string, previousResultId?: string) =>
    client.connection.sendRequest(DocumentDiagnosticRequest.type, { textDocument: { uri }, ...(previousResultId === undefined ? {} : { previousResultId }) });

  test('the server offers pull diagnostics and registers for linked files and settings', async () => {
    assert.deepEqual(client.initializeResult?.capabilities.diagnosticProvider, { identifier: 'herald', interFileDependencies: false, workspaceDiagnostics: false });
    await client.registered('workspace/didChangeConfiguration');
    await client.registered('workspace/didChangeWatchedFiles');
  });

  test('an unknown name is reported at its exact range with a suggestion, and the unused detector is tagged', async () => {
    const uri = folder.uri('misspelt.reward');
    await client.open(uri, misspelt);
    const report = full(await pull(uri));
    assert.deepEqual(report.items.map(summary), [
      ['unused-declaration', 0, 9, 0, 26],
      ['unknown-name', 4, 17, 4, 34],
    ]);
    const [unused, unknown] = report.items as [Diagnostic, Diagnostic];
    assert.equal(unknown.severity, DiagnosticSeverity.Error);
    assert.equal(unknown.source, 'herald');
    assert.deepEqual(unknown.data, { suggestion: 'cites_unretrieved' });
    assert.match(String(unknown.message), /did you mean 'cites_unretrieved'/);
    assert.match(unknown.codeDescription?.href ?? '', /^file:\/\/.*\/docs\/diagnostics\.md#unknown-name$/);
    assert.equal(unused.severity, DiagnosticSeverity.Warning);
    assert.deepEqual(unused.tags, [DiagnosticTag.Unnecessary]);
    assert.equal(unknown.tags, undefined);
  });

  test('a repeated pull of an unchanged version answers unchanged; an edit gives a new full report', async () => {
    const uri = folder.uri('edited.reward');
    await client.open(uri, misspelt);
    const first = full(await pull(uri));
    assert.ok(first.resultId !== undefined);
    const again = await pull(uri, first.resultId);
    assert.deepEqual(again, { kind: 'unchanged', resultId: first.resultId });

    await client.replace(uri, fixed, 2);
    const edited = full(await pull(uri, first.resultId));
    assert.notEqual(edited.resultId, first.resultId);
    assert.deepEqual(edited.items, []);
  });

  test('related information points into the same document', async () => {
    const uri = folder.uri('duplicate.reward');
    await client.open(uri, 'signal twice = 1\nsignal twice = 2\nreward R { a 1.0 * twice }\n');
    const report = full(await pull(uri));
    const duplicate = report.items.find((d) => d.code === 'duplicate-name');
    assert.ok(duplicate);
    assert.deepEqual(duplicate.range, { start: { line: 1, character: 7 }, end: { line: 1, character: 12 } });
    assert.deepEqual(duplicate.relatedInformation, [
      { location: { uri, range: { start: { line: 0, character: 7 }, end: { line: 0, character: 12 } } }, message: 'first declared here' },
    ]);
  });

  test('a misspelt link: the quick fixes offer the file a typo away first, and creating an empty file last', async () => {
    fs.mkdirSync(path.join(folder.dir, 'logs'), { recursive: true });
    fs.writeFileSync(path.join(folder.dir, 'logs/hotpot.jsonl'), '');
    const uri = folder.uri('misspelt-link.reward');
    await client.open(uri, 'pool hotpot = "logs/hotpt.jsonl"\n');
    const missing = full(await pull(uri)).items.filter((d) => d.code === 'missing-file');
    assert.equal(missing.length, 1);
    const actions = (await client.connection.sendRequest(CodeActionRequest.type, {
      textDocument: { uri }, range: missing[0]!.range, context: { diagnostics: missing },
    })) as CodeAction[];
    assert.deepEqual(actions.map((a) => a.title), ['Did you mean "logs/hotpot.jsonl"?', 'Pick a file for this link…', 'Create "logs/hotpt.jsonl" (an empty file)']);
    assert.equal(actions[0]!.isPreferred, true);
    assert.deepEqual(actions[0]!.edit?.changes?.[uri], [{ range: missing[0]!.range, newText: '"logs/hotpot.jsonl"' }]);
  });

  test('a linked file created on disk clears missing-file after didChangeWatchedFiles and a refresh', async () => {
    const uri = folder.uri('linked.reward');
    await client.open(uri, 'corpus wiki = "data/corpus.jsonl"\n');
    const missing = full(await pull(uri));
    assert.deepEqual(missing.items.map(summary), [['unused-declaration', 0, 7, 0, 11], ['missing-file', 0, 14, 0, 33]]);

    fs.mkdirSync(path.join(folder.dir, 'data'));
    fs.writeFileSync(path.join(folder.dir, 'data/corpus.jsonl'), '{"id":"p1","title":"t","text":"x"}\n');
    const refreshed = client.refreshes.next();
    await client.fileChanged(folder.uri('data/corpus.jsonl'), FileChangeType.Created);
    await refreshed;
    const found = full(await pull(uri, missing.resultId));
    assert.deepEqual(found.items.map(summary), [['unused-declaration', 0, 7, 0, 11]]);

    fs.rmSync(path.join(folder.dir, 'data'), { recursive: true });
    const refreshedAgain = client.refreshes.next();
    // A deleted folder is reported as one event for the folder, not for each file in it.
    await client.fileChanged(folder.uri('data'), FileChangeType.Deleted);
    await refreshedAgain;
    assert.deepEqual(full(await pull(uri, found.resultId)).items.map(summary), missing.items.map(summary));
  });

  test('herald.unusedDeclarations = false (workspace/configuration) drops unused warnings after the change', async () => {
    const uri = folder.uri('settings.reward');
    await client.open(uri, misspelt);
    assert.deepEqual(full(await pull(uri)).items.map((d) => d.code), ['unused-declaration', 'unknown-name']);
    assert.ok(client.configurationRequests.includes(uri));

    const refreshed = client.refreshes.next();
    await client.changeSettings({ unusedDeclarations: false });
    await refreshed;
    assert.deepEqual(full(await pull(uri)).items.map((d) => d.code), ['unknown-name']);

    const refreshedBack = client.refreshes.next();
    await client.changeSettings({});
    await refreshedBack;
  });

  test('herald.checkLinkedFiles = false skips the linked-file checks', async () => {
    const refreshed = client.refreshes.next();
    await client.changeSettings({ checkLinkedFiles: false });
    await refreshed;
    const uri = folder.uri('unchecked.reward');
    await client.open(uri, 'pool p = "nowhere.jsonl"\n');
    assert.deepEqual(full(await pull(uri)).items.map((d) => d.code), ['unused-declaration']);
    const back = client.refreshes.next();
    await client.changeSettings({});
    await back;
  });

  test('no handler failed', () => assert.deepEqual(client.loggedErrors, []));
});

describe('push diagnostics (a client without the pull capability)', () => {
  let client: TestClient;
  const folder = tempFolder();
  before(async () => {
    client = await TestClient.start({ capabilities: pushClientCapabilities });
  });
  after(async () => {
    await client.stop();
    folder.remove();
  });

  test('the server does not offer pull diagnostics', () => {
    assert.equal(client.initializeResult?.capabilities.diagnosticProvider, undefined);
  });

  test('open publishes, each edit publishes its final state, close clears', async () => {
    const uri = folder.uri('pushed.reward');
    const opened = client.diagnostics.next((p) => p.uri === uri);
    await client.open(uri, misspelt);
    const first = await opened;
    assert.equal(first.version, 1);
    assert.deepEqual(first.diagnostics.map(summary), [['unused-declaration', 0, 9, 0, 26], ['unknown-name', 4, 17, 4, 34]]);

    // Two quick edits: whatever is published in between, the last version is published with its own state.
    const final = client.diagnostics.next((p) => p.uri === uri && p.version === 3);
    await client.replace(uri, `${misspelt}signal extra = nothing_here\n`, 2);
    await client.replace(uri, fixed, 3);
    assert.deepEqual((await final).diagnostics, []);

    const cleared = client.diagnostics.next((p) => p.uri === uri);
    await client.close(uri);
    assert.deepEqual(await cleared, { uri, diagnostics: [] });
  });

  test('an incremental edit is applied to the right place', async () => {
    const uri = folder.uri('incremental.reward');
    const opened = client.diagnostics.next((p) => p.uri === uri);
    await client.open(uri, fixed);
    assert.deepEqual((await opened).diagnostics, []);
    const edited = client.diagnostics.next((p) => p.uri === uri && p.version === 2);
    // Misspell the use again by replacing `trie` with `treie` on line 4.
    await client.edit(uri, { start: { line: 4, character: 27 }, end: { line: 4, character: 31 } }, 'treie', 2);
    assert.deepEqual((await edited).diagnostics.map(summary), [['unused-declaration', 0, 9, 0, 26], ['unknown-name', 4, 17, 4, 35]]);
  });

  test('a linked file created on disk is re-published after didChangeWatchedFiles', async () => {
    const uri = folder.uri('pushed-linked.reward');
    const opened = client.diagnostics.next((p) => p.uri === uri);
    await client.open(uri, 'pool runs = "runs.jsonl"\n');
    assert.deepEqual((await opened).diagnostics.map((d) => d.code), ['unused-declaration', 'missing-file']);

    fs.writeFileSync(path.join(folder.dir, 'runs.jsonl'), '{}\n');
    const republished = client.diagnostics.next((p) => p.uri === uri);
    await client.fileChanged(folder.uri('runs.jsonl'), FileChangeType.Created);
    assert.deepEqual((await republished).diagnostics.map((d) => d.code), ['unused-declaration']);
  });

  test('settings pushed with didChangeConfiguration apply to clients without workspace/configuration', async () => {
    const uri = folder.uri('pushed-settings.reward');
    const opened = client.diagnostics.next((p) => p.uri === uri);
    await client.open(uri, misspelt);
    assert.deepEqual((await opened).diagnostics.map((d) => d.code), ['unused-declaration', 'unknown-name']);
    const republished = client.diagnostics.next((p) => p.uri === uri);
    await client.changeSettings({ unusedDeclarations: false });
    assert.deepEqual((await republished).diagnostics.map((d) => d.code), ['unknown-name']);
    assert.deepEqual(client.configurationRequests, []);
  });

  test('no handler failed', () => assert.deepEqual(client.loggedErrors, []));
});
