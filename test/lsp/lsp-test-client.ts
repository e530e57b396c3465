import { fork, spawn, type ChildProcess } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { pathToFileURL } from 'node:url';
import {
  ConfigurationRequest, createProtocolConnection, DiagnosticRefreshRequest, DidChangeConfigurationNotification, DidChangeTextDocumentNotification,
  DidChangeWatchedFilesNotification, DidCloseTextDocumentNotification, DidOpenTextDocumentNotification, ExitNotification, InitializedNotification,
  InitializeRequest, IPCMessageReader, IPCMessageWriter, LogMessageNotification, MessageType, PublishDiagnosticsNotification, RegistrationRequest, SemanticTokensRefreshRequest, CodeLensRefreshRequest,
  ShutdownRequest, StreamMessageReader, StreamMessageWriter, WorkDoneProgressCreateRequest, type InitializeParams,
  type ClientCapabilities, type FileChangeType, type InitializeResult, type ProtocolConnection, type PublishDiagnosticsParams, type Range, type TextEdit,
} from 'vscode-languageserver-protocol/node';
import { LineIndex } from '../../server/src/problems/line-index.js';
import { auditStatusNotification, type AuditStatusParams } from '../../server/src/contract/protocol.js';

/** The bundled server the extension ships; tests run it as a real child process. */
export const serverPath = path.resolve(__dirname, '../../../dist/server.js');
export const repoRoot = path.resolve(__dirname, '../../..');

/** How long an awaited event may take before the test fails with a message instead of hanging. */
const eventTimeoutMs = 10_000;

/** What VS Code declares: pull diagnostics with refresh, configuration, markdown, snippets. */
export const pullClientCapabilities: ClientCapabilities = {
  workspace: {
    configuration: true,
    didChangeConfiguration: { dynamicRegistration: true },
    didChangeWatchedFiles: { dynamicRegistration: true },
    diagnostics: { refreshSupport: true },
  },
  textDocument: {
    synchronization: { dynamicRegistration: false, didSave: true },
    diagnostic: { dynamicRegistration: false, relatedDocumentSupport: false },
    publishDiagnostics: { relatedInformation: true, versionSupport: true, tagSupport: { valueSet: [1, 2] }, codeDescriptionSupport: true, dataSupport: true },
    hover: { contentFormat: ['markdown', 'plaintext'] },
    completion: { completionItem: { snippetSupport: true, documentationFormat: ['markdown', 'plaintext'] } },
    documentSymbol: { hierarchicalDocumentSymbolSupport: true },
    rename: { prepareSupport: true },
    semanticTokens: {
      requests: { full: true },
      tokenTypes: [],
      tokenModifiers: [],
      formats: ['relative'],
    },
  },
};

/** A push-only client without workspace/configuration and with plain-text hovers (like eglot 1.9). */
export const pushClientCapabilities: ClientCapabilities = {
  workspace: { didChangeWatchedFiles: { dynamicRegistration: false } },
  textDocument: {
    synchronization: { dynamicRegistration: false, didSave: true },
    publishDiagnostics: { relatedInformation: true, tagSupport: { valueSet: [1, 2] } },
    hover: { contentFormat: ['plaintext'] },
    completion: { completionItem: { snippetSupport: false } },
  },
};

interface Waiter<T> {
  readonly predicate: (value: T) => boolean;
  readonly resolve: (value: T) => void;
  readonly reject: (error: Error) => void;
  readonly timer: ReturnType<typeof setTimeout>;
}

/** Promises for events that have not happened yet; register before triggering the event. */
class Events<T> {
  private readonly waiters = new Set<Waiter<T>>();

  constructor(private readonly what: string) {}

  emit(value: T): void {
    for (const waiter of [...this.waiters]) {
      if (!waiter.predicate(value)) continue;
      clearTimeout(waiter.timer);
      this.waiters.delete(waiter);
      waiter.resolve(value);
    }
  }

  next(predicate: (value: T) => boolean = () => true): Promise<T> {
    return new Promise<T>((resolve, reject) => {
      const timer = setTimeout(() => {
        this.waiters.delete(waiter);
        reject(new Error(`no ${this.what} within ${eventTimeoutMs} ms`));
      }, eventTimeoutMs);
      const waiter: Waiter<T> = { predicate, resolve, reject, timer };
      this.waiters.add(waiter);
    });
  }

  failAll(error: Error): void {
    for (const waiter of this.waiters) {
      clearTimeout(waiter.timer);
      waiter.reject(error);
    }
    this.waiters.clear();
  }
}

export interface TestClientOptions {
  readonly capabilities: ClientCapabilities;
  /** The `herald` section returned for workspace/configuration requests. */
  readonly settings?: Record<string, unknown>;
  /** `stdio` like Neovim and Emacs (the default), or `node-ipc` like VS Code's client. */
  readonly transport?: 'stdio' | 'node-ipc';
  /**
   * Workspace folders and initialization options, as a client with a workspace sends them. Without
   * it the client says the workspace is trusted (`workspaceTrusted: true`, as VS Code does for a
   * trusted one); given, it is sent as it is, so a test of an editor that says nothing says nothing.
   */
  readonly workspace?: Pick<InitializeParams, 'workspaceFolders' | 'initializationOptions'>;
  /** Another build's server bundle (benchmarks compare builds); `serverPath` by default. */
  readonly server?: string;
  /** Environment variables set for the server beside the test's own (`HERALD_WORKER_HEAP_MIB`). */
  readonly env?: Readonly<Record<string, string>>;
}

/** A minimal LSP client over stdio: enough protocol to drive the server the way an editor does. */
export class TestClient {
  readonly diagnostics = new Events<PublishDiagnosticsParams>('publishDiagnostics');
  readonly refreshes = new Events<void>('workspace/diagnostic/refresh');
  /** Errors the server logged: a handler that threw and was answered with an empty result. */
  readonly loggedErrors: string[] = [];
  readonly registrations: string[] = [];
  private readonly registrationEvents = new Events<string>('client/registerCapability');
  readonly configurationRequests: (string | undefined)[] = [];
  codeLensRefreshes = 0;
  settings: Record<string, unknown>;
  initializeResult: InitializeResult | undefined;
  private readonly exited: Promise<number | null>;

  /** The server's process: for tests of how it ends (its stdin closed, a signal). */
  readonly server: ChildProcess;

  private constructor(readonly connection: ProtocolConnection, child: ChildProcess, options: TestClientOptions) {
    this.server = child;
    this.settings = options.settings ?? {};
    this.exited = new Promise((resolve) => child.once('exit', (code) => resolve(code)));
    child.once('exit', (code) => {
      const error = new Error(`the server exited (code ${code})`);
      this.diagnostics.failAll(error);
      this.refreshes.failAll(error);
      this.registrationEvents.failAll(error);
    });
    connection.onNotification(PublishDiagnosticsNotification.type, (p) => this.diagnostics.emit(p));
    connection.onNotification(LogMessageNotification.type, (p) => {
      if (p.type === MessageType.Error) this.loggedErrors.push(p.message);
    });
    connection.onRequest(ConfigurationRequest.type, (p) =>
      p.items.map((item) => {
        this.configurationRequests.push(item.scopeUri);
        return item.section === 'herald' ? this.settings : null;
      }),
    );
    connection.onRequest(RegistrationRequest.type, (p) => {
      for (const registration of p.registrations) {
        this.registrations.push(registration.method);
        this.registrationEvents.emit(registration.method);
      }
    });
    connection.onRequest(DiagnosticRefreshRequest.type, () => this.refreshes.emit());
    connection.onRequest(SemanticTokensRefreshRequest.type, () => undefined);
    connection.onRequest(CodeLensRefreshRequest.type, () => {
      this.codeLensRefreshes++;
    });
    connection.onRequest(WorkDoneProgressCreateRequest.type, () => undefined);
  }

  static async start(options: TestClientOptions): Promise<TestClient> {
    let child: ChildProcess;
    let connection: ProtocolConnection;
    const server = options.server ?? serverPath;
    const env = { ...process.env, ...options.env };
    if (options.transport === 'node-ipc') {
      child = fork(server, ['--node-ipc'], { stdio: ['ignore', 'inherit', 'inherit', 'ipc'], env });
      connection = createProtocolConnection(new IPCMessageReader(child), new IPCMessageWriter(child));
    } else {
      child = spawn(process.execPath, [server, '--stdio'], { stdio: ['pipe', 'pipe', 'inherit'], env });
      connection = createProtocolConnection(new StreamMessageReader(child.stdout!), new StreamMessageWriter(child.stdin!));
    }
    const client = new TestClient(connection, child, options);
    connection.listen();
    client.initializeResult = await connection.sendRequest(InitializeRequest.type, {
      processId: process.pid,
      rootUri: null,
      capabilities: options.capabilities,
      workspaceFolders: null,
      ...(options.workspace ?? { initializationOptions: { workspaceTrusted: true } }),
    });
    await connection.sendNotification(InitializedNotification.type, {});
    return client;
  }

  /** Resolves once the server has registered `method` dynamically (maybe already). */
  async registered(method: string): Promise<void> {
    if (!this.registrations.includes(method)) await this.registrationEvents.next((m) => m === method);
  }

  open(uri: string, text: string, version = 1): Promise<void> {
    return this.connection.sendNotification(DidOpenTextDocumentNotification.type, { textDocument: { uri, languageId: 'reward', version, text } });
  }

  /** Replaces the whole text (a full-content change is valid under incremental sync). */
  replace(uri: string, text: string, version: number): Promise<void> {
    return this.connection.sendNotification(DidChangeTextDocumentNotification.type, { textDocument: { uri, version }, contentChanges: [{ text }] });
  }

  edit(uri: string, range: Range, text: string, version: number): Promise<void> {
    return this.connection.sendNotification(DidChangeTextDocumentNotification.type, { textDocument: { uri, version }, contentChanges: [{ range, text }] });
  }

  close(uri: string): Promise<void> {
    return this.connection.sendNotification(DidCloseTextDocumentNotification.type, { textDocument: { uri } });
  }

  fileChanged(uri: string, type: FileChangeType): Promise<void> {
    return this.connection.sendNotification(DidChangeWatchedFilesNotification.type, { changes: [{ uri, type }] });
  }

  changeSettings(settings: Record<string, unknown>): Promise<void> {
    this.settings = settings;
    return this.connection.sendNotification(DidChangeConfigurationNotification.type, { settings: { herald: settings } });
  }

  async stop(): Promise<void> {
    await this.connection.sendRequest(ShutdownRequest.type);
    await this.connection.sendNotification(ExitNotification.type);
    const code = await this.exited;
    this.connection.dispose();
    if (code !== 0) throw new Error(`the server exited with code ${code}`);
  }
}

/** A fresh folder for specs and the files they link; removed by the returned function. */
export function tempFolder(): { dir: string; uri: (name: string) => string; remove: () => void } {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'herald-lsp-'));
  return { dir, uri: (name) => pathToFileURL(path.join(dir, name)).href, remove: () => fs.rmSync(dir, { recursive: true, force: true }) };
}

/** The range of the `nth` (0-based) occurrence of `needle` in `text`. */
export function rangeOf(text: string, needle: string, nth = 0): Range {
  let at = -1;
  for (let i = 0; i <= nth; i++) {
    at = text.indexOf(needle, at + 1);
    if (at < 0) throw new Error(`'${needle}' occurs fewer than ${nth + 1} times`);
  }
  const lines = new LineIndex(text);
  return lines.range({ start: at, end: at + needle.length });
}

/** A position `offset` characters into the `nth` occurrence of `needle`. */
export function positionIn(text: string, needle: string, offset = 0, nth = 0) {
  const start = rangeOf(text, needle, nth).start;
  return { line: start.line, character: start.character + offset };
}

export function endOfText(text: string) {
  return new LineIndex(text).position(text.length);
}

/** A frozen copy of the sample spec (test/fixtures/README.md): positions in tests refer to it. */
export const paperSpec = fs.readFileSync(path.join(repoRoot, 'test/fixtures/paper.reward'), 'utf8');

/** The next audit status that ends a run (passed, failed, error or cancelled); ask before the run starts. */
export function auditFinished(client: TestClient): Promise<AuditStatusParams> {
  return new Promise((resolve) => {
    client.connection.onNotification(auditStatusNotification, (p: AuditStatusParams) => {
      if (['passed', 'failed', 'error', 'cancelled'].includes(p.state)) resolve(p);
    });
  });
}

/** Applies non-overlapping LSP text edits to a text, last first. */
export function applyEdits(text: string, edits: readonly TextEdit[]): string {
  const index = new LineIndex(text);
  return [...edits]
    .map((e) => ({ start: index.offset(e.range.start), end: index.offset(e.range.end), newText: e.newText }))
    .sort((a, b) => b.start - a.start)
    .reduce((t, e) => t.slice(0, e.start) + e.newText + t.slice(e.end), text);
}

/**
 * Waits on a condition over the notifications a test collects: `until(done)` resolves once `done()`
 * holds, checked now and again at each `notify()` (call it from the notification handlers).
 */
export class NotificationWaiter {
  private check: (() => void) | undefined;

  until(done: () => boolean): Promise<void> {
    return new Promise((resolve) => {
      const check = (): void => {
        if (done()) resolve();
        else this.check = check;
      };
      check();
    });
  }

  notify(): void {
    this.check?.();
  }
}
