import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import {
  frontPage, isWelcomePage, openWalkthroughReliably, welcomePagesToClose, type TabView, type WalkthroughWorkbench,
} from '../../client/src/walkthrough-opening.js';

// "HERALD: Get Started" (client/src/walkthrough-opening.ts) against a model of the workbench that
// behaves like code-server 4.100's `workbench.action.openWalkthrough`: while the active editor of a
// group is the Welcome page showing a walkthrough step, the command returns and nothing changes.

const tab = (label: string, more: Partial<TabView> = {}): TabView => ({ label, knownInput: false, active: true, inActiveGroup: true, ...more });

/** A one-group workbench: `front` is the active tab's label and whether a Welcome page there shows a step. */
const pageTitle = 'Walkthrough: HERALD Reward Audit';

class ModelWorkbench implements WalkthroughWorkbench {
  readonly logged: string[] = [];
  readonly calls: string[] = [];
  constructor(
    private open: TabView[],
    private welcomeAtStep: boolean,
    private readonly failures: number = 0,
  ) {}

  private failed = 0;
  firstRun = false;
  /** What the tab API calls the first-run page: code-server 4.100 says "Welcome" while it shows its own walkthrough. */
  firstRunLabel = 'Walkthrough: Setup VS Code Web';

  tabs(): readonly TabView[] {
    return this.open;
  }

  async close(tabs: readonly TabView[]): Promise<void> {
    this.calls.push(`close ${tabs.map((t) => t.label).join(',')}`);
    this.open = this.open.filter((t) => !tabs.includes(t));
    if (!this.open.some((t) => t.active) && this.open.length > 0) this.open = [...this.open.slice(0, -1), { ...this.open[this.open.length - 1]!, active: true }];
    if (!this.open.some(isWelcomePage)) this.welcomeAtStep = false;
  }

  async openWalkthrough(): Promise<void> {
    this.calls.push('open');
    if (this.failed < this.failures) {
      this.failed += 1;
      throw new Error('Could not find category with ID: herald-tools.herald-reward#herald.gettingStarted');
    }
    const front = this.open.find((t) => t.active);
    if (front !== undefined && isWelcomePage(front) && this.welcomeAtStep) return;
    // A fresh profile's first Welcome page shows the editor's own walkthrough, whatever was asked for.
    const shown = this.firstRun ? this.firstRunLabel : pageTitle;
    this.firstRun = false;
    this.open = [...this.open.map((t) => ({ ...t, active: false })), tab(shown)];
    this.welcomeAtStep = true;
  }

  async openFallback(): Promise<void> {
    this.calls.push('fallback');
  }

  readonly pageTitle = pageTitle;

  async wait(): Promise<void> {}

  log(message: string): void {
    this.logged.push(message);
  }
}

const quick = { attempts: 2, settleMs: 300, pollMs: 100 };

describe('HERALD: Get Started', () => {
  it('tells the Welcome page from other tabs by its input and title', () => {
    assert.equal(isWelcomePage(tab('Welcome')), true);
    assert.equal(isWelcomePage(tab('Walkthrough: Get Started with VS Code for the Web')), true);
    assert.equal(isWelcomePage(tab('Welcome', { knownInput: true })), false, 'a file named Welcome');
    assert.equal(isWelcomePage(tab('Settings')), false);
    assert.deepEqual(welcomePagesToClose([tab('paper.reward', { knownInput: true }), tab('Welcome', { active: false })]).map((t) => t.label), ['Welcome']);
  });

  it('tells what the front tab of the active group shows: ours, another walkthrough, the Welcome page, or none', () => {
    assert.equal(frontPage([tab('Walkthrough: HERALD Reward Audit')], pageTitle), 'ours');
    assert.equal(frontPage([tab('Walkthrough: HERALD Reward Audit', { inActiveGroup: false })], pageTitle), 'none');
    assert.equal(frontPage([tab('Walkthrough: HERALD Reward Audit', { active: false }), tab('paper.reward', { knownInput: true })], pageTitle), 'none');
    assert.equal(frontPage([tab('Walkthrough: Setup VS Code Web')], pageTitle), 'other walkthrough', "the editor's own walkthrough is not ours");
    assert.equal(frontPage([tab('Welcome')], pageTitle), 'welcome');
  });

  it("opens ours when a fresh profile's first Welcome page shows the editor's own walkthrough instead", async () => {
    const workbench = new ModelWorkbench([], false);
    workbench.firstRun = true;
    assert.equal(await openWalkthroughReliably(workbench, quick), 'walkthrough');
    assert.deepEqual(workbench.calls, ['open', 'close Walkthrough: Setup VS Code Web', 'open']);
    assert.deepEqual(workbench.tabs().map((t) => t.label), [pageTitle]);
    assert.match(workbench.logged.join('\n'), /attempt 1: the walkthrough did not come to the front within 300 ms \(in front: "Walkthrough: Setup VS Code Web"\)/);
  });

  it('opens over the editor\'s own walkthrough in front at a step (the fresh-profile case) by closing it first', async () => {
    const workbench = new ModelWorkbench([tab('Walkthrough: Get Started with VS Code for the Web')], true);
    assert.equal(await openWalkthroughReliably(workbench, quick), 'walkthrough');
    assert.deepEqual(workbench.calls, ['close Walkthrough: Get Started with VS Code for the Web', 'open']);
    assert.deepEqual(workbench.tabs().map((t) => t.label), ['Walkthrough: HERALD Reward Audit']);
    assert.match(workbench.logged.join('\n'), /closing 1 Welcome page tab/);
  });

  it('opens once more when the page that opened is titled "Welcome" (the tab API of code-server on a fresh profile), then trusts it', async () => {
    const workbench = new ModelWorkbench([], false);
    workbench.firstRun = true;
    workbench.firstRunLabel = 'Welcome';
    assert.equal(await openWalkthroughReliably(workbench, quick), 'walkthrough');
    assert.deepEqual(workbench.calls, ['open', 'close Welcome', 'open']);
    assert.match(workbench.logged.join('\n'), /attempt 1: a Welcome page opened, but its title does not say which walkthrough it shows: opening it once more/);
  });

  it('opens straight away when no Welcome page is open, and closes nothing else', async () => {
    const workbench = new ModelWorkbench([tab('paper.reward', { knownInput: true })], false);
    assert.equal(await openWalkthroughReliably(workbench, quick), 'walkthrough');
    assert.deepEqual(workbench.calls, ['open']);
  });

  it('tries again when the command throws (the walkthrough not registered yet)', async () => {
    const workbench = new ModelWorkbench([], false, 1);
    assert.equal(await openWalkthroughReliably(workbench, quick), 'walkthrough');
    assert.deepEqual(workbench.calls, ['open', 'open']);
    assert.match(workbench.logged[0]!, /attempt 1: opening the walkthrough failed: Could not find category/);
  });

  it('opens the sample and the first page when the walkthrough never comes to the front, and says so in the log', async () => {
    const workbench = new ModelWorkbench([], false, 5);
    assert.equal(await openWalkthroughReliably(workbench, quick), 'fallback');
    assert.deepEqual(workbench.calls, ['open', 'open', 'fallback']);
    assert.match(workbench.logged.at(-1)!, /opening the sample spec and the walkthrough's first page instead/);
  });
});
