import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { pathToFileURL } from 'node:url';
import { DidSaveTextDocumentNotification, DocumentDiagnosticRequest, FileChangeType, HoverRequest, type FullDocumentDiagnosticReport } from 'vscode-languageserver-protocol/node';
import {
  auditStatusNotification, reportRequest, runAuditRequest, trainingSignalStatusNotification, type AuditStatusParams, type TrainingSignalStatusParams,
} from '../../server/src/contract/protocol.js';
import { auditAndTrainingSpec } from '../helpers/audit-and-training-spec.js';
import { pullClientCapabilities, rangeOf, repoRoot, tempFolder, NotificationWaiter, TestClient } from './lsp-test-client.js';

const pools = path.join(repoRoot, 'samples/pools');

// One spec with an audit and a training block: one run in the worker analyses both.
const spec = auditAndTrainingSpec();

const finishedAudit = new Set(['passed', 'failed', 'error', 'cancelled']);

describe('one analysis service for audits and training signals (stdio)', { timeout: 120_000 }, () => {
  const folder = tempFolder();
  const uri = folder.uri('both.reward');
  let client: TestClient;
  const audits: AuditStatusParams[] = [];
  const trainings: TrainingSignalStatusParams[] = [];
  const progress: string[] = [];
  const waiter = new NotificationWaiter();
  const until = (done: () => boolean): Promise<void> => waiter.until(done);
  const finishedAudits = (): AuditStatusParams[] => audits.filter((s) => finishedAudit.has(s.state));
  const pull = async (): Promise<FullDocumentDiagnosticReport> =>
    (await client.connection.sendRequest(DocumentDiagnosticRequest.type, { textDocument: { uri } })) as FullDocumentDiagnosticReport;
  const save = (): Promise<void> => client.connection.sendNotification(DidSaveTextDocumentNotification.type, { textDocument: { uri } });

  before(async () => {
    fs.writeFileSync(path.join(folder.dir, 'both.reward'), spec);
    client = await TestClient.start({ capabilities: { ...pullClientCapabilities, window: { workDoneProgress: true } } });
    client.connection.onNotification(auditStatusNotification, (p) => {
      audits.push(p);
      waiter.notify();
    });
    client.connection.onNotification(trainingSignalStatusNotification, (p) => {
      trainings.push(p);
      waiter.notify();
    });
    client.connection.onNotification('$/progress', (p: { value: { kind: string } }) => {
      progress.push(p.value.kind);
      waiter.notify();
    });
  });

  after(async () => {
    await client.stop();
    folder.remove();
  });

  it('runs both on open with one progress, and shows the findings, hovers and report of both', async () => {
    await client.open(uri, spec);
    await until(() => finishedAudits().length >= 1 && trainings.length >= 1);
    assert.equal(finishedAudits()[0]?.state, 'passed', finishedAudits()[0]?.message);
    assert.equal(trainings[0]?.state, 'done', trainings[0]?.message);
    assert.match(trainings[0]!.message, /^L reaches the optimizer in \d+ of 128 groups$/);
    assert.deepEqual(progress.filter((k) => k === 'begin' || k === 'end'), ['begin', 'end']);

    const codes = (await pull()).items.map((d) => d.code);
    assert.ok(codes.includes('sparse-training-signal'), JSON.stringify(codes));
    const hover = (await client.connection.sendRequest(HoverRequest.type, { textDocument: { uri }, position: rangeOf(spec, 'L "cites').start }))?.contents as { value: string };
    assert.match(hover.value, /\*\*audit `quick`\*\*/);
    assert.match(hover.value, /\*\*training signal `exposure`\*\*/);

    const result = await client.connection.sendRequest(reportRequest, { uri });
    assert.deepEqual(result?.report.audits.map((a) => a.name), ['quick']);
    assert.deepEqual(result?.report.signals?.map((s) => s.name), ['exposure']);
    assert.equal(result?.version, 1);
  });

  it('an edit makes the running analyses stale: only the run after it reports', async () => {
    const [auditsBefore, trainingsBefore] = [finishedAudits().length, trainings.length];
    await save();
    await client.replace(uri, `${spec}\n`, 2);
    await save();
    await until(() => trainings.length > trainingsBefore && finishedAudits().length > auditsBefore);
    // A round trip: a stale run still answering would have reported by now.
    await client.connection.sendRequest(reportRequest, { uri });
    assert.equal(trainings.length, trainingsBefore + 1);
    const after = finishedAudits().slice(auditsBefore);
    assert.ok(after.every((s, i) => (i === after.length - 1 ? s.state === 'passed' : s.state === 'cancelled')), JSON.stringify(after));
    assert.equal((await client.connection.sendRequest(reportRequest, { uri }))?.version, 2);
  });

  it('fifty saves in a row report one audit and one training result', async () => {
    const [auditsBefore, trainingsBefore] = [finishedAudits().length, trainings.length];
    for (let i = 0; i < 50; i++) await save();
    await until(() => trainings.length > trainingsBefore && finishedAudits().length > auditsBefore);
    await client.connection.sendRequest(reportRequest, { uri });
    assert.deepEqual(finishedAudits().slice(auditsBefore).map((s) => s.state), ['passed']);
    assert.deepEqual(trainings.slice(trainingsBefore).map((s) => s.state), ['done']);
  });

  it('closing the spec cancels its running analyses and forgets their results', async () => {
    // Changed data: the worker reloads the pools and prepares the audit's edits again, a run long enough to close the spec during it.
    await client.fileChanged(pathToFileURL(path.join(pools, 'hotpot.jsonl')).href, FileChangeType.Changed);
    const [auditsBefore, trainingsBefore, progressBefore] = [finishedAudits().length, trainings.length, progress.length];
    await save();
    await until(() => progress.slice(progressBefore).includes('begin'));
    await client.close(uri);
    // The run's progress ends once the worker answered for every part.
    await until(() => progress.slice(progressBefore).includes('end'));
    await client.connection.sendRequest(reportRequest, { uri });
    assert.equal(finishedAudits().length, auditsBefore);
    assert.equal(trainings.length, trainingsBefore);
    assert.equal(await client.connection.sendRequest(reportRequest, { uri }), null);
  });
});

describe('herald.audit.run decides when the analyses run (stdio)', { timeout: 120_000 }, () => {
  const folder = tempFolder();

  after(() => folder.remove());

  it('manual: the Run Audit request runs every analysis and answers with the report of all of them', async () => {
    const uri = folder.uri('manual.reward');
    fs.writeFileSync(path.join(folder.dir, 'manual.reward'), spec);
    const client = await TestClient.start({ capabilities: pullClientCapabilities, settings: { audit: { run: 'manual' } } });
    await client.open(uri, spec);
    const result = await client.connection.sendRequest(runAuditRequest, { uri });
    assert.deepEqual(result?.report.audits.map((a) => a.name), ['quick']);
    assert.deepEqual(result?.report.signals?.map((s) => s.name), ['exposure']);
    await client.stop();
  });

  it('onType: a typing pause re-runs the audits only; training logs are read on open and save', async () => {
    const uri = folder.uri('typed.reward');
    fs.writeFileSync(path.join(folder.dir, 'typed.reward'), spec);
    const client = await TestClient.start({ capabilities: { ...pullClientCapabilities, window: { workDoneProgress: true } }, settings: { audit: { run: 'onType' } } });
    const events: string[] = [];
    const waiter = new NotificationWaiter();
    const until = (done: () => boolean): Promise<void> => waiter.until(done);
    const seen = (event: string, from = 0): boolean => events.slice(from).includes(event);
    client.connection.onNotification(auditStatusNotification, (p) => {
      if (finishedAudit.has(p.state)) events.push(`audit ${p.state}`);
      waiter.notify();
    });
    client.connection.onNotification(trainingSignalStatusNotification, (p) => {
      events.push(`training ${p.state}`);
      waiter.notify();
    });
    client.connection.onNotification('$/progress', (p: { value: { kind: string; message?: string } }) => {
      events.push(p.value.kind === 'report' ? `progress ${p.value.message ?? ''}` : `progress ${p.value.kind}`);
      waiter.notify();
    });

    await client.open(uri, spec);
    await until(() => seen('audit passed') && seen('training done') && seen('progress end'));
    const typedAt = events.length;
    await client.replace(uri, spec.replace('lexical(4)', 'lexical(4) '), 2);
    await until(() => seen('audit passed', typedAt) && seen('progress end', typedAt));
    await client.connection.sendRequest(reportRequest, { uri });
    const typingRun = events.slice(typedAt);
    assert.ok(!typingRun.includes('training done'), typingRun.join(', '));
    assert.ok(!typingRun.includes('progress training-signal audits'), typingRun.join(', '));
    assert.equal((await client.connection.sendRequest(reportRequest, { uri }))?.version, 2);
    await client.stop();
  });
});
