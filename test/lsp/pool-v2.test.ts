import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { DidOpenTextDocumentNotification, DocumentDiagnosticRequest, type Diagnostic, type FullDocumentDiagnosticReport } from 'vscode-languageserver-protocol/node';
import { workedPairRequest, type WorkedPairResult } from '../../server/src/contract/protocol.js';
import { v2Corpus, v2Resolution, v2Rows, v2Skipped, v2Spec } from '../helpers/v2-pool.js';
import { jsonl } from '../pool/temp-files.js';
import { auditFinished, pullClientCapabilities, tempFolder, TestClient } from './lsp-test-client.js';

// A pool in format v2 open in the editor, over stdio: its rows read as the audit reads them (ids
// resolved against the spec's corpus, declared logged fields), and a worked pair rebuilt from a row
// that cites by marker.

describe('a v2 pool in the editor (stdio)', () => {
  const folder = tempFolder();
  const uri = folder.uri('spec.reward');
  const poolUri = folder.uri('v2.jsonl');
  let client: TestClient;
  let specDiagnostics: Diagnostic[];

  const pull = async (target: string): Promise<Diagnostic[]> =>
    ((await client.connection.sendRequest(DocumentDiagnosticRequest.type, { textDocument: { uri: target } })) as FullDocumentDiagnosticReport).items;

  before(async () => {
    const spec = v2Spec();
    fs.writeFileSync(path.join(folder.dir, 'spec.reward'), spec);
    fs.writeFileSync(path.join(folder.dir, 'corpus.jsonl'), jsonl(v2Corpus));
    fs.writeFileSync(path.join(folder.dir, 'v2.jsonl'), jsonl(v2Rows));
    client = await TestClient.start({ capabilities: pullClientCapabilities, workspace: { initializationOptions: { workspaceTrusted: true, openWorkedPair: true } } });
    const done = auditFinished(client);
    await client.open(uri, spec);
    assert.equal((await done).state, 'passed');
    specDiagnostics = await pull(uri);
  });

  after(async () => {
    await client.stop();
    folder.remove();
  });

  it('the spec: unresolved-ids on the pool\'s link, related to the row', () => {
    const found = specDiagnostics.filter((d) => d.code === 'unresolved-ids');
    assert.deepEqual(found.map((d) => [d.range.start.line, d.range.start.character, d.severity]), [[1, 10, 2]]);
    assert.deepEqual(found[0]!.relatedInformation?.map((r) => [r.location.uri, r.location.range.start.line, r.message]), [[poolUri, 1, v2Resolution.notes[0]!.reason]]);
  });

  it('the pool document: the rows skipped for an unresolved citation and a missing logged field, and the unresolved result, each on its line', async () => {
    await client.connection.sendNotification(DidOpenTextDocumentNotification.type, { textDocument: { uri: poolUri, languageId: 'jsonl', version: 1, text: jsonl(v2Rows) } });
    const diagnostics = await pull(poolUri);
    assert.deepEqual(diagnostics.map((d) => [d.range.start.line, d.code, d.severity]), [[1, 'unresolved-ids', 2], [2, 'bad-rows', 1], [3, 'bad-rows', 1]]);
    assert.deepEqual(diagnostics.slice(1).map((d) => d.message), v2Skipped.map((s) => `the audits skip this row: ${s.reason} (read as the pool 'v2' of spec.reward)`));
    assert.equal(diagnostics[0]!.message, `${v2Resolution.notes[0]!.reason} (read as the pool 'v2' of spec.reward)`);
  });

  it('rebuilds the worked pair of a row that cites by marker, its citation resolved through the rank', async () => {
    const answer = (await client.connection.sendRequest(workedPairRequest, {
      uri, audit: 'a', trajectory: 't1', pool: 'v2', line: 1, attack: 'launder', position: 0, replacement: 'w:4',
    })) as WorkedPairResult;
    assert.equal(answer.kind, 'pair', answer.kind === 'unavailable' ? answer.reason : '');
    if (answer.kind !== 'pair') return;
    assert.equal(answer.edit, 'launder: citation 0 w:1 → w:4 in final.citations (final.text is kept: w:1 is cited more than once or not written there)');
    assert.deepEqual(answer.rewards.find((r) => r.reward === 'R_L')?.margin, -0.5);
  });

  it('says why the pair of a row the audit skips cannot be rebuilt', async () => {
    const answer = (await client.connection.sendRequest(workedPairRequest, {
      uri, audit: 'a', trajectory: 't3', pool: 'v2', line: 3, attack: 'launder', position: 0, replacement: 'w:4',
    })) as WorkedPairResult;
    assert.deepEqual(answer, { kind: 'unavailable', reason: `the audits skip line 3 of v2.jsonl: ${v2Skipped[0]!.reason}` });
  });
});
