import assert from 'node:assert/strict';
import * as path from 'node:path';
import { after, before, describe, it } from 'node:test';
import {
  CodeActionRequest, DidSaveTextDocumentNotification, DocumentDiagnosticRequest, type CodeAction, type Diagnostic, type FullDocumentDiagnosticReport,
} from 'vscode-languageserver-protocol/node';
import { auditStatusNotification, reportRequest, type AuditStatusParams } from '../../server/src/contract/protocol.js';
import { applyEdits, pullClientCapabilities, rangeOf, repoRoot, tempFolder, NotificationWaiter, TestClient } from './lsp-test-client.js';

// The repair quick fix finishes the job: with the repair added (or already there) and compared, each
// failing expect about the audited reward that the lattice shows holding on the repair moves to it in
// the same edit, so the spec holds after one action.

const pools = path.join(repoRoot, 'samples/pools');

// R_L penalises L by half the repair's λ: laundering still beats it, so the repair is a reward of its own.
const weak = `corpus wiki = "${pools}/corpus.jsonl"
pool hotpot = "${pools}/hotpot.jsonl"

detector L "cites a real passage it never retrieved" = any c in citations: c in corpus and c not in retrieved

reward R0 {
  answer    1.0 * token_f1(answer, gold.answers)
  grounding 0.6 * grounding(citations, gold.answers)
}

reward R_L = R0 - 0.6 * L

audit quick {
  reward R0
  compare R_L
  corpus wiki
  pools hotpot
  attack launder targets L using lexical(4)
  lattice L = 1.2
  expect asr(R0, launder, oracle_worst) == 0
}
`;

describe('the repair quick fix turns a red spec green in one action (stdio)', { timeout: 120_000 }, () => {
  const folder = tempFolder();
  const uri = folder.uri('repair.reward');
  let client: TestClient;
  let version = 1;
  const statuses: AuditStatusParams[] = [];
  const waiter = new NotificationWaiter();
  const finished = (): AuditStatusParams[] => statuses.filter((s) => ['passed', 'failed', 'error', 'cancelled', 'notAudited'].includes(s.state));

  /** Puts the text in the editor, saves it and answers the audit's status. */
  const audit = async (text: string): Promise<AuditStatusParams> => {
    const seen = finished().length;
    if (version === 1) await client.open(uri, text, version++);
    else await client.replace(uri, text, version++);
    await client.connection.sendNotification(DidSaveTextDocumentNotification.type, { textDocument: { uri } });
    await waiter.until(() => finished().length > seen);
    return finished()[seen]!;
  };
  const repairActions = async (): Promise<{ diagnostic: Diagnostic; actions: CodeAction[] }> => {
    const report = (await client.connection.sendRequest(DocumentDiagnosticRequest.type, { textDocument: { uri } })) as FullDocumentDiagnosticReport;
    const diagnostic = report.items.find((d) => d.code === 'attack-succeeds' && String(d.message).includes('beats R0:'));
    assert.ok(diagnostic, JSON.stringify(report.items.map((d) => d.message)));
    const actions = (await client.connection.sendRequest(CodeActionRequest.type, { textDocument: { uri }, range: diagnostic.range, context: { diagnostics: [diagnostic] } })) as CodeAction[];
    return { diagnostic, actions };
  };

  before(async () => {
    client = await TestClient.start({ capabilities: pullClientCapabilities });
    client.connection.onNotification(auditStatusNotification, (p) => {
      statuses.push(p);
      waiter.notify();
    });
  });

  after(async () => {
    await client.stop();
    folder.remove();
  });

  it('adds the repair, compares it and moves the failing expect about R0 to it: the re-audit holds every expectation', async () => {
    assert.deepEqual(await audit(weak).then((s) => [s.state, s.message]), ['failed', '1 of 1 expectation fails']);
    const { actions } = await repairActions();
    const expectLine = rangeOf(weak, 'expect asr(R0').start.line + 1;
    assert.deepEqual(actions.map((a) => [a.isPreferred, a.title.replace(/certificate: .*\)$/, 'certificate: …)')]), [
      [true, `Add the observed minimal repair as a new reward R0_repair_L = R0 − 1.2·L, compared in audit quick, and move 1 failing expect about R0 to it (line ${expectLine}: the lattice shows it holds there) (R0 and every other reward unchanged; certificate: …)`],
      [false, 'Add the observed minimal repair as a new reward R0_repair_L = R0 − 1.2·L, compared in audit quick (R0 and every other reward unchanged; certificate: …)'],
    ]);
    const repaired = applyEdits(weak, actions[0]!.edit!.changes![uri]!);
    // One edit: the reward, after a blank line; the compare; the expect, now about the repair.
    assert.equal(repaired, weak
      .replace('reward R_L = R0 - 0.6 * L\n', 'reward R_L = R0 - 0.6 * L\n\nreward R0_repair_L "the observed minimal repair of R0 (audit quick)" = R0 - 1.2 * L\n')
      .replace('  compare R_L\n', '  compare R_L, R0_repair_L\n')
      .replace('expect asr(R0, launder', 'expect asr(R0_repair_L, launder'));
    assert.deepEqual(await audit(repaired).then((s) => [s.state, s.message]), ['passed', '1 of 1 expectation holds']);
    const result = await client.connection.sendRequest(reportRequest, { uri });
    assert.deepEqual(result?.report.audits[0]?.expectations.map((e) => [e.text, e.passed]), [['expect asr(R0_repair_L, launder, oracle_worst) == 0', true]]);
  });

  it('with the repair already compared, moves the failing expect to it; one it would not make hold stays', async () => {
    const text = weak
      .replace('reward R_L = R0 - 0.6 * L', 'reward R_L = R0 - 1.2 * L')
      .replace('  expect asr(R0, launder, oracle_worst) == 0\n', '  expect asr(R0, launder, oracle_worst) == 0\n  expect upper(R0, launder, oracle_worst) >= 99%\n');
    assert.deepEqual(await audit(text).then((s) => [s.state, s.message]), ['failed', '2 of 2 expectations fail']);
    const { actions } = await repairActions();
    const expectLine = rangeOf(text, 'expect asr(R0').start.line + 1;
    assert.deepEqual(actions.map((a) => [a.isPreferred, a.title]), [
      [true, `Move 1 failing expect about R0 to R_L (line ${expectLine}: the lattice shows it holds there), which already is the observed minimal repair R0 − 1.2·L`],
    ]);
    const moved = applyEdits(text, actions[0]!.edit!.changes![uri]!);
    assert.equal(moved, text.replace('expect asr(R0, launder', 'expect asr(R_L, launder'));
    const result = await audit(moved).then(async () => client.connection.sendRequest(reportRequest, { uri }));
    assert.deepEqual(result?.report.audits[0]?.expectations.map((e) => [e.text, e.passed]), [
      ['expect asr(R_L, launder, oracle_worst) == 0', true],
      ['expect upper(R0, launder, oracle_worst) >= 99%', false],
    ]);
  });
});
