import { cp } from 'node:fs/promises';
import * as path from 'node:path';
import {
  commands, DiagnosticSeverity, languages, Range, TabInputCustom, TabInputNotebook, TabInputNotebookDiff, TabInputTerminal, TabInputText, TabInputTextDiff,
  TabInputWebview, Uri, ViewColumn, window, workspace, type Diagnostic, type Disposable, type ExtensionContext, type LogOutputChannel, type Tab, type TextEditor,
} from 'vscode';
import { heraldVersion, showReportCommand } from '../../server/src/contract/index';
import type { ExpectationTests } from './expectation-tests';
import { openWalkthroughReliably, type TabView, type WalkthroughWorkbench } from './walkthrough-opening';

// The "Get started with HERALD" walkthrough (contributes.walkthroughs) and the commands its steps
// call. The sample ships in the extension (walkthrough/sample: the paper's spec over a small
// synthetic world) and is copied once to the extension's storage, so it can be edited, repaired and
// audited without writing into the installed extension or the user's workspace.

export const walkthroughId = 'herald-tools.herald-reward#herald.gettingStarted';

/** The finding the walkthrough reads and repairs: an attack that beats the audited reward. */
const attackCode = 'attack-succeeds';

function codeOf(d: Diagnostic): string {
  return typeof d.code === 'object' ? String(d.code.value) : String(d.code ?? '');
}

class Sample {
  constructor(private readonly source: string, private readonly storage: Uri) {}

  /** The copy's spec; the version in the folder name gives a new release's sample a fresh copy. */
  get spec(): Uri {
    return Uri.joinPath(this.storage, `sample-${heraldVersion}`, 'paper.reward');
  }

  /** Copies what is missing (an edited copy is kept) and opens the spec. */
  async open(): Promise<TextEditor> {
    const target = path.dirname(this.spec.fsPath);
    await cp(this.source, target, { recursive: true, force: false, errorOnExist: false });
    return window.showTextDocument(await workspace.openTextDocument(this.spec), { preview: false });
  }

  /** The spec a step acts on: the sample when it is visible, else a visible spec, else the sample, opened. */
  async editor(): Promise<TextEditor> {
    const specs = window.visibleTextEditors.filter((e) => e.document.languageId === 'reward');
    return specs.find((e) => e.document.uri.fsPath === this.spec.fsPath) ?? specs[0] ?? this.open();
  }
}

/** The first finding to read: an attack that beats the audited reward, else the first warning or error. */
function findingOf(uri: Uri): Diagnostic | undefined {
  const ds = languages.getDiagnostics(uri).filter((d) => d.severity <= DiagnosticSeverity.Warning).sort((a, b) => a.range.start.compareTo(b.range.start));
  return ds.find((d) => codeOf(d) === attackCode) ?? ds[0];
}

/** Puts the cursor on the spec's finding and runs an editor command there (the hover, the quick fixes). */
async function atFinding(sample: Sample, command: string): Promise<void> {
  const editor = await sample.editor();
  const finding = findingOf(editor.document.uri);
  if (finding === undefined) {
    await window.showInformationMessage('The audit has not finished yet: the status bar shows it running. Try again when it reads "N of N expectations hold".');
    return;
  }
  await window.showTextDocument(editor.document, { viewColumn: editor.viewColumn ?? ViewColumn.Active, selection: new Range(finding.range.start, finding.range.start) });
  await commands.executeCommand(command);
}

const knownInputs = [TabInputText, TabInputTextDiff, TabInputCustom, TabInputWebview, TabInputNotebook, TabInputNotebookDiff, TabInputTerminal];

/** The workbench's tabs, their groups and the commands the opener needs, for `openWalkthroughReliably`. */
function workbenchFor(context: ExtensionContext, sample: Sample, log: LogOutputChannel): WalkthroughWorkbench {
  const views = new Map<TabView, Tab>();
  const displayName = (context.extension.packageJSON as { displayName?: unknown }).displayName;
  return {
    // The Welcome page titles a walkthrough's tab after its extension's display name.
    pageTitle: `Walkthrough: ${typeof displayName === 'string' ? displayName : context.extension.id}`,
    tabs: () => {
      views.clear();
      return window.tabGroups.all.flatMap((group) => group.tabs.map((tab) => {
        const view: TabView = { label: tab.label, knownInput: knownInputs.some((kind) => tab.input instanceof kind), active: tab.isActive, inActiveGroup: group.isActive };
        views.set(view, tab);
        return view;
      }));
    },
    close: async (tabs) => {
      await window.tabGroups.close(tabs.flatMap((view) => views.get(view) ?? []));
    },
    openWalkthrough: async () => {
      await commands.executeCommand('workbench.action.openWalkthrough', walkthroughId, false);
    },
    openFallback: async () => {
      await sample.open();
      await commands.executeCommand('markdown.showPreviewToSide', Uri.file(context.asAbsolutePath(path.join('walkthrough', 'open-sample.md'))));
    },
    wait: (ms) => new Promise((resolve) => setTimeout(resolve, ms)),
    log: (message) => log.info(message),
  };
}

export function registerWalkthrough(context: ExtensionContext, expectations: ExpectationTests, log: LogOutputChannel): Disposable[] {
  const sample = new Sample(context.asAbsolutePath(path.join('walkthrough', 'sample')), context.globalStorageUri);
  return [
    // The walkthrough's links run these `toSide:`, so what they open shows beside the walkthrough.
    commands.registerCommand('herald.openSample', async () => (await sample.open()).document.uri),
    commands.registerCommand('herald.getStarted', () => openWalkthroughReliably(workbenchFor(context, sample, log))),
    commands.registerCommand('herald.walkthrough.showFinding', () => atFinding(sample, 'editor.action.showHover')),
    commands.registerCommand('herald.walkthrough.showRepair', () => atFinding(sample, 'editor.action.quickFix')),
    commands.registerCommand('herald.walkthrough.showReport', async () => commands.executeCommand(showReportCommand, (await sample.editor()).document.uri)),
    commands.registerCommand('herald.walkthrough.runTests', async () => {
      const editor = await sample.editor();
      await commands.executeCommand('workbench.view.testing.focus');
      return expectations.runSpec(editor.document.uri);
    }),
  ];
}
