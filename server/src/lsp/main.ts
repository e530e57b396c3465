import * as path from 'node:path';
import {
  CodeLensRefreshRequest, DidChangeConfigurationNotification, DidChangeWatchedFilesNotification, DocumentDiagnosticReportKind, ErrorCodes,
  ResponseError, type InitializeResult, type Position,
} from 'vscode-languageserver/node';
import { acceptBaselineCommand, auditCodeActions, auditCodeLenses } from './audit-actions.js';
import { AnalysisRunner } from './analysis-runner.js';
import { AnalysisService } from './analysis-service.js';
import { clientFeatures, serverCapabilities } from './capabilities.js';
import { completion } from './completion.js';
import { diagnosticsDocumentUri } from './diagnostics.js';
import type { DocumentAnalysis } from './document-analysis.js';
import { documentRequests } from './document-request.js';
import { DiagnosticsService } from './diagnostics-service.js';
import { DataViews, pairFailed } from './data-views.js';
import { documentSymbols, flatSymbols } from './document-symbols.js';
import { formattingEdits } from './formatting.js';
import { hover } from './hover.js';
import { changedPaths, linkedFilesGlob } from './linked-files.js';
import { definition, documentHighlights, references } from './navigation.js';
import { prepareRename, rename } from './rename.js';
import { importFormatsAnswer, poolProfileAnswer } from './new-spec-requests.js';
import {
  importFormatsRequest, poolProfileRequest, reportRequest, runAuditRequest, specOutlineRequest, workedPairRequest,
} from '../contract/protocol.js';
import { specOutline } from './spec-outline.js';
import { serverStartLine } from './server-log.js';
import { checkedDocumentSync, guardNotification, guardRequest, Lifecycle, type RequestContext } from './safe-handler.js';
import { semanticTokens } from './semantic-tokens.js';
import { Session } from './session.js';
import { folderFileNames } from '../inputs/folder-entries.js';
import { WorkspaceTrust } from '../inputs/trust.js';
import { settingsSection, SettingsStore } from './settings.js';
import { serverConnection } from './transport.js';
import { heapOverride } from './worker-memory.js';

// Started as `node dist/server.js --stdio` (or `--node-ipc` by VS Code); the transport comes from argv.
const connection = serverConnection();
const log = connection.console;
const lifecycle = new Lifecycle();
const guarded: RequestContext = { log, lifecycle };
const session = new Session();
const fixedHeap = heapOverride(process.env.HERALD_WORKER_HEAP_MIB);
const workers = fixedHeap === undefined ? {} : { heapMiB: () => fixedHeap };
const runner = new AnalysisRunner(undefined, workers);
// The analysis service tells diagnostics when findings change; diagnostics read the findings back.
// Code lenses show audit and comparison figures, so new results of either refresh them.
const analyses: AnalysisService = new AnalysisService(connection, session, runner, log, async () => {
  await diagnostics.inputsChanged();
  if (session.features.codeLensRefresh) await connection.sendRequest(CodeLensRefreshRequest.type);
});
// The bundle is dist/server.js, so the package root (where docs/ lives) is one folder up.
const diagnostics = new DiagnosticsService(connection, session, diagnosticsDocumentUri(path.resolve(__dirname, '..')), log, analyses);
// Worked pairs and the data files specs link (`.jsonl` documents are routed there, never analysed as specs);
// their imports, and a new spec's pool profile, run in a worker of their own, so they never wait behind an audit.
const imports = new AnalysisRunner(undefined, workers);
const dataViews = new DataViews(connection, session, analyses, log, diagnosticsDocumentUri(path.resolve(__dirname, '..')), imports);

connection.onInitialize((params): InitializeResult => {
  lifecycle.initialize();
  session.features = clientFeatures(params.capabilities);
  session.trust = WorkspaceTrust.from(params);
  dataViews.initialize(params.initializationOptions);
  if (session.features.configuration) {
    session.settings = new SettingsStore((uri) => connection.workspace.getConfiguration({ scopeUri: uri, section: settingsSection }));
  }
  return { capabilities: serverCapabilities(session.features), serverInfo: { name: 'herald-language-server', version: '0.1.0' } };
});

connection.onInitialized(guardNotification(log, 'initialized', async () => {
  log.info(serverStartLine(session.trust.trusted));
  if (session.features.configurationChangeRegistration) {
    await connection.client.register(DidChangeConfigurationNotification.type, { section: settingsSection });
  }
  if (session.features.watchedFilesRegistration) {
    await connection.client.register(DidChangeWatchedFilesNotification.type, { watchers: [{ globPattern: linkedFilesGlob }] });
  }
}));

session.documents.onDidOpen(guardNotification(log, 'didOpen', async (e) => {
  diagnostics.opened(e.document.uri);
  await analyses.opened(e.document.uri);
}));
session.documents.onDidChangeContent(guardNotification(log, 'didChange', async (e) => {
  diagnostics.changed(e.document.uri);
  await analyses.changed(e.document.uri);
}));
session.documents.onDidSave(guardNotification(log, 'didSave', async (e) => {
  await analyses.saved(e.document.uri);
}));
session.documents.onDidClose(guardNotification(log, 'didClose', async (e) => {
  session.closed(e.document.uri);
  analyses.closed(e.document.uri);
  await diagnostics.closed(e.document.uri);
}));

connection.onDidChangeConfiguration(guardNotification(log, 'didChangeConfiguration', async (params) => {
  session.settings.changed(params.settings);
  await diagnostics.inputsChanged();
  await analyses.inputsChanged();
}));

connection.onDidChangeWatchedFiles(guardNotification(log, 'didChangeWatchedFiles', async (params) => {
  const paths = changedPaths(params.changes);
  session.probe.invalidate(paths);
  analyses.dataChanged(paths);
  await diagnostics.inputsChanged();
  await analyses.inputsChanged();
}));

connection.languages.diagnostics.on(guardRequest(guarded, 'diagnostics', { kind: DocumentDiagnosticReportKind.Full, items: [] }, (params) =>
  (dataViews.owns(params.textDocument.uri) ? dataViews.pull(params.textDocument.uri) : diagnostics.pull(params))));

const request = documentRequests(session, guarded);
const offset = (a: DocumentAnalysis, position: Position): number => a.lines.offset(position);

connection.onHover((p) => (dataViews.owns(p.textDocument.uri)
  ? guardRequest(guarded, 'hover', null, () => dataViews.hover(p))()
  : request('hover', p.textDocument.uri, null, (a) =>
    hover(a, offset(a, p.position), session.features.markdownHover, analyses.auditReport(p.textDocument.uri), analyses.signalReports(p.textDocument.uri), dataViews.pairLinks, analyses.comparisonReports(p.textDocument.uri)))),
);
connection.onCompletion((p) =>
  request('completion', p.textDocument.uri, [], (a) =>
    completion(a, offset(a, p.position), { snippets: session.features.snippets, markdown: session.features.markdownCompletionDocs, trust: session.trust }),
  ),
);
connection.onDefinition((p) => request('definition', p.textDocument.uri, null, (a) => definition(a, offset(a, p.position))));
connection.onReferences((p) => request('references', p.textDocument.uri, [], (a) => references(a, offset(a, p.position), p.context.includeDeclaration)));
connection.onDocumentHighlight((p) => request('documentHighlight', p.textDocument.uri, [], (a) => documentHighlights(a, offset(a, p.position))));
connection.onPrepareRename((p) => request('prepareRename', p.textDocument.uri, null, (a) => prepareRename(a, offset(a, p.position))));
connection.onRenameRequest((p) => request('rename', p.textDocument.uri, null, (a) => rename(a, offset(a, p.position), p.newName)));
connection.onDocumentSymbol((p) =>
  request('documentSymbol', p.textDocument.uri, [], (a) => (session.features.hierarchicalSymbols ? documentSymbols(a) : flatSymbols(a, documentSymbols(a)))),
);
connection.onDocumentFormatting((p) => request('formatting', p.textDocument.uri, [], (a) => formattingEdits(a, p.options)));
connection.languages.semanticTokens.on((p) => request('semanticTokens', p.textDocument.uri, { data: [] }, semanticTokens));

connection.onCodeAction((p) => request('codeAction', p.textDocument.uri, [], (a) => [
  ...auditCodeActions(a, p.context.diagnostics, analyses.auditReport(p.textDocument.uri), (dir) => folderFileNames(dir, session.trust)),
  ...dataViews.codeActions(a, p.context.diagnostics),
]));
connection.onCodeLens((p) => request('codeLens', p.textDocument.uri, [], (a) => auditCodeLenses(a, analyses.report(p.textDocument.uri)?.report)));
connection.onExecuteCommand(guardRequest(guarded, 'executeCommand', false, async (p) =>
  p.command === acceptBaselineCommand && typeof p.arguments?.[0] === 'string' ? analyses.acceptBaseline(p.arguments[0]) : false,
));
connection.onRequest(reportRequest, guardRequest(guarded, 'report', null, (p) => analyses.report(p.uri)));
connection.onRequest(runAuditRequest, guardRequest(guarded, 'runAudit', null, (p) => analyses.requested(p.uri)));
connection.onRequest(workedPairRequest, guardRequest(guarded, 'workedPair', pairFailed, (p) => dataViews.workedPair(p)));
connection.onRequest(poolProfileRequest, guardRequest(guarded, 'poolProfile', { kind: 'unavailable', reason: 'the server could not profile the pool: see the HERALD output' }, (p) =>
  poolProfileAnswer(session, imports, p)));
connection.onRequest(importFormatsRequest, guardRequest(guarded, 'importFormats', { formats: [], guessed: null }, (p) => importFormatsAnswer(session, p)));
connection.onRequest(specOutlineRequest, guardRequest(guarded, 'specOutline', { blocks: [], expectations: [] }, (p) => specOutline(p.text)));
connection.onShutdown(() => lifecycle.refusal('shutdown') ?? runner.dispose());
// Methods without a handler: ServerNotInitialized before initialize, as for every request, else what JSON-RPC answers.
connection.onRequest((method) => lifecycle.refusal(method) ?? new ResponseError(ErrorCodes.MethodNotFound, `Unhandled method ${method}`));

session.documents.listen(checkedDocumentSync(connection, log));
connection.listen();
