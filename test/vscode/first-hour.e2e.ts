// A researcher's first hour on her own logs, with the keyboard only, in code-server with the
// installed .vsix: a Search-R1 verl dump turned into a spec without the command line (New Spec from
// Framework Logs…, the format guessed), a starter whose attack tests something, the reason at an
// attack that has nothing to edit, the status bar after a typo, and the minimal repair that turns a
// red spec green in one action. Each step saves a screenshot under test-output/code-server-first-hour/.
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { after, before, describe, it } from 'node:test';
import type { Locator, Page } from 'playwright-core';
import { lineColumn, openWorkbench, outputFolder, repoRoot, requireTools, sampleWorkspace, type Workbench } from './code-server';

const out = outputFolder('code-server-first-hour');
const shot = (page: Page, name: string): Promise<Buffer> => page.screenshot({ path: path.join(out, `${name}.png`) });

/** The paper's starter on the Search-R1 dump: the citation attacks have no row to edit. */
const paperOnLogsText = `corpus wiki = "corpus.jsonl"
pool rollouts = "rollout/*.jsonl" from verl(dialect: search_r1)

detector U "nonempty final answer and no search at all" =
  has_final and answer != "" and search_calls == 0
detector L "cites a real corpus passage it never retrieved" =
  any c in citations: c in corpus and c not in retrieved

reward R0 "answer quality and grounding" {
  answer    1.0 * token_f1(answer, gold.answers)
  grounding 0.6 * grounding(citations, gold.answers)
}

audit first_try {
  reward R0
  corpus wiki
  pools rollouts
  attack same_final targets U, L
  attack launder targets L using lexical(4)
}
`;

/** A spec whose expectation about R0 fails until the minimal repair is applied. */
const redText = `corpus wiki = "pools/corpus.jsonl"
pool hotpot = "pools/hotpot.jsonl"

detector L "cites a real corpus passage it never retrieved" =
  any c in citations: c in corpus and c not in retrieved

reward R0 "answer quality and grounding" {
  answer    1.0 * token_f1(answer, gold.answers)
  grounding 0.6 * grounding(citations, gold.answers)
}

audit red {
  reward R0
  corpus wiki
  pools hotpot
  attack launder targets L using lexical(4)
  lattice L = 1.2
  expect asr(R0, launder, oracle_worst) == 0
}
`;

/** The sample workspace with a Search-R1 verl dump in logs/, its specs, and a red spec at the top. */
function workspaceWithLogs(dir: string): string {
  const workspace = sampleWorkspace(dir);
  const logs = path.join(workspace, 'logs');
  // rollout/ is the dump alone (first-try.reward links it by a glob); dump/ holds a copy with the corpus
  // beside it, as New Spec from Framework Logs… finds a corpus.
  fs.cpSync(path.join(repoRoot, 'samples/search-r1/rollout'), path.join(logs, 'rollout'), { recursive: true });
  fs.cpSync(path.join(repoRoot, 'samples/search-r1/rollout'), path.join(logs, 'dump'), { recursive: true });
  fs.copyFileSync(path.join(repoRoot, 'samples/pools/corpus.jsonl'), path.join(logs, 'dump/corpus.jsonl'));
  fs.copyFileSync(path.join(repoRoot, 'samples/pools/corpus.jsonl'), path.join(logs, 'corpus.jsonl'));
  fs.writeFileSync(path.join(logs, 'first-try.reward'), paperOnLogsText);
  fs.writeFileSync(path.join(workspace, 'red.reward'), redText);
  return workspace;
}

describe("a researcher's first hour on her own logs, keyboard only (code-server + Chromium)", () => {
  requireTools();
  const workspace = workspaceWithLogs(path.join(out, 'workspace'));
  let workbench: Workbench;
  let page: Page;
  let actions: Workbench['actions'];

  const quickInput = (): Locator => page.locator('.quick-input-widget');
  const statusBar = (text: string): Locator => page.locator('.statusbar-item', { hasText: text });
  /** Opens a file through Quick Open with the keyboard: the row must be the first one before Enter. */
  const openByKeyboard = async (name: string): Promise<void> => {
    for (let attempt = 0; attempt < 3; attempt += 1) {
      await page.keyboard.press('Control+P');
      await quickInput().locator('input').waitFor({ state: 'visible' });
      await page.keyboard.type(name);
      await page.locator('.quick-input-list .monaco-list-row.focused', { hasText: name }).first().waitFor();
      await page.keyboard.press('Enter');
      try {
        await page.locator('.tab.active', { hasText: name }).waitFor({ timeout: 5000 });
        return;
      } catch {
        console.log(`      (Quick Open dropped Enter while it refreshed; opened ${name} again)`);
        await page.keyboard.press('Escape');
      }
    }
    throw new Error(`Quick Open did not open ${name}`);
  };
  /** Runs a command from the palette with the keyboard, once its row is the focused one. */
  const runCommand = async (title: string): Promise<void> => {
    await page.keyboard.press('Control+Shift+P');
    await quickInput().locator('input').waitFor({ state: 'visible' });
    await page.keyboard.type(title);
    await page.locator('.quick-input-list .monaco-list-row.focused', { hasText: title }).first().waitFor();
    await page.keyboard.press('Enter');
  };

  before(async () => {
    workbench = await openWorkbench({ out, home: path.join(out, 'home'), workspace });
    ({ page, actions } = workbench);
    await page.locator('.activitybar .action-item a[aria-label^="Testing"]').waitFor({ timeout: 120_000 });
  });

  after(() => workbench?.close());

  it('writes a spec from a verl dump without the command line: the format guessed, the starter fitted to the rows', async () => {
    await runCommand('HERALD: New Spec from Framework Logs');
    // code-server's file dialog is a quick input holding a path: replace it with the dump's first file.
    const box = quickInput().locator('input');
    await box.waitFor({ state: 'visible' });
    // The dialog writes its starting folder into the box after the box shows: a path typed over the
    // box before that was once merged with it ("Please enter a path that exists"). So wait for the
    // folder, and type again until the box holds exactly the path.
    for (const deadline = Date.now() + 10_000; (await box.inputValue()) === '' && Date.now() < deadline;) await page.waitForTimeout(100);
    const dumpFile = path.join(workspace, 'logs/dump/1.jsonl');
    for (let attempt = 0; attempt < 3 && (await box.inputValue()) !== dumpFile; attempt += 1) {
      if (attempt > 0) console.log(`      (the file dialog held ${JSON.stringify(await box.inputValue())}; typed the path again)`);
      await page.keyboard.press('Control+A');
      await page.keyboard.type(dumpFile);
    }
    assert.equal(await box.inputValue(), dumpFile);
    await page.keyboard.press('Enter');
    // The format: the guessed one is the first row, so Enter takes it.
    const guessed = page.locator('.quick-input-list .monaco-list-row.focused', { hasText: 'verl' }).first();
    // The dialog may still be completing the typed path when Enter arrives, and then takes it as
    // "go on typing": the path still stands in the box, so Enter is pressed again.
    const shown = await guessed.waitFor({ timeout: 20_000 }).then(() => true, () => false);
    if (!shown) {
      // What the window showed instead, for the record of a slow run.
      await shot(page, '01-format-not-shown-yet');
      if ((await box.inputValue().catch(() => '')) === dumpFile) await page.keyboard.press('Enter');
    }
    await guessed.waitFor({ timeout: 60_000 });
    assert.match(await guessed.innerText(), /the first records import as this/);
    await shot(page, '01-format-guessed');
    await page.keyboard.press('Enter');
    // The corpus: the file named like one, beside the log, is first.
    await page.locator('.quick-input-list .monaco-list-row.focused', { hasText: 'corpus.jsonl' }).first().waitFor();
    await page.keyboard.press('Enter');
    // The name.
    await quickInput().locator('input').waitFor({ state: 'visible' });
    await page.keyboard.press('Control+A');
    await page.keyboard.type('starter');
    await page.keyboard.press('Enter');
    const spec = path.join(workspace, 'logs/dump/starter.reward');
    await page.locator('.tab.active', { hasText: 'starter.reward' }).waitFor({ timeout: 60_000 });
    const text = fs.readFileSync(spec, 'utf8');
    assert.match(text, /^pool \w+ = "1\.jsonl" from verl\(\)$/m);
    assert.match(text, /# launder, fake_id left out: no row of this pool cites a passage \(0 of \d+\)\./);
    assert.match(text, /^ {2}attack same_final targets U$/m);
    // It audits, and its one attack has edits to test (no finding says it tests nothing).
    await statusBar('HERALD ').filter({ hasNotText: 'auditing' }).filter({ hasText: /expectation|audited/ }).first().waitFor({ timeout: 150_000 });
    await actions.toggleProblems();
    await page.locator('.markers-panel .monaco-list-row', { hasText: 'same_final' }).first().waitFor({ timeout: 60_000 });
    const rows = await actions.problemRows();
    assert.ok(!rows.some((r) => /same_final.*(nothing to edit|no isolated-eligible)/.test(r)), rows.join('\n'));
    await shot(page, '02-starter-on-search-r1');
    await actions.toggleProblems();
  });

  it('says at the attack why launder tests nothing: the dump has no citations', async () => {
    await openByKeyboard('first-try.reward');
    await actions.toggleProblems();
    const reason = page.locator('.markers-panel .monaco-list-row', { hasText: 'no citations' }).first();
    try {
      await reason.waitFor({ timeout: 150_000 });
    } catch (error) {
      // What the window showed instead: the panel's rows and the status bar, and a screenshot.
      await shot(page, '03-no-citations-not-shown');
      const status = await page.locator('.statusbar-item').allInnerTexts();
      throw new Error(`no 'no citations' row: problems ${JSON.stringify(await actions.problemRows())}, status bar ${JSON.stringify(status.filter((t) => t.includes('HERALD')))}: ${String(error)}`);
    }
    await statusBar('HERALD audited (no expectations); 2 of 2 attacks test nothing').waitFor();
    await shot(page, '03-no-citations-at-the-attack');
    await actions.toggleProblems();
    await actions.goTo(lineColumn(paperOnLogsText, 'attack launder', 'launder'));
    const hover = await actions.hover('no citations');
    assert.match(hover, /launder has nothing to edit/);
    await page.keyboard.press('Escape');
    // The pool line's hover gives the profile: what the rows hold, counted.
    await actions.goTo(lineColumn(paperOnLogsText, 'pool rollouts', 'rollouts'));
    const profile = await actions.hover('pool profile');
    assert.match(profile, /rows of 400 that have each part: .*citations 0/);
    await shot(page, '04-pool-profile-hover');
    await page.keyboard.press('Escape');
  });

  it('never shows the last good result after a typo: the status bar says not audited, with the error', async () => {
    await openByKeyboard('paper.reward');
    const holds = statusBar('HERALD').filter({ hasText: /\d+ of \d+ expectations hold/ });
    await holds.waitFor({ timeout: 150_000 });
    const paper = fs.readFileSync(path.join(workspace, 'paper.reward'), 'utf8');
    await actions.goTo(lineColumn(paper, 'answer', 'token_f1'));
    await page.keyboard.type('x');
    await page.keyboard.press('Control+S');
    await statusBar('HERALD not audited: 1 error').waitFor({ timeout: 60_000 });
    assert.ok(!(await page.locator('.statusbar-item', { hasText: 'expectations hold' }).isVisible()));
    const lenses = page.locator('.codelens-decoration');
    await lenses.filter({ hasText: 'not audited: 1 error' }).first().waitFor();
    assert.ok(!(await lenses.allInnerTexts()).some((l) => l.includes('✓')));
    await shot(page, '05-typo-not-audited');
    await page.keyboard.press('Control+Z');
    await page.keyboard.press('Control+S');
    await holds.waitFor({ timeout: 150_000 });
  });

  it('turns a red spec green with one action: the repair added, compared, and the failing expect moved to it', async () => {
    await openByKeyboard('red.reward');
    await statusBar('HERALD 1 of 1 expectation fails').waitFor({ timeout: 150_000 });
    await shot(page, '06-red');
    // The finding sits on the audit's `reward R0` line.
    await actions.goTo(lineColumn(redText, 'reward R0', 'R0', redText.slice(0, redText.indexOf('audit red')).split('\n').length));
    await page.keyboard.press('Control+.');
    const fix = page.locator('.action-widget .monaco-list-row', { hasText: 'and move 1 failing expect about R0 to it' }).first();
    await fix.waitFor();
    for (let step = 0; step < 10 && !(await fix.getAttribute('class'))?.includes('focused'); step += 1) await page.keyboard.press('ArrowDown');
    assert.match(await fix.innerText(), /^Add the observed minimal repair as a new reward R0_repair_L = R0 − 1\.2·L/);
    await shot(page, '07-repair-menu');
    await page.keyboard.press('Enter');
    await page.keyboard.press('Control+S');
    const file = path.join(workspace, 'red.reward');
    const deadline = Date.now() + 30_000;
    while (!fs.readFileSync(file, 'utf8').includes('R0_repair_L') && Date.now() < deadline) await page.waitForTimeout(200);
    const text = fs.readFileSync(file, 'utf8');
    assert.match(text, /\n\nreward R0_repair_L "[^"]*" = R0 - 1\.2 \* L\n/);
    assert.match(text, /expect asr\(R0_repair_L, launder, oracle_worst\) == 0/);
    await statusBar('HERALD 1 of 1 expectation holds').waitFor({ timeout: 150_000 });
    await shot(page, '08-green-after-one-action');
  });

  it('reaches every control of the report view with Tab, each with a name a screen reader reads', async () => {
    await runCommand('HERALD: Show Audit Report');
    const view = page.frameLocator('iframe.webview.ready').last().frameLocator('#active-frame');
    await view.locator('h1').first().waitFor({ timeout: 60_000 });
    const controls = view.locator('button, select, input, a[href], [role="button"], [tabindex="0"]');
    const names = await controls.evaluateAll((elements) => elements.map((e) => (e.getAttribute('aria-label') ?? e.textContent ?? '').trim()));
    assert.ok(names.length > 0);
    assert.deepEqual(names.filter((name) => name === ''), [], 'every control has a name');
    // Into the page with the keyboard: the report opens beside the spec, in the second editor group
    // (Ctrl+2 focuses it), and Tab moves the focus to its controls, one after another.
    await page.keyboard.press('Control+2');
    const focused = view.locator(':focus');
    const seen: string[] = [];
    for (let step = 0; step < 40 && seen.length < 5; step += 1) {
      await page.keyboard.press('Tab');
      if ((await focused.count()) === 0) continue;
      const name = await focused.first().evaluate((e) => (e.getAttribute('aria-label') ?? e.textContent ?? '').trim());
      if (!seen.includes(name)) seen.push(name);
    }
    assert.ok(seen.length >= 3, `Tab reached ${seen.length} controls of the report view: ${seen.join(' | ')}`);
    assert.ok(seen.every((name) => name !== ''), seen.join(' | '));
    await shot(page, '09-report-view-keyboard');
  });
});
