import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { pathToFileURL } from 'node:url';
import { after, before, describe, it } from 'node:test';
import {
  CodeActionRequest, CodeLensRequest, DidSaveTextDocumentNotification, DocumentDiagnosticRequest, ExecuteCommandRequest, HoverRequest,
  type CodeAction, type FullDocumentDiagnosticReport, type TextEdit,
} from 'vscode-languageserver-protocol/node';
import { LineIndex } from '../../server/src/problems/line-index.js';
import { auditStatusNotification, reportRequest, type AuditStatusParams, type ReportResult } from '../../server/src/lsp/protocol.js';
import { pullClientCapabilities, rangeOf, repoRoot, tempFolder, TestClient } from './lsp-test-client.js';

const pools = path.join(repoRoot, 'samples/pools');

// Laundering gains up to 0.6 under R0: R_L's 1.2 rejects it, but R_full gives 0.8 back whenever the
// laundered passage is gold support and the original missed it: the paper's cancellation.
const spec = `corpus wiki = "${pools}/corpus.jsonl"
pool hotpot = "${pools}/hotpot.jsonl"

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
  pools hotpot
  attack launder targets L using lexical(4)
  lattice L = 1.2
  expect asr(R0, launder, oracle_worst) == 0
  expect asr(R_L, launder, oracle_worst) == 0
}
`;

const finishedStates = new Set(['passed', 'failed', 'error', 'cancelled']);

describe('audit in the editor (stdio)', () => {
  let client: TestClient;
  const folder = tempFolder();
  const uri = folder.uri('audit.reward');
  const statuses: AuditStatusParams[] = [];
  const progress: string[] = [];
  let notify: (() => void) | undefined;

  const finished = (count: number): Promise<void> =>
    new Promise((resolve) => {
      const check = (): void => {
        if (statuses.filter((s) => finishedStates.has(s.state)).length >= count) resolve();
        else notify = check;
      };
      check();
    });

  const pull = async (): Promise<FullDocumentDiagnosticReport> =>
    (await client.connection.sendRequest(DocumentDiagnosticRequest.type, { textDocument: { uri } })) as FullDocumentDiagnosticReport;

  before(async () => {
    fs.writeFileSync(path.join(folder.dir, 'audit.reward'), spec);
    client = await TestClient.start({
      capabilities: { ...pullClientCapabilities, workspace: { ...pullClientCapabilities.workspace, codeLens: { refreshSupport: true } }, window: { workDoneProgress: true } },
    });
    client.connection.onNotification(auditStatusNotification, (p: AuditStatusParams) => {
      statuses.push(p);
      notify?.();
    });
    client.connection.onNotification('$/progress', (p: unknown) => {
      progress.push((p as { value: { kind: string } }).value.kind);
    });
  });

  after(async () => {
    await client.stop();
    folder.remove();
  });

  it('audits on open with work-done progress and reports findings where a user acts', async () => {
    await client.open(uri, spec);
    await finished(1);
    const status = statuses.find((s) => finishedStates.has(s.state))!;
    assert.equal(status.state, 'failed', status.message);
    assert.equal(status.message, '1/2 expectations hold');
    assert.deepEqual([progress[0], progress[progress.length - 1]], ['begin', 'end']);

    const report = await pull();
    const byCode = (code: string) => report.items.filter((d) => d.code === code);
    assert.deepEqual(byCode('expect-failed').map((d) => d.range), [rangeOf(spec, 'expect asr(R0, launder, oracle_worst) == 0')]);
    assert.match(byCode('expect-failed')[0]!.message as string, /asr = \d+\.\d\d% over \d+ isolated-eligible clusters/);
    const cancellation = byCode('penalty-cancellation');
    assert.equal(cancellation.length, 1);
    assert.deepEqual(cancellation[0]!.range, rangeOf(spec, '- 0.8 * support_miss'));
    assert.match(cancellation[0]!.message as string, /lose under R_L but win under R_full, because the edit switches off 'support_miss'/);
    assert.match(cancellation[0]!.message as string, /Worked pair \S+ \(\S*hotpot\.jsonl:\d+, citation \d+ → w:\d+\): R0 \+0\.\d+ → R_L −0\.\d+ → R_full \+0\.\d+/);

    const result = (await client.connection.sendRequest(reportRequest, { uri })) as ReportResult | null;
    assert.equal(result?.report.audits[0]?.name, 'quick');
    assert.deepEqual(result?.report.audits[0]?.lattice.minimal, [['L']]);
  });

  it('shows the audit in hovers: per-detector figures and the certificate, a reward\'s ASR table', async () => {
    const at = (needle: string) => {
      const range = rangeOf(spec, needle);
      return client.connection.sendRequest(HoverRequest.type, { textDocument: { uri }, position: range.start });
    };
    const detector = (await at('L "cites'))?.contents as { value: string };
    assert.match(detector.value, /\*\*audit `quick`\*\*: fires on \d+ originals, λ = 1\.2/);
    assert.match(detector.value, /\| launder \| \d+\.\d\d% \| 0\.00% \| [+−]0\.\d{5} → −\d\.\d{5} \|/);
    assert.match(detector.value, /\| launder \| 100\.00% \| −1\.20000 \| −1\.20000 \|/);
    assert.match(detector.value, /Certificate: max base gain among the \d+ audited edits that trigger it is \+0\.\d{5} < λ 1\.2 ✓/);
    const reward = (await at('R_full = '))?.contents as { value: string };
    assert.match(reward.value, /\| launder \| oracle_worst \| \d+\.\d\d% \[\d+\.\d\d%, \d+\.\d\d%\] \| .* \| oracle upper bound \|/);
  });

  it('re-scores after a weight edit and moves the finding with the text', async () => {
    const before = statuses.length;
    const edited = spec.replace('expect asr(R0, launder, oracle_worst) == 0', 'expect asr(R0, launder, oracle_worst) <= 100%');
    await client.replace(uri, edited, 2);
    await client.connection.sendNotification(DidSaveTextDocumentNotification.type, { textDocument: { uri } });
    await finished(statuses.slice(0, before).filter((s) => finishedStates.has(s.state)).length + 1);
    assert.equal(statuses[statuses.length - 1]?.state, 'passed');
    const report = await pull();
    assert.deepEqual(report.items.filter((d) => d.code === 'expect-failed'), []);
    assert.deepEqual(report.items.filter((d) => d.code === 'penalty-cancellation').map((d) => d.range), [rangeOf(edited, '- 0.8 * support_miss')]);
  });

  it('shows a regression against the committed baseline on the weight that changed', async () => {
    // Accept the current figures, as a user would with `herald audit --update-baseline`.
    const current = statuses.length;
    const accepted = spawnSync(process.execPath, [path.join(repoRoot, 'dist/herald.js'), 'audit', 'audit.reward', '--update-baseline', '--quiet'], { cwd: folder.dir, encoding: 'utf8' });
    assert.ok(fs.existsSync(path.join(folder.dir, 'audit.reward.baseline.json')), accepted.stderr);
    const text = fs.readFileSync(path.join(folder.dir, 'audit.reward'), 'utf8');
    // Weaken the repair below the largest laundering gain: R_L starts to lose attacks.
    const weakened = text.replace('R0 - 1.2 * L', 'R0 - 0.3 * L');
    fs.writeFileSync(path.join(folder.dir, 'audit.reward'), weakened);
    await client.replace(uri, weakened, 3);
    await client.connection.sendNotification(DidSaveTextDocumentNotification.type, { textDocument: { uri } });
    await finished(statuses.slice(0, current).filter((s) => finishedStates.has(s.state)).length + 1);
    const report = await pull();
    const regressions = report.items.filter((d) => d.code === 'asr-regression');
    assert.ok(regressions.length > 0, JSON.stringify(report.items.map((d) => d.code)));
    for (const r of regressions) assert.deepEqual(r.range, rangeOf(weakened, '- 0.3'));
    assert.match(regressions[0]!.message as string, /regression against the baseline: launder under R_L \((first_visible|oracle_worst)\) went from 0\.00% .* to \d+\.\d\d%.*this weight changed since the baseline/);
    assert.equal(regressions[0]!.relatedInformation?.[0]?.message, 'audit quick, attack launder');
    assert.match(regressions[0]!.message as string, /in audit quick over hotpot;/);

    // The quick fix accepts the new figures: the baseline is rewritten and the regression goes away.
    const actions = (await client.connection.sendRequest(CodeActionRequest.type, {
      textDocument: { uri }, range: regressions[0]!.range, context: { diagnostics: regressions },
    })) as CodeAction[];
    assert.equal(actions[0]?.title, 'Accept the current audit figures as the baseline');
    const refreshed = client.refreshes.next();
    assert.equal(await client.connection.sendRequest(ExecuteCommandRequest.type, actions[0]!.command!), true);
    await refreshed;
    assert.deepEqual((await pull()).items.filter((d) => d.code === 'asr-regression'), []);
  });

  it('publishes exactly one result for fifty saves in a row', async () => {
    const doneBefore = statuses.filter((s) => finishedStates.has(s.state)).length;
    for (let i = 0; i < 50; i++) await client.connection.sendNotification(DidSaveTextDocumentNotification.type, { textDocument: { uri } });
    await finished(doneBefore + 1);
    // A round trip after the result: any other audit still answering would have reported by now.
    await client.connection.sendRequest(reportRequest, { uri });
    const after = statuses.filter((s) => finishedStates.has(s.state)).slice(doneBefore);
    // The weakened spec of the previous test fails its R_L expectation: one result, not cancelled.
    assert.deepEqual(after.map((s) => s.state), ['failed']);
  });

  it('shows ASR per attack in code lenses, with a Show report lens', async () => {
    const lenses = await client.connection.sendRequest(CodeLensRequest.type, { textDocument: { uri } });
    const titles = (lenses ?? []).map((l) => l.command?.title);
    assert.equal(titles.length, 2);
    assert.match(titles[0] ?? '', /^launder: R0 \d+\.\d\d% · R_L \d+\.\d\d% · R_full \d+\.\d\d% \(oracle-worst ASR\)$/);
    assert.equal(titles[1], 'Show report');
    assert.equal(lenses?.[1]?.command?.command, 'herald.showReport');
    assert.ok(client.codeLensRefreshes > 0, 'the server asks the client to refresh lenses after an audit');
  });

  it('applies the minimal repair from the light bulb, and the re-audit shows zero ASR for it', async () => {
    const text = spec.replace('expect asr(R0, launder, oracle_worst) == 0', 'expect asr(R0, launder, oracle_worst) <= 100%');
    await client.replace(uri, text, 10);
    await client.connection.sendNotification(DidSaveTextDocumentNotification.type, { textDocument: { uri } });
    await finished(statuses.filter((s) => finishedStates.has(s.state)).length + 1);
    const diagnostics = (await pull()).items;
    const succeeds = diagnostics.filter((d) => d.code === 'attack-succeeds');
    // On the audit's `reward R0` line (the second `reward R0` in the text; the first declares it), and
    // R_full, which the cancellation beats, on its name in `compare`.
    assert.deepEqual(succeeds.map((d) => d.range), [rangeOf(text, 'reward R0', 1), rangeOf(text, 'R_full', 1)]);
    const actions = (await client.connection.sendRequest(CodeActionRequest.type, {
      textDocument: { uri }, range: succeeds[0]!.range, context: { diagnostics: succeeds },
    })) as CodeAction[];
    assert.equal(actions.length, 1);
    assert.match(actions[0]!.title, /^Apply the observed minimal repair: −1\.2·L \(certificate: max gain \+0\.\d{5} < λ_L = 1\.2\)$/);
    const repaired = applyEdits(text, actions[0]!.edit!.changes![uri]!);
    assert.match(repaired, / {2}grounding 0\.6 \* grounding\(citations, gold\.answers\)\n {2}repair_L -1\.2 \* L\n\}/);
    await client.replace(uri, repaired, 11);
    await client.connection.sendNotification(DidSaveTextDocumentNotification.type, { textDocument: { uri } });
    await finished(statuses.filter((s) => finishedStates.has(s.state)).length + 1);
    const result = (await client.connection.sendRequest(reportRequest, { uri })) as ReportResult;
    const r0 = result.report.audits[0]!.attacks[0]!.results.find((r) => r.reward === 'R0' && r.selection === 'oracle_worst')!;
    assert.equal(r0.estimate.asr, 0, 'the repair the title promises');
    // Nothing beats the repaired R0 any more (a compared reward may still be beaten: it has its own finding).
    assert.deepEqual((await pull()).items.filter((d) => d.code === 'attack-succeeds' && String(d.message).includes('beats R0:')), []);
  });

  it('removes a cancelling term with its quick fix', async () => {
    // Back to the unrepaired spec: over a repaired R0, R_full's extra 0.8 can no longer pay for a laundering edit.
    await client.replace(uri, spec, 20);
    await client.connection.sendNotification(DidSaveTextDocumentNotification.type, { textDocument: { uri } });
    await finished(statuses.filter((s) => finishedStates.has(s.state)).length + 1);
    const current = (await pull()).items.filter((d) => d.code === 'penalty-cancellation');
    assert.equal(current.length, 1);
    const actions = (await client.connection.sendRequest(CodeActionRequest.type, {
      textDocument: { uri }, range: current[0]!.range, context: { diagnostics: current },
    })) as CodeAction[];
    assert.equal(actions[0]?.title, "Remove the cancelling term 'support_miss' from R_full");
    assert.match(applyEdits(spec, actions[0]!.edit!.changes![uri]!), /^reward R_full = R_L$/m);
  });
});

/** Applies non-overlapping LSP text edits to a text, last first. */
function applyEdits(text: string, edits: readonly TextEdit[]): string {
  const index = new LineIndex(text);
  return [...edits]
    .map((e) => ({ start: index.offset(e.range.start), end: index.offset(e.range.end), newText: e.newText }))
    .sort((a, b) => b.start - a.start)
    .reduce((t, e) => t.slice(0, e.start) + e.newText + t.slice(e.end), text);
}

describe('audit in the editor: the sample spec', () => {
  it('warns about penalty cancellation on R_full and fades the redundant lattice detectors', async () => {
    const specFile = path.join(repoRoot, 'samples/paper.reward');
    const text = fs.readFileSync(specFile, 'utf8');
    const uri = pathToFileURL(specFile).href;
    const client = await TestClient.start({ capabilities: pullClientCapabilities });
    const done = new Promise<AuditStatusParams>((resolve) => {
      client.connection.onNotification(auditStatusNotification, (p: AuditStatusParams) => {
        if (finishedStates.has(p.state)) resolve(p);
      });
    });
    await client.open(uri, text);
    assert.equal((await done).state, 'passed');
    const report = (await client.connection.sendRequest(DocumentDiagnosticRequest.type, { textDocument: { uri } })) as FullDocumentDiagnosticReport;
    // support_miss cancels in every audit; F cancels in `replication`, whose lattice is only {L}, so a
    // laundering edit of a fake citation is not isolated from F and switches its −1.0 off.
    const cancelling = new Set(report.items.filter((d) => d.code === 'penalty-cancellation').map((d) => JSON.stringify(d.range)));
    assert.deepEqual([...cancelling].sort(), [rangeOf(text, '- 0.8 * support_miss'), rangeOf(text, '- 1.0 * F')].map((r) => JSON.stringify(r)).sort());
    const redundant = report.items.filter((d) => d.code === 'redundant-detector');
    assert.deepEqual(redundant.map((d) => [d.range, d.tags]), [[rangeOf(text, 'U = 0.5'), [1]], [rangeOf(text, 'F = 1.0'), [1]]]);
    await client.stop();
  });
});
