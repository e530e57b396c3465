// From a finding to the data, like a person would in code-server with the installed .vsix: a quick
// fix opens a worked pair in the diff editor, a hover link and the report view do the same, and a
// skipped row of a pool opens in the editor as an error with a hover that says why. Screenshots
// under test-output/code-server-data/.
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { after, before, describe, it } from 'node:test';
import type { Page } from 'playwright-core';
import { lineColumn, openWorkbench, outputFolder, repoRoot, requireTools, sampleWorkspace, type Workbench } from './code-server';

const out = outputFolder('code-server-data');
const shot = (page: Page, name: string): Promise<Buffer> => page.screenshot({ path: path.join(out, `${name}.png`) });

/**
 * The sample workspace with one bad row in a pool (line 3 of pools/2wiki.jsonl has no gold labels),
 * and a spec that imports a verl dump whose last record has no prompt. Written before code-server
 * starts: Quick Open may not list a file created while it runs until its watcher catches up.
 */
function workspaceWithBadRows(dir: string): string {
  const workspace = sampleWorkspace(dir);
  const pool = path.join(workspace, 'pools/2wiki.jsonl');
  const lines = fs.readFileSync(pool, 'utf8').split('\n');
  const bad = JSON.stringify({ id: 'wiki-broken#0', question_id: 'wiki-broken', question: 'Who founded the company?', steps: [], final: null });
  fs.writeFileSync(pool, [...lines.slice(0, 2), bad, ...lines.slice(2)].join('\n'));
  fs.mkdirSync(path.join(workspace, 'rollout'), { recursive: true });
  const records = fs.readFileSync(path.join(repoRoot, 'samples/search-r1/rollout/1.jsonl'), 'utf8').split('\n').slice(0, 3);
  fs.writeFileSync(path.join(workspace, 'rollout/verl-step-1.jsonl'), `${[...records, JSON.stringify({ output: 'x', gts: 'y' })].join('\n')}\n`);
  fs.writeFileSync(path.join(workspace, 'imported.reward'), 'corpus wiki = "pools/corpus.jsonl"\npool rollouts = "rollout/*.jsonl" from verl(dialect: search_r1)\n');
  return workspace;
}

describe('from a finding to the data (code-server + Chromium)', () => {
  requireTools();
  const workspace = workspaceWithBadRows(path.join(out, 'workspace'));
  const text = fs.readFileSync(path.join(workspace, 'paper.reward'), 'utf8');
  let workbench: Workbench;
  let page: Page;
  let actions: Workbench['actions'];

  /** The diff editor of a worked pair, once its edited side shows the margin table. */
  const diffEditor = async (): Promise<void> => {
    await page.locator('.tab.active', { hasText: 'original ↔' }).waitFor({ timeout: 30_000 });
    const modified = page.locator('.monaco-diff-editor .editor.modified .view-lines');
    await modified.filter({ hasText: 'HERALD worked pair' }).waitFor({ timeout: 30_000 });
  };

  before(async () => {
    workbench = await openWorkbench({ out, home: path.join(out, 'home'), workspace });
    ({ page, actions } = workbench);
    await actions.openFile('paper.reward');
    await page.locator('.statusbar-item', { hasText: /HERALD \d+ of \d+ expectations hold/ }).waitFor({ timeout: 150_000 });
  });

  after(() => workbench?.close());

  it('opens the worked pair of a cancellation side by side from its quick fix', async () => {
    await actions.goTo(lineColumn(text, 'R0 - 1.2 * L - 0.5 * U', 'support_miss'));
    await page.locator('.monaco-editor .squiggly-warning').first().waitFor();
    await page.keyboard.press('Control+.');
    const open = page.locator('.action-widget .monaco-list-row', { hasText: 'Show the worked pair' }).first();
    await open.waitFor();
    for (let step = 0; step < 10 && !(await open.getAttribute('class'))?.includes('focused'); step += 1) await page.keyboard.press('ArrowDown');
    await shot(page, '01-quick-fix-worked-pair');
    await page.keyboard.press('Enter');
    await diffEditor();
    // The editor draws spaces as no-break spaces.
    const edited = (await page.locator('.monaco-diff-editor .editor.modified .view-lines').innerText()).replace(/\u00a0/g, ' ');
    assert.match(edited, /Paired margin M = R\(edited\) − R\(original\)/);
    assert.match(edited, /support_miss/);
    // The changed citation: the next difference after the header.
    await page.locator('.monaco-diff-editor .editor.modified').click({ position: { x: 200, y: 10 } });
    await page.keyboard.press('Alt+F5');
    await page.keyboard.press('Alt+F5');
    await page.waitForTimeout(500);
    await shot(page, '02-worked-pair-diff');
    await page.keyboard.press('Control+W');
  });

  it('opens a worked pair from a link in the reward\'s hover', async () => {
    await actions.openFile('paper.reward');
    await actions.goTo(lineColumn(text, 'reward R_full', 'R_full'));
    await actions.hover('Worked pairs');
    const link = page.locator('.monaco-hover:visible a', { hasText: /launder citation \d+ → w:\d+/ }).first();
    await link.hover();
    await shot(page, '03-hover-worked-pairs');
    await link.click();
    await diffEditor();
    await page.keyboard.press('Control+W');
  });

  it('opens a worked pair from the report view', async () => {
    await actions.openFile('paper.reward');
    await actions.command('HERALD: Show Audit Report');
    const view = page.frameLocator('iframe.webview.ready').frameLocator('#active-frame');
    const card = view.locator('.worked-pairs').first();
    await card.waitFor({ timeout: 60_000 });
    await card.scrollIntoViewIfNeeded();
    await page.waitForTimeout(500);
    await shot(page, '04-report-worked-pairs');
    await card.locator('button.pair-link').first().click();
    await diffEditor();
    await shot(page, '05-report-to-diff');
    await actions.command('View: Close All Editor Groups');
  });

  it('shows a skipped row in its pool file: an error on the line, a hover that says why', async () => {
    await actions.openFile('paper.reward');
    await actions.toggleProblems();
    const related = page.locator('.markers-panel .monaco-list-row', { hasText: "skipped row: missing field 'gold'" }).first();
    await related.waitFor({ timeout: 30_000 });
    await related.click();
    await page.locator('.tab.active', { hasText: '2wiki.jsonl' }).waitFor();
    await page.locator('.monaco-editor .squiggly-error').first().waitFor({ timeout: 30_000 });
    await actions.toggleProblems();
    const hover = await actions.hover('skipped row');
    assert.match(hover, /the audits leave it out: missing field 'gold'/);
    assert.match(hover, /read as the pool '?wiki2'? of paper\.reward/);
    await shot(page, '06-bad-row');
  });

  it('shows a record an importer skips in a file of an imported pool (a verl dump the spec reads through a glob)', async () => {
    await actions.openFile('imported.reward');
    await actions.openFile('verl-step-1.jsonl');
    await page.locator('.monaco-editor .squiggly-error').first().waitFor({ timeout: 30_000 });
    await actions.goTo({ line: 4, column: 2 });
    const hover = await actions.hover('skipped record');
    assert.match(hover, /the audits leave it out: no 'input' \(the prompt\)/);
    assert.match(hover, /imported by '?verl'? from the file as saved/);
    await shot(page, '07-imported-record');
  });
});
