// From a finding to the data, through the VS Code API: a spec of its own (beside the samples in the
// test workspace) whose audit names worked pairs and skipped rows; the code action opens a pair in
// the diff editor over two read-only `herald-trajectory` documents, and a linked pool opened in the
// editor shows its bad row as an error with a hover that explains it.
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as vscode from 'vscode';
import { codeOf, hoverText, waitForDiagnostics, withCode } from './helpers';

const spec = `corpus wiki = "pools/corpus.jsonl"
pool hotpot = "pools/hotpot.jsonl"
pool extra = "pools/extra-bad.jsonl"

detector L "cites a real passage it never retrieved" = any c in citations: c in corpus and c not in retrieved
signal support_miss "no citation is gold support" = misses(citations, gold.support)

reward R0 {
  answer    1.0 * token_f1(answer, gold.answers)
  grounding 0.6 * grounding(citations, gold.answers)
}

reward R_L = R0 - 1.2 * L
reward R_full = R_L - 0.8 * support_miss

audit data {
  reward R0
  compare R_L, R_full
  corpus wiki
  pools hotpot, extra
  attack launder targets L using lexical(4)
  lattice L = 1.2
}
`;

const folder = (): vscode.Uri => {
  const first = vscode.workspace.workspaceFolders?.[0];
  if (first === undefined) throw new Error('the tests need a workspace folder holding the sample pools');
  return first.uri;
};

/** Resolves once `accept` holds for the open tabs, checking on every tab change. */
function waitForTab(what: string, accept: (tab: vscode.Tab) => boolean, timeoutMs = 30_000): Promise<vscode.Tab> {
  return new Promise((resolve, reject) => {
    const find = (): vscode.Tab | undefined => vscode.window.tabGroups.all.flatMap((g) => g.tabs).find(accept);
    const listener = vscode.window.tabGroups.onDidChangeTabs(() => {
      const tab = find();
      if (tab === undefined) return;
      clearTimeout(timer);
      listener.dispose();
      resolve(tab);
    });
    const timer = setTimeout(() => {
      listener.dispose();
      reject(new Error(`timed out waiting for ${what}`));
    }, timeoutMs);
    const now = find();
    if (now !== undefined) {
      clearTimeout(timer);
      listener.dispose();
      resolve(now);
    }
  });
}

describe('HERALD in VS Code: from a finding to the data', () => {
  let uri: vscode.Uri;
  let badPool: vscode.Uri;
  let badLines: string[];

  before(async () => {
    const hotpot = fs.readFileSync(vscode.Uri.joinPath(folder(), 'pools/hotpot.jsonl').fsPath, 'utf8').split('\n');
    badLines = [hotpot[0]!.replace(/"id": ?"[^"]+"/, '"id": "extra-1"'), '{"id": "extra-2", "question_id": "q", "question": "?", "steps": [], "final": null}'];
    badPool = vscode.Uri.joinPath(folder(), 'pools/extra-bad.jsonl');
    fs.writeFileSync(badPool.fsPath, `${badLines.join('\n')}\n`);
    uri = vscode.Uri.joinPath(folder(), 'data.reward');
    fs.writeFileSync(uri.fsPath, spec);
    await vscode.window.showTextDocument(await vscode.workspace.openTextDocument(uri));
  });

  after(async () => {
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
    fs.rmSync(uri.fsPath, { force: true });
    fs.rmSync(badPool.fsPath, { force: true });
  });

  it('links the cancellation\'s worked pair and the skipped row to their lines in the pools', async () => {
    const ds = await waitForDiagnostics(uri, 'penalty-cancellation and bad-rows', (d) => withCode(d, 'penalty-cancellation').length > 0 && withCode(d, 'bad-rows').length > 0);
    const pair = withCode(ds, 'penalty-cancellation')[0]!.relatedInformation ?? [];
    assert.equal(pair.length, 1);
    assert.equal(pair[0]!.location.uri.path, vscode.Uri.joinPath(folder(), 'pools/hotpot.jsonl').path);
    const bad = withCode(ds, 'bad-rows')[0]!.relatedInformation ?? [];
    assert.deepEqual(bad.map((r) => [r.location.uri.path, r.location.range.start.line]), [[badPool.path, 1]]);
  });

  it('opens a worked pair side by side from the finding\'s code action, with the margin term by term', async () => {
    const cancellation = withCode(vscode.languages.getDiagnostics(uri), 'penalty-cancellation')[0]!;
    const actions = await vscode.commands.executeCommand<vscode.CodeAction[]>('vscode.executeCodeActionProvider', uri, cancellation.range);
    const open = actions.find((a) => a.title.startsWith('Show the worked pair '));
    assert.ok(open?.command, actions.map((a) => a.title).join('\n'));
    await vscode.commands.executeCommand(open.command.command, ...(open.command.arguments ?? []));
    const tab = await waitForTab('the trajectory diff', (t) => t.input instanceof vscode.TabInputTextDiff && t.input.original.scheme === 'herald-trajectory');
    assert.ok(tab.input instanceof vscode.TabInputTextDiff);
    assert.match(tab.label, / original ↔ launder citation \d+ → w:\d+$/);
    const original = await vscode.workspace.openTextDocument(tab.input.original);
    const edited = await vscode.workspace.openTextDocument(tab.input.modified);
    const row = JSON.parse(original.getText()) as { id: string; final: { citations: string[] } };
    assert.ok(cancellation.message.includes(`Worked pair ${row.id} `), cancellation.message);
    assert.match(edited.getText(), /^\/\/ HERALD worked pair: trajectory \S+ \(pool hotpot, pools\/hotpot\.jsonl:\d+\), attack launder of audit data\./);
    assert.match(edited.getText(), /\n\/\/ {3}support_miss +−0\.8 +1 +0 +\+0\.80000\n/);
    assert.match(edited.getText(), /\n\/\/ {3}M\(R_full\) = Σ w·Δ = \+0\.\d{5}: the edit is not worse: the attack succeeds\n/);
    const editedRow = JSON.parse(edited.getText().split('\n').filter((l) => !l.startsWith('//')).join('\n')) as { id: string; final: { citations: string[] } };
    assert.equal(editedRow.id, row.id);
    assert.notDeepEqual(editedRow.final.citations, row.final.citations);
    // Read-only: the documents come from the provider, not from a file.
    assert.equal(edited.uri.scheme, 'herald-trajectory');
  });

  it('checks a linked pool opened in the editor: the bad row is an error on its line, explained on hover', async () => {
    await vscode.window.showTextDocument(await vscode.workspace.openTextDocument(badPool));
    const ds = await waitForDiagnostics(badPool, 'the bad row\'s diagnostic', (d) => withCode(d, 'bad-rows').length > 0, 30_000);
    assert.deepEqual(ds.map((d) => [d.range.start.line, codeOf(d), d.severity]), [[1, 'bad-rows', vscode.DiagnosticSeverity.Error]]);
    assert.match(ds[0]!.message, /^the audits skip this row: missing field 'gold' \(read as the pool 'extra' of data\.reward\)$/);
    const bad = hoverText(await vscode.commands.executeCommand<vscode.Hover[]>('vscode.executeHoverProvider', badPool, new vscode.Position(1, 2)));
    assert.match(bad, /\*\*skipped row\*\*: the audits leave it out: missing field 'gold'/);
    const good = hoverText(await vscode.commands.executeCommand<vscode.Hover[]>('vscode.executeHoverProvider', badPool, new vscode.Position(0, 2)));
    assert.match(good, /\*\*trajectory\*\* `extra-1`/);
  });
});
