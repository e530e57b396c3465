// Issue 33, item 5, in the editor: a glob that backtracked for tens of seconds per name froze the
// language server (in an untrusted workspace no hover was answered for 80 s). Now the spec's
// diagnostics and a hover come back at once.
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { pathToFileURL } from 'node:url';
import { after, before, describe, it } from 'node:test';
import { DocumentDiagnosticRequest, HoverRequest, type FullDocumentDiagnosticReport } from 'vscode-languageserver-protocol/node';
import { positionIn, pullClientCapabilities, tempFolder, TestClient } from './lsp-test-client.js';

const spec = `pool p = "runs/${'*a'.repeat(6)}*b.jsonl"
reward R { a 1 * has_final }
`;

describe('a glob that a backtracking matcher would freeze on', () => {
  const folder = tempFolder();
  let client: TestClient;
  const uri = pathToFileURL(path.join(folder.dir, 'glob.reward')).href;

  before(async () => {
    fs.mkdirSync(path.join(folder.dir, 'runs'));
    for (let i = 0; i < 4; i++) fs.writeFileSync(path.join(folder.dir, 'runs', `${'a'.repeat(220 + i)}.jsonl`), '{}\n');
    fs.writeFileSync(path.join(folder.dir, 'glob.reward'), spec);
    client = await TestClient.start({
      capabilities: pullClientCapabilities,
      workspace: { workspaceFolders: [{ uri: pathToFileURL(folder.dir).href, name: 'workspace' }], initializationOptions: { workspaceTrusted: false } },
    });
    await client.open(uri, spec);
  });
  after(async () => {
    await client.stop();
    folder.remove();
  });

  it('in an untrusted workspace: the diagnostics and a hover are answered within seconds', async () => {
    const started = performance.now();
    const report = (await client.connection.sendRequest(DocumentDiagnosticRequest.type, { textDocument: { uri } })) as FullDocumentDiagnosticReport;
    assert.deepEqual(report.items.filter((d) => d.code === 'missing-file').map((d) => d.range.start.line), [0]);
    const hover = await client.connection.sendRequest(HoverRequest.type, { textDocument: { uri }, position: positionIn(spec, 'has_final') });
    assert.ok(hover !== null);
    const took = performance.now() - started;
    assert.ok(took < 10_000, `${took.toFixed(0)} ms`);
  });
});
