import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { DocumentDiagnosticRequest, HoverRequest, type FullDocumentDiagnosticReport, type MarkupContent } from 'vscode-languageserver-protocol/node';
import { pullClientCapabilities, TestClient } from './lsp-test-client.js';

describe('transports', () => {
  test('over Node IPC (how VS Code starts the server) it checks and answers like over stdio', async () => {
    const client = await TestClient.start({ capabilities: pullClientCapabilities, transport: 'node-ipc' });
    const uri = 'untitled:ipc';
    await client.open(uri, 'signal s = has_final and nope\n');
    const report = (await client.connection.sendRequest(DocumentDiagnosticRequest.type, { textDocument: { uri } })) as FullDocumentDiagnosticReport;
    assert.deepEqual(report.items.map((d) => d.code), ['unused-declaration', 'unknown-name']);
    const hover = await client.connection.sendRequest(HoverRequest.type, { textDocument: { uri }, position: { line: 0, character: 14 } });
    assert.ok((hover?.contents as MarkupContent).value.startsWith('field `has_final`: boolean, visible'));
    await client.stop();
  });
});
