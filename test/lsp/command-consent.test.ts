// Issue 33, item 1: opening a spec never runs its program unless the client says, with the boolean
// `true`, that the workspace is trusted. Neovim and Emacs as the README first configures them send
// no initializationOptions: their workspaces are untrusted.
import assert from 'node:assert/strict';
import * as path from 'node:path';
import { pathToFileURL } from 'node:url';
import { describe, it } from 'node:test';
import { DocumentDiagnosticRequest, type FullDocumentDiagnosticReport } from 'vscode-languageserver-protocol/node';
import { auditStatusNotification, type AuditStatusParams } from '../../server/src/contract/protocol.js';
import { pullClientCapabilities, rangeOf, TestClient } from './lsp-test-client.js';
import { auditSpec, markingCommand, markingRuns, workspace, writeMarkingProgram } from '../inputs/workspace.js';

const spec = auditSpec('data/corpus.jsonl', 'data/hotpot.jsonl', `  attack dense = launder targets L using candidates command ${JSON.stringify(markingCommand)}\n`);

/** Opens the spec in a server started with these initializationOptions; the finished audit status and the diagnostics. */
async function openWith(folder: string, options: unknown): Promise<{ status: AuditStatusParams; report: FullDocumentDiagnosticReport }> {
  const client = await TestClient.start({
    capabilities: pullClientCapabilities,
    workspace: { workspaceFolders: [{ uri: pathToFileURL(folder).href, name: 'ws' }], ...(options === undefined ? {} : { initializationOptions: options }) },
  });
  try {
    const uri = pathToFileURL(path.join(folder, 'spec.reward')).href;
    const done = new Promise<AuditStatusParams>((resolve) => {
      client.connection.onNotification(auditStatusNotification, (p: AuditStatusParams) => {
        if (p.uri === uri && p.state !== 'running') resolve(p);
      });
    });
    await client.open(uri, spec);
    const status = await done;
    const report = (await client.connection.sendRequest(DocumentDiagnosticRequest.type, { textDocument: { uri } })) as FullDocumentDiagnosticReport;
    return { status, report };
  } finally {
    await client.stop();
  }
}

describe('a spec with a candidates command, opened in an editor', () => {
  const ws = workspace();
  writeMarkingProgram(ws.dir);
  ws.write('spec.reward', spec);
  const runs = (): number => markingRuns(ws.dir);

  // undefined: no initializationOptions at all (Neovim's vim.lsp.start, eglot).
  const untrusting: [string, unknown][] = [
    ['no initializationOptions', undefined], ['options without workspaceTrusted', { openWorkedPair: true }],
    ['the string "false"', { workspaceTrusted: 'false' }], ['the string "true"', { workspaceTrusted: 'true' }],
    ['the number 1', { workspaceTrusted: 1 }], ['false', { workspaceTrusted: false }],
  ];
  for (const [name, options] of untrusting) {
    it(`with ${name}, runs nothing and says on the generator how to allow it`, async () => {
      const { report } = await openWith(ws.dir, options);
      assert.equal(runs(), 0, 'the program ran');
      const failed = report.items.filter((d) => d.code === 'audit-failed');
      assert.equal(failed.length, 1, JSON.stringify(report.items));
      assert.deepEqual(failed[0]!.range, rangeOf(spec, 'candidates command "node mark.js"'));
      assert.equal(failed[0]!.message, 'the audit could not run: candidates command "node mark.js" was not run: a spec\'s programs run only with consent; '
        + 'trust the workspace to run it (VS Code: Manage Workspace Trust; another editor: send initializationOptions {"workspaceTrusted": true}, see the README)');
    });
  }

  it('with workspaceTrusted: true (VS Code\'s trusted workspace, or a user who says so), the program runs', async () => {
    const { status } = await openWith(ws.dir, { workspaceTrusted: true });
    assert.equal(runs(), 1, status.message);
  });
});
