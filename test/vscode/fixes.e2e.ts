// From what the editor says to what to do next, used like a person would in code-server with the
// installed .vsix: a failed expectation in the status bar, the minimal repair applied as a new
// reward (every other reward unchanged), a bad pool row in the editor and the report view, the
// comparison's failed gate with its lens, and a link completed as it is typed. Each step saves a
// screenshot under test-output/code-server-fixes/.
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { after, before, describe, it } from 'node:test';
import type { Page } from 'playwright-core';
import { lineColumn, openWorkbench, outputFolder, requireTools, sampleWorkspace, type Workbench } from './code-server';

const out = outputFolder('code-server-fixes');
const shot = (page: Page, name: string): Promise<Buffer> => page.screenshot({ path: path.join(out, `${name}.png`) });

/** A spec as a new user writes it: no reward is the repair yet, and R_light's expectation fails. */
const scratchText = `corpus wiki = "pools/corpus.jsonl"
pool hotpot = "pools/hotpot.jsonl"

detector L "cites a real corpus passage it never retrieved" =
  any c in citations: c in corpus and c not in retrieved

reward R0 "answer quality and grounding" {
  answer    1.0 * token_f1(answer, gold.answers)
  grounding 0.6 * grounding(citations, gold.answers)
}

reward R_light "a light penalty on L" = R0 - 0.3 * L

audit scratch {
  reward R0
  compare R_light
  corpus wiki
  pools hotpot
  attack launder targets L using lexical(4)
  lattice L = 1.2
  expect asr(R_light, launder, oracle_worst) == 0
}
`;

/** A pool with two rows that are not trajectories (lines 4 and 9), linked relative to the spec. */
const rowsText = `corpus wiki = "pools/corpus.jsonl"
pool logged = "pools/logged.jsonl"

detector L "cites a real corpus passage it never retrieved" =
  any c in citations: c in corpus and c not in retrieved

reward R0 { answer 1.0 * token_f1(answer, gold.answers) }

audit rows {
  reward R0
  corpus wiki
  pools logged
  attack launder targets L using lexical(2)
}
`;

describe('from a finding to what to do next (code-server + Chromium)', () => {
  requireTools();
  const workspace = sampleWorkspace(path.join(out, 'workspace'));
  const scratch = path.join(workspace, 'scratch.reward');
  let workbench: Workbench;
  let page: Page;
  let actions: Workbench['actions'];

  before(async () => {
    fs.writeFileSync(scratch, scratchText);
    fs.writeFileSync(path.join(workspace, 'rows.reward'), rowsText);
    const good = fs.readFileSync(path.join(workspace, 'pools/hotpot.jsonl'), 'utf8').split('\n').slice(0, 40);
    const rows = [...good.slice(0, 3), '{"id": "cut-off-row", ', ...good.slice(3, 7), '{"id": "no-question#0", "steps": []}', ...good.slice(7)];
    fs.writeFileSync(path.join(workspace, 'pools/logged.jsonl'), `${rows.join('\n')}\n`);
    workbench = await openWorkbench({ out, home: path.join(out, 'home'), workspace });
    ({ page, actions } = workbench);
  });

  after(() => workbench?.close());

  it('says in the status bar how many expectations fail, and shows short lenses with Show report first', async () => {
    await actions.openFile('scratch.reward');
    await page.locator('.statusbar-item', { hasText: 'HERALD 1 of 1 expectation fails' }).waitFor({ timeout: 150_000 });
    const lenses = page.locator('.codelens-decoration');
    await lenses.filter({ hasText: 'Show report' }).first().waitFor();
    const lensLine = await lenses.first().innerText();
    assert.match(lensLine, /^Show report\s+\|\s+✗ 1 of 1 expect fails\s+\|\s+R0 worst-case ASR: launder \d+\.\d%$/);
    await shot(page, '01-status-and-lenses');
  });

  it('applies the minimal repair as a new compared reward; R0 and R_light stay as they were', async () => {
    const audit = scratchText.indexOf('audit scratch');
    await actions.goTo(lineColumn(scratchText, 'reward R0', 'R0', scratchText.slice(0, audit).split('\n').length));
    await page.keyboard.press('Control+.');
    const repair = page.locator('.action-widget .monaco-list-row', { hasText: 'Add the observed minimal repair as a new reward R0_repair_L' });
    await repair.waitFor();
    // The menu sits under a pointer block while it animates, so choose the fix with the keyboard.
    for (let step = 0; step < 10 && !(await repair.getAttribute('class'))?.includes('focused'); step += 1) await page.keyboard.press('ArrowDown');
    await shot(page, '02-repair-menu');
    await page.keyboard.press('Enter');
    await page.keyboard.press('Control+S');
    const deadline = Date.now() + 30_000;
    while (!fs.readFileSync(scratch, 'utf8').includes('R0_repair_L') && Date.now() < deadline) await page.waitForTimeout(200);
    assert.equal(fs.readFileSync(scratch, 'utf8'), scratchText
      .replace('reward R_light "a light penalty on L" = R0 - 0.3 * L\n', 'reward R_light "a light penalty on L" = R0 - 0.3 * L\n\nreward R0_repair_L "the observed minimal repair of R0 (audit scratch)" = R0 - 1.2 * L\n')
      .replace('  compare R_light\n', '  compare R_light, R0_repair_L\n'));
    // The re-audit: R_light still fails its expectation (it was not touched); the finding on R0 now names the new reward.
    await actions.toggleProblems();
    await page.locator('.markers-panel .monaco-list-row', { hasText: 'R0_repair_L, compared here, already is R0 − 1.2·L' }).first().waitFor({ timeout: 150_000 });
    await shot(page, '03-repair-as-new-reward');
    await actions.toggleProblems();
  });

  it('shows skipped pool rows in the editor and in the report view', async () => {
    await actions.openFile('rows.reward');
    await page.locator('.statusbar-item', { hasText: 'HERALD audited (no expectations)' }).waitFor({ timeout: 150_000 });
    await page.locator('.monaco-editor .squiggly-error').first().waitFor();
    await actions.toggleProblems();
    const row = page.locator('.markers-panel .monaco-list-row', { hasText: '2 rows skipped' }).first();
    await row.waitFor();
    assert.match(await row.innerText(), /pools\/logged\.jsonl:4: .*pools\/logged\.jsonl:9: /);
    await actions.goTo(lineColumn(rowsText, 'pool logged', 'logged'));
    await actions.hover('rows skipped');
    await shot(page, '04-bad-rows-in-editor');
    await page.keyboard.press('Escape');
    await actions.toggleProblems();
    await actions.command('HERALD: Show Audit Report');
    const view = page.frameLocator('iframe.webview.ready').last().frameLocator('#active-frame');
    const card = view.locator('.skipped-rows');
    await card.waitFor({ timeout: 60_000 });
    assert.match(await card.innerText(), /Skipped rows \(2\)[\s\S]*pools\/logged\.jsonl:4: [\s\S]*pools\/logged\.jsonl:9: /);
    await page.waitForTimeout(500);
    await shot(page, '05-skipped-rows-report');
    // Back to a single editor group with the keyboard in the workbench, not in the report's frame.
    await page.locator('.tab', { hasText: 'rows.reward' }).first().click();
    await actions.command('View: Close All Editor Groups');
    await page.locator('.tab').first().waitFor({ state: 'detached' });
  });

  it('puts the comparison\'s failed non-inferiority gate on its margin, with a lens', async () => {
    await actions.openFile('training.reward');
    // The comparison block is below the fold: go there first, as the editor draws only the lines in view.
    const training = fs.readFileSync(path.join(workspace, 'training.reward'), 'utf8');
    await actions.goTo(lineColumn(training, 'margin 2', 'margin'));
    await page.locator('.codelens-decoration', { hasText: 'EM non-inferiority fails on hotpot, 2wiki, musique' }).first().waitFor({ timeout: 150_000 });
    await actions.hover('EM non-inferiority fails');
    await shot(page, '06-non-inferiority-gate');
    await page.keyboard.press('Escape');
  });

  it('completes a link as it is typed: the folders and JSONL files beside the spec', async () => {
    await actions.openFile('scratch.reward');
    // The tab is active before the editor has the keyboard: keys sent in between move nothing or
    // land where the caret was (the audit block, after the repair above), so wait for the focus.
    await page.locator('.editor-group-container.active .monaco-editor.focused').waitFor();
    await page.keyboard.press('Control+End');
    await page.keyboard.type('pool extra = "pools/');
    // The list is sorted by name and shows its first rows (pools/ holds 18 files): the first file is there at once.
    const suggestion = page.locator('.suggest-widget .monaco-list-row', { hasText: 'corpus.jsonl' });
    // The '/' trigger character opens the list. When the editor drops that request (it cancels one
    // still in flight as the next key arrives, and the server may be busy auditing the spec), a user
    // asks again: so does the test, and it says so.
    try {
      await suggestion.first().waitFor({ timeout: 10_000 });
    } catch {
      console.log('      (the list did not open on the trigger character within 10 s; asked again with Ctrl+Space)');
      await page.keyboard.press('Control+Space');
      await suggestion.first().waitFor();
    }
    // Typing narrows the list, as it does for a person: the pool file is offered too.
    await page.keyboard.type('hot');
    await page.locator('.suggest-widget .monaco-list-row', { hasText: 'hotpot.jsonl' }).first().waitFor();
    await shot(page, '07-path-completion');
    await page.keyboard.press('Escape');
    await actions.command('File: Revert File');
  });
});
