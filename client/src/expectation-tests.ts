import * as path from 'node:path';
import {
  DiagnosticSeverity, languages, Location, Range, TestMessage, TestRunProfileKind, TestRunRequest, tests, Uri, workspace,
  type CancellationToken, type Disposable, type TestController, type TestItem, type TestRun, type TextDocument,
} from 'vscode';
import { reportRequest, runAuditRequest, type AuditStatusParams, type ExpectationLine, type ReportResult } from '../../server/src/contract/index';
import { expectationLabel, expectationVerdict, notAuditedVerdict, type ExpectationState } from './expectation-results';
import type { ServerSession } from './server-session';
import { specOutline } from './spec-outline';

// Every `expect` line of a spec's audits is a test in VS Code's Test Explorer: one item per spec
// with an item per line under it. The server lists the lines (`expectationsRequest`, parsing only);
// running a spec runs its audits (`runAuditRequest`, as "HERALD: Run Audit" does) and marks each
// line passed or failed with the observed figure.

/** How one line fared, as `runSpec` answers (the walkthrough and the API tests read it). */
export interface ExpectationOutcome {
  readonly audit: string;
  readonly label: string;
  /** Zero-based line of the statement. */
  readonly line: number;
  readonly state: ExpectationState | 'skipped';
  readonly message: string;
}

interface AuditAnswer {
  readonly result: ReportResult | null;
  /** Why there is no report for the current text, if there is none. */
  readonly notAudited: string;
  readonly durationMs: number;
}

const specGlob = '**/*.reward';
/** Typing pause after which an open spec's items follow its text. */
const typingPauseMs = 400;

export class ExpectationTests implements Disposable {
  private readonly controller: TestController;
  private readonly subscriptions: Disposable[] = [];
  private readonly timers = new Map<string, ReturnType<typeof setTimeout>>();
  /** The statement behind each line's item, to match it with the audit's report. */
  private readonly lines = new WeakMap<TestItem, ExpectationLine>();
  /** The server's last `notAudited` status per spec (by item id), until an audit of it finishes: why a run of it has no report. */
  private readonly notAudited = new Map<string, AuditStatusParams>();
  /** Specs a run of the Test Explorer is auditing: it gives their verdicts itself. */
  private readonly running = new Set<string>();

  constructor(private readonly session: ServerSession) {
    this.controller = tests.createTestController('herald.expectations', 'HERALD expectations');
    // Called with no item when the Test Explorer first shows, and with a spec when it is expanded.
    this.controller.resolveHandler = async (item) => {
      if (item === undefined) await this.discover();
      else await this.refresh(item.uri);
    };
    this.controller.refreshHandler = () => this.discover();
    this.controller.createRunProfile('Run the audit', TestRunProfileKind.Run, async (request, token) => {
      await this.run(request, token);
    }, true);
    const watcher = workspace.createFileSystemWatcher(specGlob);
    this.subscriptions.push(
      this.controller, watcher,
      watcher.onDidCreate((uri) => this.refresh(uri)),
      watcher.onDidChange((uri) => this.refresh(uri)),
      watcher.onDidDelete((uri) => this.controller.items.delete(uri.toString())),
      workspace.onDidOpenTextDocument((doc) => this.opened(doc)),
      workspace.onDidChangeTextDocument((e) => this.edited(e.document)),
      workspace.onDidCloseTextDocument((doc) => this.closed(doc)),
      session.onAuditStatus((status) => this.statusChanged(status)),
    );
    for (const doc of workspace.textDocuments) this.opened(doc);
  }

  dispose(): void {
    for (const timer of this.timers.values()) clearTimeout(timer);
    for (const s of this.subscriptions) s.dispose();
  }

  /** Runs the expectations of one spec through the Test Explorer, as its run button does. */
  async runSpec(uri: Uri, token?: CancellationToken): Promise<ExpectationOutcome[]> {
    const spec = await this.refresh(uri);
    if (spec === undefined) return [];
    return this.run(new TestRunRequest([spec]), token);
  }

  /** Every spec in the workspace folders; a spec outside them (the walkthrough's sample) joins when opened. */
  private async discover(): Promise<void> {
    const files = await workspace.findFiles(specGlob, '**/node_modules/**');
    await Promise.all(files.map((uri) => this.refresh(uri)));
  }

  private opened(doc: TextDocument): void {
    if (doc.languageId === 'reward' && doc.uri.scheme === 'file') this.refresh(doc.uri).catch(() => undefined);
  }

  /**
   * A spec outside the workspace folders (the walkthrough's sample, under the extension's
   * globalStorage) is listed only while it is open: closed, it leaves the Test Explorer.
   */
  private closed(doc: TextDocument): void {
    if (doc.languageId !== 'reward' || doc.uri.scheme !== 'file' || workspace.getWorkspaceFolder(doc.uri) !== undefined) return;
    const key = doc.uri.toString();
    clearTimeout(this.timers.get(key));
    this.timers.delete(key);
    this.notAudited.delete(key);
    this.controller.items.delete(key);
  }

  /**
   * The server audits open specs on its own (on save, after typing): when it says one is not audited
   * (errors in it), its lines stop showing the last run's verdicts and are marked errored with the
   * errors; when an audit of it next finishes, they get that audit's verdicts.
   */
  private statusChanged(status: AuditStatusParams): void {
    const uri = Uri.parse(status.uri);
    const key = uri.toString();
    const spec = this.running.has(key) ? undefined : this.controller.items.get(key);
    if (status.state === 'notAudited') {
      const earlier = this.notAudited.get(key);
      this.notAudited.set(key, status);
      // Marked once as the errors come (and again when they are fixed): not one test run per keystroke.
      if (spec !== undefined && (earlier === undefined || (earlier.errors === undefined) !== (status.errors === undefined))) this.mark(spec, status);
      return;
    }
    if ((status.state !== 'passed' && status.state !== 'failed') || !this.notAudited.delete(key) || spec === undefined) return;
    this.markFromReport(spec, uri).catch(() => undefined);
  }

  /** Every line of the spec, errored (or skipped) as the not-audited status says: no line keeps a passed mark. */
  private mark(spec: TestItem, status: AuditStatusParams): void {
    const verdict = notAuditedVerdict(status);
    if (verdict === undefined) return;
    const run = this.controller.createTestRun(new TestRunRequest([spec]), 'not audited');
    for (const item of childrenOf(spec)) {
      const line = this.lines.get(item);
      if (line !== undefined) record(run, item, line, verdict, 0);
    }
    run.end();
  }

  /**
   * The lines' verdicts from the report the status is about: the audit that just finished, or the last
   * one again once the errors typed since are gone (a line it does not have is errored).
   */
  private async markFromReport(spec: TestItem, uri: Uri): Promise<void> {
    const client = this.session.running;
    if (client === undefined) return;
    const result = await client.sendRequest(reportRequest, { uri: client.code2ProtocolConverter.asUri(uri) });
    if (result === null) return;
    const run = this.controller.createTestRun(new TestRunRequest([spec]), 'audited');
    for (const item of childrenOf(spec)) {
      const line = this.lines.get(item);
      if (line !== undefined) record(run, item, line, expectationVerdict(line, result, 'not audited'), 0);
    }
    run.end();
  }

  private edited(doc: TextDocument): void {
    if (doc.languageId !== 'reward' || doc.uri.scheme !== 'file') return;
    const key = doc.uri.toString();
    clearTimeout(this.timers.get(key));
    this.timers.set(key, setTimeout(() => {
      this.timers.delete(key);
      this.refresh(doc.uri).catch(() => undefined);
    }, typingPauseMs));
  }

  /**
   * Lists the spec's expect lines again. A spec without any has no item; while the server is not
   * running the items stay as they are (the Test Explorer's refresh button asks again).
   */
  private async refresh(uri: Uri | undefined): Promise<TestItem | undefined> {
    if (uri === undefined) return undefined;
    const key = uri.toString();
    const outline = await specOutline(this.session, uri);
    if (outline === undefined) return this.controller.items.get(key);
    const lines = outline === 'unreadable' ? [] : outline.expectations;
    if (lines.length === 0) {
      this.controller.items.delete(key);
      return undefined;
    }
    const spec = this.controller.items.get(key) ?? this.controller.createTestItem(key, path.basename(uri.fsPath), uri);
    const folder = workspace.getWorkspaceFolder(uri);
    spec.description = folder === undefined ? path.dirname(uri.fsPath) : path.dirname(workspace.asRelativePath(uri, false)).replace(/^\.$/, '');
    const seen = new Map<string, number>();
    spec.children.replace(lines.map((line) => {
      // Ids follow the statement, not its line, so results survive lines moving; repeats are numbered.
      const base = `${key}#${line.audit}:${line.text}`;
      const n = (seen.get(base) ?? 0) + 1;
      seen.set(base, n);
      const item = this.controller.createTestItem(n === 1 ? base : `${base}#${n}`, expectationLabel(line), uri);
      item.range = new Range(line.range.start.line, line.range.start.character, line.range.end.line, line.range.end.character);
      item.description = `audit ${line.audit}`;
      this.lines.set(item, line);
      return item;
    }));
    this.controller.items.add(spec);
    return spec;
  }

  /** The run profile: each spec the request names is audited once, and its chosen lines get a verdict. */
  private async run(request: TestRunRequest, token?: CancellationToken): Promise<ExpectationOutcome[]> {
    const run = this.controller.createTestRun(request);
    const outcomes: ExpectationOutcome[] = [];
    try {
      for (const [specUri, chosen] of this.chosenBySpec(request)) {
        // This run gives the spec's verdicts itself: the statuses of the audit it asks for mark nothing meanwhile.
        this.running.add(specUri);
        try {
          outcomes.push(...await this.runSpecLines(run, specUri, chosen, token));
        } finally {
          this.running.delete(specUri);
        }
      }
    } finally {
      run.end();
    }
    return outcomes;
  }

  private async runSpecLines(run: TestRun, specUri: string, chosen: Set<string> | 'all', token: CancellationToken | undefined): Promise<ExpectationOutcome[]> {
    const spec = await this.refresh(Uri.parse(specUri));
    const items = spec === undefined ? [] : childrenOf(spec).filter((item) => chosen === 'all' || chosen.has(item.id));
    for (const item of items) run.started(item);
    if (token?.isCancellationRequested) {
      for (const item of items) run.skipped(item);
      return [];
    }
    const answer = await this.audit(Uri.parse(specUri), token);
    return items.flatMap((item) => {
      const line = this.lines.get(item);
      if (line === undefined) return [];
      const verdict = token?.isCancellationRequested ? { state: 'skipped' as const, message: 'cancelled' } : expectationVerdict(line, answer.result, answer.notAudited);
      return [record(run, item, line, verdict, answer.durationMs)];
    });
  }

  /** The specs a request names, each with the lines it names ('all' for a whole spec), minus the excluded. */
  private chosenBySpec(request: TestRunRequest): Map<string, Set<string> | 'all'> {
    const excluded = new Set((request.exclude ?? []).map((item) => item.id));
    const chosen = new Map<string, Set<string> | 'all'>();
    const roots: TestItem[] = [];
    this.controller.items.forEach((item) => roots.push(item));
    for (const item of request.include ?? roots) {
      if (excluded.has(item.id) || item.uri === undefined) continue;
      const key = item.uri.toString();
      const earlier = chosen.get(key);
      if (item.parent === undefined) {
        const lines = childrenOf(item).filter((child) => !excluded.has(child.id));
        chosen.set(key, excluded.size === 0 ? 'all' : new Set(lines.map((child) => child.id)));
      } else if (earlier !== 'all') {
        chosen.set(key, new Set([...(earlier ?? []), item.id]));
      }
    }
    return chosen;
  }

  /** Audits the spec now, whatever `herald.audit.run` says, and says why when no report came back for its current text. */
  private async audit(uri: Uri, token: CancellationToken | undefined): Promise<AuditAnswer> {
    const started = Date.now();
    const client = this.session.running;
    if (client === undefined) return { result: null, notAudited: 'the HERALD language server is not running: run "HERALD: Restart Language Server"', durationMs: 0 };
    // The server audits the documents it has open: opening the spec hands it over (a spec the user has
    // open keeps its unsaved edits).
    const wasOpen = workspace.textDocuments.some((d) => d.uri.toString() === uri.toString());
    const doc = await workspace.openTextDocument(uri);
    // An older report stays when the current text could not be audited: it must not pass as today's.
    const current = (result: ReportResult | null): result is ReportResult => result !== null && result.version === doc.version;
    const ask = (): Promise<ReportResult | null> => client.sendRequest(runAuditRequest, { uri: client.code2ProtocolConverter.asUri(uri) }, token);
    let result = await ask();
    // Opening the spec may start an audit of its own (herald.audit.run), which replaces the one asked
    // for; the server then answers without a report, so ask once more.
    if (!wasOpen && !current(result) && token?.isCancellationRequested !== true) result = await ask();
    const durationMs = Date.now() - started;
    const key = uri.toString();
    if (current(result)) {
      this.notAudited.delete(key);
      return { result, notAudited: '', durationMs };
    }
    // The server says why when the spec has errors ("not audited: 2 errors; line 5: …"), before it answers.
    const said = this.notAudited.get(key);
    if (said?.errors !== undefined) return { result: null, notAudited: said.message, durationMs };
    const error = languages.getDiagnostics(uri).find((d) => d.severity === DiagnosticSeverity.Error);
    const notAudited = error === undefined
      ? 'not audited: see the Problems panel and the HERALD output for why'
      : `not audited: line ${error.range.start.line + 1}: ${error.message}`;
    return { result: null, notAudited, durationMs };
  }
}

function childrenOf(item: TestItem): TestItem[] {
  const children: TestItem[] = [];
  item.children.forEach((child) => children.push(child));
  return children;
}

/** Marks the item in the run, with the observed figure as its output or message. */
function record(run: TestRun, item: TestItem, line: ExpectationLine, verdict: { state: ExpectationOutcome['state']; message: string }, durationMs: number): ExpectationOutcome {
  const location = item.uri === undefined || item.range === undefined ? undefined : new Location(item.uri, item.range);
  const message = (): TestMessage => {
    const m = new TestMessage(verdict.message);
    if (location !== undefined) m.location = location;
    return m;
  };
  switch (verdict.state) {
    case 'passed':
      run.appendOutput(`${item.label}: ${verdict.message}\r\n`, location, item);
      run.passed(item, durationMs);
      break;
    case 'failed':
      run.failed(item, message(), durationMs);
      break;
    case 'errored':
      run.errored(item, message(), durationMs);
      break;
    case 'skipped':
      run.skipped(item);
      break;
  }
  return { audit: line.audit, label: item.label, line: line.range.start.line, state: verdict.state, message: verdict.message };
}
