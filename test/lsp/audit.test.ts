import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { pathToFileURL } from 'node:url';
import { after, before, describe, it } from 'node:test';
import {
  CodeActionRequest, CodeLensRequest, DidSaveTextDocumentNotification, DocumentDiagnosticRequest, ExecuteCommandRequest, HoverRequest,
  type CodeAction, type Diagnostic, type FullDocumentDiagnosticReport,
} from 'vscode-languageserver-protocol/node';
import { auditStatusNotification, reportRequest, type AuditStatusParams, type ReportResult } from '../../server/src/contract/protocol.js';
import { applyEdits, pullClientCapabilities, rangeOf, repoRoot, tempFolder, TestClient } from './lsp-test-client.js';

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
    // A failed expectation is a result, said apart from an audit that could not run.
    assert.equal(status.message, '1 of 2 expectations fails');
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

  it('shows the audit in hovers, sized for a hover: a summary per audit and a link to the full tables', async () => {
    const at = (needle: string) => {
      const range = rangeOf(spec, needle);
      return client.connection.sendRequest(HoverRequest.type, { textDocument: { uri }, position: range.start });
    };
    const detector = (await at('L "cites'))?.contents as { value: string };
    assert.match(detector.value, /\*\*audit `quick`\*\*: fires on \d+ originals, λ = 1\.2; in the observed minimal repair \{L\}/);
    assert.match(detector.value, /Oracle-worst ASR without it → with only it: launder \d+\.\d\d% → 0\.00%/);
    assert.match(detector.value, /Mean −λ·d on the attacks' edits: launder −1\.20000/);
    assert.match(detector.value, /Certificate: max base gain among the \d+ audited edits that trigger it is \+0\.\d{5} < λ 1\.2 ✓/);
    // This client announces no HERALD commands (VS Code's does: test/vscode/suite/audit.spec.ts), so no command link.
    assert.match(detector.value, /Every figure as a table: the report view in VS Code, or `herald audit --format html`\.$/);
    assert.doesNotMatch(detector.value, /command:/);
    const reward = (await at('R_full = '))?.contents as { value: string };
    assert.match(reward.value, /\*\*audit `quick`\*\*: oracle-worst ASR \(oracle upper bound\): launder \d+\.\d\d% \[\d+\.\d, \d+\.\d\]/);
    // Why a reward that reads gold is scored by label-free figures too.
    assert.match(reward.value, /label-free: the edit was chosen without reading gold/);
    for (const hover of [detector.value, reward.value]) assert.ok(hover.split('\n').length < 30, hover);
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

  it('shows short code lenses: Show report first, the expects, the audited reward\'s ASR per attack', async () => {
    const lenses = await client.connection.sendRequest(CodeLensRequest.type, { textDocument: { uri } });
    const titles = (lenses ?? []).map((l) => l.command?.title ?? '');
    assert.equal(titles[0], 'Show report');
    assert.equal(lenses?.[0]?.command?.command, 'herald.showReport');
    // The weakened spec of the previous tests fails both expectations.
    assert.equal(titles[1], '✗ 2 of 2 expects fail');
    assert.match(titles[2] ?? '', /^R0 worst-case ASR: launder \d+\.\d%$/);
    assert.match(lenses?.[2]?.command?.tooltip ?? '', /launder: R0 \d+\.\d%, R_L \d+\.\d%, R_full \d+\.\d%/);
    // Short enough to read in a normal window: the whole lens line stays under 80 characters.
    assert.ok(titles.join(' | ').length < 80, titles.join(' | '));
    assert.ok(client.codeLensRefreshes > 0, 'the server asks the client to refresh lenses after an audit');
  });

  it('offers the minimal repair as a new compared reward, never editing R0, and the re-audit shows zero ASR for it', async () => {
    // R_L (compared) already is R0 − 1.2·L: the finding names it and nothing needs adding.
    const text = spec.replace('expect asr(R0, launder, oracle_worst) == 0', 'expect asr(R0, launder, oracle_worst) <= 100%');
    await client.replace(uri, text, 10);
    await client.connection.sendNotification(DidSaveTextDocumentNotification.type, { textDocument: { uri } });
    await finished(statuses.filter((s) => finishedStates.has(s.state)).length + 1);
    const onR0 = (items: readonly Diagnostic[]) => items.filter((d) => d.code === 'attack-succeeds' && String(d.message).includes('beats R0:'));
    const before = onR0((await pull()).items);
    assert.equal(before.length, 1);
    assert.match(String(before[0]!.message), /^in audit quick, launder beats R0: .*; observed minimal repair \{L\}: R_L, compared here, already is R0 − 1\.2·L$/);
    const none = (await client.connection.sendRequest(CodeActionRequest.type, {
      textDocument: { uri }, range: before[0]!.range, context: { diagnostics: before },
    })) as CodeAction[];
    assert.deepEqual(none.map((a) => a.title), []);

    // With R_L weaker than the repair, the repair becomes a reward of its own.
    const weaker = text.replace('reward R_L = R0 - 1.2 * L', 'reward R_L = R0 - 0.6 * L');
    await client.replace(uri, weaker, 11);
    await client.connection.sendNotification(DidSaveTextDocumentNotification.type, { textDocument: { uri } });
    await finished(statuses.filter((s) => finishedStates.has(s.state)).length + 1);
    const diagnostics = (await pull()).items;
    const succeeds = diagnostics.filter((d) => d.code === 'attack-succeeds');
    // On the audit's `reward R0` line (the second `reward R0` in the text; the first declares it), and
    // R_full, which the cancellation beats, on its name in `compare`.
    assert.deepEqual(succeeds.map((d) => d.range)[0], rangeOf(weaker, 'reward R0', 1));
    assert.match(String(succeeds[0]!.message), /observed minimal repair \{L\} \(R0 − 1\.2·L\)$/);
    const actions = (await client.connection.sendRequest(CodeActionRequest.type, {
      textDocument: { uri }, range: succeeds[0]!.range, context: { diagnostics: [succeeds[0]!] },
    })) as CodeAction[];
    assert.equal(actions.length, 1);
    assert.match(actions[0]!.title, /^Add the observed minimal repair as a new reward R0_repair_L = R0 − 1\.2·L, compared in audit quick \(R0 and every other reward unchanged; certificate: max gain \+0\.\d{5} < λ_L = 1\.2 against lexical\(4\)\)$/);
    assert.equal(actions[0]!.isPreferred, true);
    const repaired = applyEdits(weaker, actions[0]!.edit!.changes![uri]!);
    // Every reward that was there is there as it was; the repair is new, and compared.
    const declarations = (t: string) => t.split('\n').filter((l) => l.startsWith('reward ') || /^ {2}\w+ +[-\d.]+ \*/.test(l));
    assert.deepEqual(declarations(repaired).filter((l) => !l.startsWith('reward R0_repair_L')), declarations(weaker));
    assert.match(repaired, /^reward R_full = R_L - 0\.8 \* support_miss\n\nreward R0_repair_L "the observed minimal repair of R0 \(audit quick\)" = R0 - 1\.2 \* L\n/m);
    assert.match(repaired, /^ {2}compare R_L, R_full, R0_repair_L$/m);
    await client.replace(uri, repaired, 12);
    await client.connection.sendNotification(DidSaveTextDocumentNotification.type, { textDocument: { uri } });
    await finished(statuses.filter((s) => finishedStates.has(s.state)).length + 1);
    const result = (await client.connection.sendRequest(reportRequest, { uri })) as ReportResult;
    const results = result.report.audits[0]!.attacks[0]!.results;
    assert.equal(results.find((r) => r.reward === 'R0_repair_L' && r.selection === 'oracle_worst')!.estimate.asr, 0, 'the repair the title promises');
    // R0 is untouched, so attacks still beat it; the finding now names the new reward as the repair.
    const after = onR0((await pull()).items);
    assert.match(String(after[0]!.message), /R0_repair_L, compared here, already is R0 − 1\.2·L$/);
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
