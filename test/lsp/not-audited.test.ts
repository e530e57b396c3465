import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { pathToFileURL } from 'node:url';
import {
  CodeLensRequest, DiagnosticSeverity, DidSaveTextDocumentNotification, DocumentDiagnosticRequest, FileChangeType, type CodeLens, type FullDocumentDiagnosticReport,
} from 'vscode-languageserver-protocol/node';
import {
  auditStatusNotification, reportRequest, trainingSignalStatusNotification, type AuditStatusParams, type TrainingSignalStatusParams,
} from '../../server/src/contract/protocol.js';
import { auditAndTrainingSpec } from '../helpers/audit-and-training-spec.js';
import { pullClientCapabilities, rangeOf, repoRoot, tempFolder, NotificationWaiter, TestClient } from './lsp-test-client.js';

// Never a stale state: when the spec has errors (a misspelt name, an unknown attack kind, a weight
// no double holds, a pool that cannot be found) no audit runs on it, and the status, the lenses and
// the report say "not audited" with the errors, never the last good result.

const pools = path.join(repoRoot, 'samples/pools');

const specWith = auditAndTrainingSpec;

const finished = new Set(['passed', 'failed', 'error', 'cancelled', 'notAudited']);

describe('a spec with errors is not audited, and says so everywhere (stdio)', { timeout: 120_000 }, () => {
  const folder = tempFolder();
  const uri = folder.uri('stale.reward');
  const pool = path.join(folder.dir, 'hotpot.jsonl');
  const spec = specWith(pool);
  let client: TestClient;
  let version = 1;
  const audits: AuditStatusParams[] = [];
  const trainings: TrainingSignalStatusParams[] = [];
  const waiter = new NotificationWaiter();
  const until = (done: () => boolean): Promise<void> => waiter.until(done);
  /** The next audit status that is not `running`, after the ones seen so far. */
  const nextStatus = async (): Promise<AuditStatusParams> => {
    const seen = audits.length;
    await until(() => audits.slice(seen).some((s) => finished.has(s.state)));
    return audits.slice(seen).find((s) => finished.has(s.state))!;
  };
  const save = (): Promise<void> => client.connection.sendNotification(DidSaveTextDocumentNotification.type, { textDocument: { uri } });
  const type = (text: string): Promise<void> => client.replace(uri, text, ++version);
  const lenses = async (): Promise<string[]> =>
    ((await client.connection.sendRequest(CodeLensRequest.type, { textDocument: { uri } })) ?? []).map((l: CodeLens) => l.command?.title ?? '');

  before(async () => {
    fs.copyFileSync(path.join(pools, 'hotpot.jsonl'), pool);
    client = await TestClient.start({ capabilities: pullClientCapabilities });
    client.connection.onNotification(auditStatusNotification, (p) => {
      audits.push(p);
      waiter.notify();
    });
    client.connection.onNotification(trainingSignalStatusNotification, (p) => {
      trainings.push(p);
      waiter.notify();
    });
  });

  after(async () => {
    await client.stop();
    folder.remove();
  });

  it('audits the spec as written: the good result the errors must not leave behind', async () => {
    const status = nextStatus();
    await client.open(uri, spec);
    const passed = await status;
    assert.deepEqual([passed.state, passed.message], ['passed', '1 of 1 expectation holds']);
    await until(() => trainings.length >= 1);
    assert.ok((await lenses()).includes('✓ 1 expect holds'));
  });

  it('a typo is "not audited" as it is typed, with the count and the first error; the lens says so instead of the result', async () => {
    const typo = spec.replace('compare R_L', 'compare R_LL');
    const status = nextStatus();
    await type(typo);
    const notAudited = await status;
    assert.equal(notAudited.state, 'notAudited');
    const line = rangeOf(typo, 'R_LL').start.line + 1;
    // The first error in the text, with the count of all of them (the misspelt reward is also not audited, nor compared).
    const errors = (await client.connection.sendRequest(DocumentDiagnosticRequest.type, { textDocument: { uri } }) as FullDocumentDiagnosticReport).items.filter((d) => d.severity === DiagnosticSeverity.Error);
    assert.equal(notAudited.message, `not audited: ${errors.length} errors; line ${line}: unknown reward 'R_LL'; did you mean 'R_L'?`);
    assert.deepEqual(notAudited.errors, { count: errors.length, first: { line, message: "unknown reward 'R_LL'; did you mean 'R_L'?" } });
    const titles = await lenses();
    assert.ok(titles.every((t) => !t.includes('✓') && !t.includes('worst-case ASR')), titles.join(' | '));
    assert.match(titles[0] ?? '', new RegExp(`^✗ not audited: ${errors.length} errors · line ${line}: unknown reward 'R_LL'`));
  });

  it('saving it withdraws the last results: no report, and the training block is not run either', async () => {
    const seen = trainings.length;
    await save();
    await until(() => trainings.length > seen);
    assert.equal(trainings[seen]?.state, 'error');
    assert.match(trainings[seen]!.message, /^not run: \d+ errors; line 16: unknown reward 'R_LL'/);
    assert.equal(await client.connection.sendRequest(reportRequest, { uri }), null);
  });

  it('fixing the typo without saving says what would audit it, and saving audits it again', async () => {
    let status = nextStatus();
    await type(spec);
    assert.deepEqual(await status, { uri, state: 'notAudited', message: 'not audited since its errors were fixed: save the spec to audit it' });
    status = nextStatus();
    await save();
    assert.equal((await status).state, 'passed');
  });

  it('a typo undone before saving shows the last audit\'s status again', async () => {
    let status = nextStatus();
    await type(spec.replace('compare R_L', 'compare R_LL'));
    assert.equal((await status).state, 'notAudited');
    status = nextStatus();
    await type(spec);
    assert.equal((await status).message, '1 of 1 expectation holds');
    assert.ok((await lenses()).includes('✓ 1 expect holds'));
  });

  for (const [what, from, to, error] of [
    ['an unknown attack kind', 'attack launder targets', 'attack launder = lundr targets', /unknown attack kind 'lundr'/],
    ['a weight no double holds', 'R0 - 1.2 * L', 'R0 - 1e400 * L', /line 12: 1e400 is too large for a double/],
    ['a pool that cannot be found', `pool hotpot = "${pool}"`, `pool hotpot = "${pool}.missing"`, /cannot find/],
  ] as const) {
    it(`${what} on save: not audited, with that error`, async () => {
      const seen = audits.length;
      await type(spec.replace(from, to));
      // One status after the keystroke, one on the save that withdraws the results.
      await until(() => audits.length > seen);
      await save();
      await until(() => audits.length > seen + 1);
      const notAudited = audits[audits.length - 1]!;
      assert.deepEqual(audits.slice(seen).map((s) => s.state), ['notAudited', 'notAudited']);
      assert.match(notAudited.message, error);
      assert.equal(await client.connection.sendRequest(reportRequest, { uri }), null);
      await type(spec);
      await save();
      await until(() => audits[audits.length - 1]?.state === 'passed');
    });
  }

  it('a linked pool deleted on disk makes the open spec not audited at once', async () => {
    const status = nextStatus();
    fs.renameSync(pool, `${pool}.moved`);
    await client.fileChanged(pathToFileURL(pool).href, FileChangeType.Deleted);
    const notAudited = await status;
    assert.equal(notAudited.state, 'notAudited');
    assert.match(notAudited.message, /^not audited: 1 error; line 2: cannot find '/);
    fs.renameSync(`${pool}.moved`, pool);
    const back = nextStatus();
    await client.fileChanged(pathToFileURL(pool).href, FileChangeType.Created);
    // Restored: the last audit's status again, as when a typo is undone.
    assert.equal((await back).message, '1 of 1 expectation holds');
  });
});
