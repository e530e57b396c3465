import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import { after, before, describe, it } from 'node:test';
import { CompletionRequest, DidOpenTextDocumentNotification, DocumentDiagnosticRequest, HoverRequest, type FullDocumentDiagnosticReport, type MarkupContent } from 'vscode-languageserver-protocol/node';
import { heapOverride, leastWorkerHeapMiB, stoppedReason, workerHeapMiB } from '../../server/src/lsp/worker-memory.js';
import { LineIndex } from '../../server/src/problems/line-index.js';
import { auditFinished, pullClientCapabilities, repoRoot, TestClient } from './lsp-test-client.js';

const gib = 1024 ** 3;

describe('the heap limit of the server\'s workers', () => {
  it('follows the input limit, from Node\'s default up, and never takes more than half the machine', () => {
    assert.equal(workerHeapMiB(undefined, 32 * gib), leastWorkerHeapMiB, 'the default limits (160 MiB) fit in the least heap');
    assert.equal(workerHeapMiB(1024, 64 * gib), 24 * 1024, 'herald.maxInputMiB 1024: 24 MiB of heap per MiB of input');
    assert.equal(workerHeapMiB(1024, 16 * gib), 8 * 1024, 'half of a 16 GiB machine');
    assert.equal(workerHeapMiB(undefined, 4 * gib), 2048, 'half of a 4 GiB machine, below the least heap');
  });

  it('is set by hand only to a whole positive number of MiB', () => {
    assert.deepEqual(['64', '0', '-5', '1.5', 'lots', '', undefined].map(heapOverride), [64, undefined, undefined, undefined, undefined, undefined, undefined]);
  });

  it('a stopped worker is worded with its limit when it ran out of memory, and with what it was doing', () => {
    const oom = Object.assign(new Error('Worker terminated due to reaching memory limit: JS heap out of memory'), { code: 'ERR_WORKER_OUT_OF_MEMORY' });
    assert.equal(stoppedReason(oom, undefined, 4096, 'analysing a.reward (audit a: scoring attacks)'),
      'the analysis stopped: it ran out of memory (limit 4096 MB) while analysing a.reward (audit a: scoring attacks)');
    assert.equal(stoppedReason(new TypeError('x is not a function\n    at y'), undefined, 4096, 'importing pool p (trl) for the editor'),
      'the analysis stopped: its thread failed (x is not a function) while importing pool p (trl) for the editor');
    assert.equal(stoppedReason(undefined, 7, 4096, 'analysing a.reward'), 'the analysis stopped: its thread exited with code 7 while analysing a.reward');
  });
});

describe('a worker that runs out of memory is an error on the spec, never a dead server (issue 33)', () => {
  let client: TestClient;
  const specFile = `${repoRoot}/samples/paper.reward`;
  const uri = `file://${specFile}`;
  const text = fs.readFileSync(specFile, 'utf8');

  before(async () => {
    // A heap far below what the paper audit needs: its worker dies mid-audit.
    client = await TestClient.start({ capabilities: pullClientCapabilities, env: { HERALD_WORKER_HEAP_MIB: '16' } });
  });

  after(async () => {
    await client.stop();
  });

  it('each audit gets audit-failed with the limit, the status says so, and hovers and completions are answered afterwards', async () => {
    const done = auditFinished(client);
    await client.open(uri, text);
    const status = await done;
    assert.equal(status.state, 'error');
    assert.match(status.message, /^the audit could not run: the analysis stopped: it ran out of memory \(limit 16 MB\) while analysing paper\.reward/);
    const report = (await client.connection.sendRequest(DocumentDiagnosticRequest.type, { textDocument: { uri } })) as FullDocumentDiagnosticReport;
    const failed = report.items.filter((d) => d.code === 'audit-failed');
    const lines = new LineIndex(text);
    assert.deepEqual(failed.map((d) => text.slice(lines.offset(d.range.start), lines.offset(d.range.end))), ['paper', 'replication', 'sensitivity']);
    for (const d of failed) assert.match(typeof d.message === 'string' ? d.message : d.message.value, /^the audit could not run: the analysis stopped: it ran out of memory \(limit 16 MB\) while /);
    const hover = await client.connection.sendRequest(HoverRequest.type, { textDocument: { uri }, position: failed[0]!.range.start });
    assert.match((hover?.contents as MarkupContent).value, /audit/);
    const completion = await client.connection.sendRequest(CompletionRequest.type, { textDocument: { uri }, position: { line: 0, character: 0 } });
    assert.ok(Array.isArray(completion) ? completion.length > 0 : (completion?.items.length ?? 0) > 0);
  });

  it('a data file whose pool\'s import runs out of memory gets one note with the limit, and its hovers answer', async () => {
    const searchR1 = `${repoRoot}/samples/search-r1`;
    const specUri = `file://${searchR1}/search-r1.reward`;
    await client.open(specUri, fs.readFileSync(`${searchR1}/search-r1.reward`, 'utf8'));
    const dataUri = `file://${searchR1}/rollout/1.jsonl`;
    await client.connection.sendNotification(DidOpenTextDocumentNotification.type, { textDocument: { uri: dataUri, languageId: 'jsonl', version: 1, text: fs.readFileSync(`${searchR1}/rollout/1.jsonl`, 'utf8') } });
    for (let ask = 0; ask < 2; ask++) {
      const report = (await client.connection.sendRequest(DocumentDiagnosticRequest.type, { textDocument: { uri: dataUri } })) as FullDocumentDiagnosticReport;
      assert.deepEqual(report.items.map((d) => [d.range.start.line, d.code, d.severity]), [[0, 'bad-rows', 3]]);
      assert.match(String(report.items[0]!.message), /^not checked in the editor: the analysis stopped: it ran out of memory \(limit 16 MB\) while importing pool rollouts \(verl\) for the editor/);
    }
    const hover = await client.connection.sendRequest(HoverRequest.type, { textDocument: { uri: dataUri }, position: { line: 0, character: 1 } });
    assert.match((hover?.contents as MarkupContent).value, /^\*\*not checked in the editor\*\*: the analysis stopped: it ran out of memory/);
  });
});
