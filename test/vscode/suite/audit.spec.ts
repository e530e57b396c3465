// The audit in a real VS Code: the sample spec opened from a workspace that holds a copy of
// samples/paper.reward and its pools. The tests run in order and build on each other, as a person's
// session would: findings arrive, a hover explains them, a weakened weight is flagged against the
// baseline, and the quick fixes repair the reward.
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import * as vscode from 'vscode';
import {
  codeOf, describeDiagnostics, extensionId, hoverText, positionOf, quickFixes, replaceAndSave, waitForDiagnostics, withCode,
} from './helpers';

const folder = (): vscode.Uri => {
  const first = vscode.workspace.workspaceFolders?.[0];
  if (first === undefined) throw new Error('the tests need a workspace folder holding paper.reward');
  return first.uri;
};

describe('HERALD in VS Code: the paper sample', () => {
  let uri: vscode.Uri;
  let doc: vscode.TextDocument;

  before(async () => {
    uri = vscode.Uri.joinPath(folder(), 'paper.reward');
    doc = await vscode.workspace.openTextDocument(uri);
    await vscode.window.showTextDocument(doc);
  });

  it('activates on the .reward language, from the installed package when one is expected', async () => {
    assert.equal(doc.languageId, 'reward');
    const extension = vscode.extensions.getExtension(extensionId);
    assert.ok(extension, `${extensionId} is not installed`);
    await extension.activate();
    assert.ok(extension.isActive);
    // The code-server runner installs the .vsix and says where; a desktop run loads the repository.
    const installedUnder = process.env['HERALD_EXPECT_EXTENSION_UNDER'];
    if (installedUnder !== undefined) {
      assert.ok(path.resolve(extension.extensionPath).startsWith(path.resolve(installedUnder)),
        `the extension was loaded from ${extension.extensionPath}, not from the installed package under ${installedUnder}`);
      assert.ok(fs.existsSync(path.join(extension.extensionPath, 'dist', 'server.js')), 'the package has no bundled server');
    }
  });

  it('shows the audit findings: attacks that beat R0 and the cancellation in R_full', async () => {
    const ds = await waitForDiagnostics(uri, 'attack-succeeds and penalty-cancellation',
      (d) => withCode(d, 'attack-succeeds').length > 0 && withCode(d, 'penalty-cancellation').length > 0);
    assert.deepEqual(ds.filter((d) => d.severity === vscode.DiagnosticSeverity.Error).map((d) => `${codeOf(d)}: ${d.message}`), []);

    // On the audits' `reward R0` lines for the audited reward; a compared reward that an attack beats (R_full) on its name in `compare`.
    const attack = withCode(ds, 'attack-succeeds');
    const onLine = (d: vscode.Diagnostic): string => doc.lineAt(d.range.start.line).text.trim();
    assert.ok(attack.some((d) => onLine(d) === 'reward R0'), 'attack-succeeds on an audit\'s `reward R0` line');
    assert.ok(attack.every((d) => onLine(d) === 'reward R0' || (onLine(d).startsWith('compare ') && doc.getText(d.range) === 'R_full')), 'attack-succeeds on `reward R0`, or on R_full in `compare`');
    assert.ok(attack.some((d) => /launder beats R0: \d+\.\d+% .*observed minimal repair \{L\}/.test(d.message)), attack.map((d) => d.message).join('\n'));

    const cancelling = withCode(ds, 'penalty-cancellation').filter((d) => d.message.includes("'support_miss'"));
    assert.ok(cancelling.length > 0, 'no cancellation on support_miss');
    for (const d of cancelling) {
      assert.equal(doc.getText(d.range), '- 0.8 * support_miss', 'the cancellation is anchored on the cancelling term');
      assert.match(d.message, /lose under R_L but win under R_full/);
    }
  });

  it('hovers a detector with its margins and certificate', async () => {
    const hovers = await vscode.commands.executeCommand<vscode.Hover[]>('vscode.executeHoverProvider', uri, positionOf(doc, 'detector L', 'L'));
    const text = hoverText(hovers);
    assert.match(text, /cites a real corpus passage it never retrieved/);
    assert.match(text, /Mean −λ·d on the attacks' edits: .*launder −\d/, 'the launder effect is a negative mean contribution');
    assert.match(text, /Certificate: max base gain among the \d+ audited edits that trigger it is \+?\d\.\d+ < λ 1\.2 ✓/);
    assert.match(text, /in the observed minimal repair \{L\}/);
    // A summary per audit, sized for a hover; the tables are one click away.
    assert.match(text, /\[Every figure as a table: open the report view\]\(command:herald\.showReport\)/);
  });

  it('flags a weakened weight as an ASR regression against the accepted baseline, and clears it when restored', async () => {
    const baseline = path.join(folder().fsPath, 'paper.reward.baseline.json');
    await vscode.commands.executeCommand('herald.acceptBaseline', uri.toString());
    assert.ok(fs.existsSync(baseline), 'accepting the baseline writes paper.reward.baseline.json');

    await replaceAndSave(doc, 'R0 - 1.2 * L\n', 'R0 - 0.3 * L\n');
    const ds = await waitForDiagnostics(uri, 'asr-regression after weakening λ_L in R_L', (d) => withCode(d, 'asr-regression').length > 0);
    const regressions = withCode(ds, 'asr-regression');
    assert.ok(regressions.every((d) => doc.getText(d.range) === '- 0.3'), 'regressions sit on the weight that changed');
    assert.ok(regressions.some((d) => /launder under R_L \(oracle_worst\) went from 0\.00% .* to \d+\.\d+% .* in audit paper/.test(d.message)),
      regressions.map((d) => `${doc.getText(d.range)}: ${d.message}`).join('\n'));
    assert.ok(withCode(ds, 'expect-failed').some((d) => doc.lineAt(d.range.start.line).text.includes('asr(R_L, launder, oracle_worst) == 0')),
      'the broken expectation is an error on its line');

    await replaceAndSave(doc, 'R0 - 0.3 * L\n', 'R0 - 1.2 * L\n');
    await waitForDiagnostics(uri, 'the regression and the failed expectation to clear',
      (d) => withCode(d, 'asr-regression').length === 0 && withCode(d, 'expect-failed').length === 0 && withCode(d, 'attack-succeeds').length > 0);
  });

  it('removes the cancelling term with its quick fix, and the cancellation goes', async () => {
    const cancelling = withCode(vscode.languages.getDiagnostics(uri), 'penalty-cancellation').find((d) => d.message.includes("'support_miss'"));
    assert.ok(cancelling);
    const fix = (await quickFixes(uri, cancelling.range)).find((a) => a.title === "Remove the cancelling term 'support_miss' from R_full");
    assert.ok(fix?.edit, 'no quick fix removes the cancelling term');
    assert.ok(await vscode.workspace.applyEdit(fix.edit));
    assert.match(doc.getText(), /reward R_full "[^"]*" =\n {2}R0 - 1\.2 \* L - 0\.5 \* U - 1\.0 \* F\n/);
    assert.ok(await doc.save());
    await waitForDiagnostics(uri, 'the support_miss cancellation to clear',
      (d) => !withCode(d, 'penalty-cancellation').some((x) => x.message.includes("'support_miss'")) && withCode(d, 'attack-succeeds').length > 0);
  });

  it('names R_L, which the sample already compares, as the minimal repair, and offers no edit to R0', async () => {
    const attack = withCode(vscode.languages.getDiagnostics(uri), 'attack-succeeds').find((d) => d.message.includes('in audit paper, ') && d.message.includes('launder beats R0'));
    assert.ok(attack, describeDiagnostics(uri));
    assert.match(attack.message, /observed minimal repair \{L\}: R_L, compared here, already is R0 − 1\.2·L$/);
    const actions = await quickFixes(uri, attack.range);
    assert.deepEqual(actions.filter((a) => /repair/.test(a.title)).map((a) => a.title), []);
  });

  it('on a spec written from scratch, adds the minimal repair as a new compared reward and changes no other reward', async () => {
    const scratch = vscode.Uri.joinPath(folder(), 'scratch.reward');
    const text = [
      'corpus wiki = "pools/corpus.jsonl"', 'pool hotpot = "pools/hotpot.jsonl"', '',
      'detector L "cites a real corpus passage it never retrieved" =', '  any c in citations: c in corpus and c not in retrieved', '',
      'reward R0 {', '  answer    1.0 * token_f1(answer, gold.answers)', '  grounding 0.6 * grounding(citations, gold.answers)', '}', '',
      'reward R_light = R0 - 0.3 * L', '',
      'audit scratch {', '  reward R0', '  compare R_light', '  corpus wiki', '  pools hotpot', '  attack launder targets L using lexical(4)', '  lattice L = 1.2', '}', '',
    ].join('\n');
    fs.writeFileSync(scratch.fsPath, text);
    const scratchDoc = await vscode.workspace.openTextDocument(scratch);
    await vscode.window.showTextDocument(scratchDoc);
    const ds = await waitForDiagnostics(scratch, 'attack-succeeds on R0', (d) => withCode(d, 'attack-succeeds').some((x) => x.message.includes('beats R0')));
    const attack = withCode(ds, 'attack-succeeds').find((d) => d.message.includes('beats R0'))!;
    assert.match(attack.message, /observed minimal repair \{L\} \(R0 − 1\.2·L\)$/);
    const fix = (await quickFixes(scratch, attack.range)).find((a) => a.title.startsWith('Add the observed minimal repair as a new reward R0_repair_L = R0 − 1.2·L, compared in audit scratch (R0 and every other reward unchanged'));
    assert.ok(fix?.edit, 'no fix adds the repair as a new reward');
    assert.equal(fix.isPreferred, true, 'the repair is the preferred fix (Ctrl+. applies it)');
    assert.ok(await vscode.workspace.applyEdit(fix.edit));
    const repaired = scratchDoc.getText();
    assert.equal(repaired, text
      .replace('reward R_light = R0 - 0.3 * L\n', 'reward R_light = R0 - 0.3 * L\n\nreward R0_repair_L "the observed minimal repair of R0 (audit scratch)" = R0 - 1.2 * L\n')
      .replace('  compare R_light\n', '  compare R_light, R0_repair_L\n'), 'the repair is new; R0 and R_light are as they were');
    assert.ok(await scratchDoc.save());
    const after = await waitForDiagnostics(scratch, 'the finding to name R0_repair_L as the repair',
      (d) => withCode(d, 'attack-succeeds').some((x) => x.message.includes('R0_repair_L, compared here, already is R0 − 1.2·L')));
    assert.deepEqual(withCode(after, 'attack-succeeds').filter((d) => d.message.includes('beats R0_repair_L')).map((d) => d.message), []);
    await vscode.commands.executeCommand('workbench.action.closeActiveEditor');
  });

  it('puts the training sample\'s failed non-inferiority gate on its margin option, with a code lens', async () => {
    const training = vscode.Uri.joinPath(folder(), 'training.reward');
    const trainingDoc = await vscode.workspace.openTextDocument(training);
    await vscode.window.showTextDocument(trainingDoc);
    const ds = await waitForDiagnostics(training, 'non-inferiority-fails', (d) => withCode(d, 'non-inferiority-fails').length > 0);
    const gate = withCode(ds, 'non-inferiority-fails')[0]!;
    assert.equal(trainingDoc.getText(gate.range), 'margin 2');
    assert.match(gate.message, /^in comparison matched, EM non-inferiority fails on hotpot, 2wiki, musique: .*lower bounds: hotpot −\d+\.\d\d ✗/);
    const lenses = await vscode.commands.executeCommand<vscode.CodeLens[]>('vscode.executeCodeLensProvider', training);
    const titles = lenses.map((l) => l.command?.title ?? '');
    assert.ok(titles.includes('✗ EM non-inferiority fails on hotpot, 2wiki, musique'), titles.join(' | '));
    await vscode.commands.executeCommand('workbench.action.closeActiveEditor');
    await vscode.window.showTextDocument(doc);
  });

  it('opens the report view for the spec', async () => {
    await vscode.commands.executeCommand('herald.showReport', uri);
    const deadline = Date.now() + 30_000;
    const reportTab = (): vscode.Tab | undefined =>
      vscode.window.tabGroups.all.flatMap((g) => g.tabs).find((t) => t.input instanceof vscode.TabInputWebview && t.label === 'HERALD: paper.reward');
    while (reportTab() === undefined && Date.now() < deadline) await new Promise((r) => setTimeout(r, 200));
    assert.ok(reportTab(), `no report tab; tabs: ${vscode.window.tabGroups.all.flatMap((g) => g.tabs).map((t) => t.label).join(', ')}`);
  });
});
