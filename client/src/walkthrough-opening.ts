// How "HERALD: Get Started" opens the walkthrough so that it opens every time. Pure (the workbench
// comes in as `WalkthroughWorkbench`), so a node test can drive it against a model of the workbench.
//
// Why it is needed: `workbench.action.openWalkthrough` (VS Code 1.100, code-server 4.100) first
// looks for a group whose active editor is the Welcome page, and when that page already shows a
// walkthrough at a step it returns without doing anything. A fresh profile opens the Welcome page on
// the editor's own first walkthrough, so the command silently did nothing until the user went back
// to the Welcome page's index. The command also fails (it throws inside the page) while the
// extension's walkthrough is not registered yet. And on a fresh profile the first Welcome page opened
// shows the editor's own first-run walkthrough ("Setup VS Code Web") whatever walkthrough was asked
// for (seen in code-server 4.100). So: close the Welcome pages first, open, check that *our*
// walkthrough (its tab title) came to the front, try again, else open the sample and the first page.

/** A tab as the extension API shows it. */
export interface TabView {
  readonly label: string;
  /** False when the API has no input type for the tab (the Welcome page is such a tab). */
  readonly knownInput: boolean;
  /** The active tab of its group. */
  readonly active: boolean;
  /** Its group is the active group. */
  readonly inActiveGroup: boolean;
}

/** The workbench as the opener uses it. */
export interface WalkthroughWorkbench {
  /** The tab title of the Welcome page showing our walkthrough (`Walkthrough: <extension display name>`). */
  readonly pageTitle: string;
  tabs(): readonly TabView[];
  close(tabs: readonly TabView[]): Promise<void>;
  /** Runs `workbench.action.openWalkthrough`; a throw is the command's failure. */
  openWalkthrough(): Promise<void>;
  /** Opens the sample spec and the walkthrough's first page as a Markdown preview. */
  openFallback(): Promise<void>;
  wait(ms: number): Promise<void>;
  log(message: string): void;
}

export type WalkthroughOutcome = 'walkthrough' | 'fallback';

// The Welcome page's English tab titles (VS Code's "Welcome" and "Walkthrough: {0}").
const welcomeTitle = 'Welcome';
const walkthroughTitlePrefix = 'Walkthrough: ';

/** The Welcome page's tab, whichever walkthrough it shows. */
export function isWelcomePage(tab: TabView): boolean {
  return !tab.knownInput && (tab.label === welcomeTitle || tab.label.startsWith(walkthroughTitlePrefix));
}

/** The Welcome pages to close before opening: each can swallow the command while it shows a walkthrough step. */
export function welcomePagesToClose(tabs: readonly TabView[]): TabView[] {
  return tabs.filter(isWelcomePage);
}

/**
 * What the front tab of the active group shows: our walkthrough (its tab is titled `pageTitle`),
 * another walkthrough (the fresh profile's "Walkthrough: Setup VS Code Web"), the Welcome page still
 * titled "Welcome" (a page switches to a walkthrough after it opens, and one already open may keep
 * that title), or no Welcome page.
 */
export type FrontPage = 'ours' | 'other walkthrough' | 'welcome' | 'none';

export function frontPage(tabs: readonly TabView[], pageTitle: string): FrontPage {
  const front = tabs.find((tab) => tab.active && tab.inActiveGroup);
  if (front === undefined || !isWelcomePage(front)) return 'none';
  return front.label === pageTitle ? 'ours' : front.label === welcomeTitle ? 'welcome' : 'other walkthrough';
}

export interface OpenOptions {
  /** Opening attempts before the fallback. */
  readonly attempts: number;
  /** How long one attempt waits for the page to be titled after a walkthrough, and how often it looks. */
  readonly settleMs: number;
  readonly pollMs: number;
}

export const defaultOpenOptions: OpenOptions = { attempts: 3, settleMs: 1500, pollMs: 100 };

/**
 * Waits for the page to settle and says what is in front: another walkthrough ends the wait early.
 * On a fresh profile the page opened first shows the editor's own walkthrough while the tab API
 * still calls it "Welcome" (code-server 4.100), so "Welcome" confirms nothing on a first attempt.
 */
async function settledFront(workbench: WalkthroughWorkbench, options: OpenOptions): Promise<FrontPage> {
  for (let waited = 0; ; waited += options.pollMs) {
    const front = frontPage(workbench.tabs(), workbench.pageTitle);
    if (front === 'ours' || front === 'other walkthrough' || waited >= options.settleMs) return front;
    await workbench.wait(options.pollMs);
  }
}

/**
 * Opens the walkthrough, or the fallback when it does not come to the front; logs each step. A page
 * titled after ours confirms it at once; one still titled "Welcome" is opened once more (closed and
 * opened: the second open is never taken by the first-run walkthrough) and then trusted.
 */
export async function openWalkthroughReliably(workbench: WalkthroughWorkbench, options: OpenOptions = defaultOpenOptions): Promise<WalkthroughOutcome> {
  for (let attempt = 1; attempt <= options.attempts; attempt += 1) {
    const blocking = welcomePagesToClose(workbench.tabs());
    if (blocking.length > 0) {
      workbench.log(`Get Started: closing ${blocking.length} Welcome page tab(s) (${blocking.map((t) => `"${t.label}"`).join(', ')}): an open walkthrough keeps the command from switching`);
      await workbench.close(blocking);
    }
    try {
      await workbench.openWalkthrough();
    } catch (error) {
      workbench.log(`Get Started: attempt ${attempt}: opening the walkthrough failed: ${error instanceof Error ? error.message : String(error)}`);
      continue;
    }
    const front = await settledFront(workbench, options);
    if (front === 'ours' || (front === 'welcome' && attempt > 1)) {
      workbench.log(`Get Started: the walkthrough shows (attempt ${attempt})`);
      return 'walkthrough';
    }
    const label = workbench.tabs().find((tab) => tab.active && tab.inActiveGroup)?.label;
    workbench.log(front === 'welcome'
      ? `Get Started: attempt ${attempt}: a Welcome page opened, but its title does not say which walkthrough it shows: opening it once more`
      : `Get Started: attempt ${attempt}: the walkthrough did not come to the front within ${options.settleMs} ms (in front: ${label === undefined ? 'nothing' : `"${label}"`})`);
  }
  workbench.log('Get Started: opening the sample spec and the walkthrough\'s first page instead');
  await workbench.openFallback();
  return 'fallback';
}
