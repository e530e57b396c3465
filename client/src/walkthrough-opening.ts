// How "HERALD: Get Started" opens the walkthrough so that it opens every time. Pure (the workbench
// comes in as `WalkthroughWorkbench`), so a node test can drive it against a model of the workbench.
//
// Why it is needed: `workbench.action.openWalkthrough` (VS Code 1.100, code-server 4.100) first
// looks for a group whose active editor is the Welcome page, and when that page already shows a
// walkthrough at a step it returns without doing anything. A fresh profile opens the Welcome page on
// the editor's own first walkthrough, so the command silently did nothing until the user went back
// to the Welcome page's index. The command also fails (it throws inside the page) while the
// extension's walkthrough is not registered yet. So: close the Welcome pages first, open, check that
// a Welcome page came to the front, try again once, else open the sample and the first page as text.

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

/** A Welcome page came to the front of the active group: the walkthrough is showing. */
export function walkthroughShows(tabs: readonly TabView[]): boolean {
  return tabs.some((tab) => tab.active && tab.inActiveGroup && isWelcomePage(tab));
}

export interface OpenOptions {
  /** Opening attempts before the fallback. */
  readonly attempts: number;
  /** How long one attempt waits for the page to come to the front, and how often it looks. */
  readonly settleMs: number;
  readonly pollMs: number;
}

export const defaultOpenOptions: OpenOptions = { attempts: 2, settleMs: 3000, pollMs: 100 };

async function frontWithin(workbench: WalkthroughWorkbench, options: OpenOptions): Promise<boolean> {
  for (let waited = 0; ; waited += options.pollMs) {
    if (walkthroughShows(workbench.tabs())) return true;
    if (waited >= options.settleMs) return false;
    await workbench.wait(options.pollMs);
  }
}

/** Opens the walkthrough, or the fallback when it does not come to the front; logs each step. */
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
    if (await frontWithin(workbench, options)) {
      workbench.log(`Get Started: the walkthrough shows (attempt ${attempt})`);
      return 'walkthrough';
    }
    workbench.log(`Get Started: attempt ${attempt}: no Welcome page came to the front within ${options.settleMs} ms`);
  }
  workbench.log('Get Started: opening the sample spec and the walkthrough\'s first page instead');
  await workbench.openFallback();
  return 'fallback';
}
