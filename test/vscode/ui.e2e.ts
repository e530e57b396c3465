// The workbench used like a person would: code-server with the installed .vsix, driven through
// Chromium's keyboard and mouse. Each step saves a screenshot under test-output/code-server-ui/.
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { after, before, describe, it } from 'node:test';
import type { Page } from 'playwright-core';
import { lineColumn, openWorkbench, outputFolder, requireTools, sampleWorkspace, type Workbench } from './code-server';

const out = outputFolder('code-server-ui');
const shot = (page: Page, name: string): Promise<Buffer> => page.screenshot({ path: path.join(out, `${name}.png`) });

describe('the workbench, used like a person (code-server + Chromium)', () => {
  requireTools();
  const workspace = sampleWorkspace(path.join(out, 'workspace'));
  const spec = path.join(workspace, 'paper.reward');
  const text = fs.readFileSync(spec, 'utf8');
  let workbench: Workbench;
  let page: Page;
  let actions: Workbench['actions'];

  before(async () => {
    workbench = await openWorkbench({ out, home: path.join(out, 'home'), workspace });
    ({ page, actions } = workbench);
  });

  after(() => workbench?.close());

  it('opens the sample spec and shows the audit\'s squiggles', async () => {
    await actions.openFile('paper.reward');
    await page.locator('.monaco-editor .view-lines', { hasText: 'The HERALD paper' }).waitFor();
    // The audit ends with a status bar message; its findings are then on the spec.
    await page.locator('.statusbar-item', { hasText: /HERALD \d+ of \d+ expectations hold/ }).waitFor({ timeout: 150_000 });
    await actions.goTo(lineColumn(text, 'R0 - 1.2 * L - 0.5 * U', 'support_miss'));
    await page.locator('.monaco-editor .squiggly-warning').first().waitFor();
    assert.ok(await page.locator('.monaco-editor .squiggly-warning').count() > 0);
    await shot(page, '01-squiggles');
  });

  it('lists the findings in the Problems panel', async () => {
    await actions.toggleProblems();
    await page.locator('.markers-panel .monaco-list-row').first().waitFor();
    const rows = await actions.problemRows();
    assert.ok(rows.some((r) => /penalty cancellation in audit paper: \d+ launder edits/.test(r)), rows.join('\n'));
    assert.ok(rows.some((r) => /launder beats R0: \d+\.\d+%/.test(r)), rows.join('\n'));
    await shot(page, '02-problems');
    await actions.toggleProblems();
  });

  it('hovers the detector L and reads its margins', async () => {
    await actions.goTo(lineColumn(text, 'detector L', 'L'));
    const hoverText = await actions.hover('Certificate');
    assert.match(hoverText, /Mean −λ·d/);
    assert.match(hoverText, /launder/);
    assert.match(hoverText, /max base gain among the \d+ audited edits/);
    await shot(page, '03-hover-detector');
    await page.keyboard.press('Escape');
  });

  it('reads in the finding that R_L, already compared, is the minimal repair: nothing to edit in R0', async () => {
    await actions.toggleProblems();
    const row = page.locator('.markers-panel .monaco-list-row', { hasText: 'R_L, compared here, already is R0 − 1.2·L' }).first();
    await row.waitFor();
    assert.match(await row.innerText(), /in audit paper, .*launder beats R0: \d+\.\d+%/);
    await shot(page, '04-repair-already-compared');
    await actions.toggleProblems();
    assert.equal(fs.readFileSync(spec, 'utf8'), text, 'the spec is as it was');
  });

  it('opens the report view with the lattice and the charts', async () => {
    await actions.command('HERALD: Show Audit Report');
    const view = page.frameLocator('iframe.webview.ready').frameLocator('#active-frame');
    await view.locator('svg').first().waitFor({ timeout: 60_000 });
    await view.locator('canvas').first().waitFor();
    assert.ok(await view.locator('canvas').count() > 0, 'the report view draws its charts');
    await page.waitForTimeout(1000);
    await shot(page, '06-report-view');
  });

  it('shows the training sample\'s exposure curve and forest plot in the report view', async () => {
    await actions.openFile('training.reward');
    await page.locator('.statusbar-item', { hasText: /HERALD L reaches the optimizer in \d+ of \d+ groups/ }).waitFor({ timeout: 150_000 });
    await actions.command('HERALD: Show Audit Report');
    const view = page.frameLocator('iframe.webview.ready').last().frameLocator('#active-frame');
    await view.locator('[data-chart="exposure"] canvas').waitFor({ timeout: 60_000 });
    await view.locator('[data-chart="forest"] canvas').waitFor();
    assert.match(await view.locator('body').innerText(), /L: fires on \d+ of \d+ rows in \d+ groups/);
    await page.waitForTimeout(1000);
    await shot(page, '07-training-report');
  });
});
