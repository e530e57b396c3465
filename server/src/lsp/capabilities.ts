import { CodeActionKind, TextDocumentSyncKind, type ClientCapabilities, type ServerCapabilities } from 'vscode-languageserver/node';
import { acceptBaselineCommand } from './audit-actions.js';
import { completionTriggerCharacters } from './completion.js';
import { semanticTokensLegend } from './semantic-tokens.js';

/** What the connected client can do, read once from `initialize`. Features switch on these. */
export interface ClientFeatures {
  readonly pullDiagnostics: boolean;
  readonly diagnosticRefresh: boolean;
  readonly configuration: boolean;
  readonly configurationChangeRegistration: boolean;
  readonly watchedFilesRegistration: boolean;
  readonly markdownHover: boolean;
  readonly markdownCompletionDocs: boolean;
  readonly snippets: boolean;
  readonly hierarchicalSymbols: boolean;
  readonly prepareRename: boolean;
  readonly workDoneProgress: boolean;
  readonly codeLensRefresh: boolean;
}

export function clientFeatures(c: ClientCapabilities): ClientFeatures {
  const text = c.textDocument;
  return {
    pullDiagnostics: text?.diagnostic !== undefined,
    diagnosticRefresh: c.workspace?.diagnostics?.refreshSupport === true,
    configuration: c.workspace?.configuration === true,
    configurationChangeRegistration: c.workspace?.didChangeConfiguration?.dynamicRegistration === true,
    watchedFilesRegistration: c.workspace?.didChangeWatchedFiles?.dynamicRegistration === true,
    markdownHover: text?.hover?.contentFormat?.includes('markdown') ?? false,
    markdownCompletionDocs: text?.completion?.completionItem?.documentationFormat?.includes('markdown') ?? false,
    snippets: text?.completion?.completionItem?.snippetSupport === true,
    hierarchicalSymbols: text?.documentSymbol?.hierarchicalDocumentSymbolSupport === true,
    prepareRename: text?.rename?.prepareSupport === true,
    workDoneProgress: c.window?.workDoneProgress === true,
    codeLensRefresh: c.workspace?.codeLens?.refreshSupport === true,
  };
}

export function serverCapabilities(features: ClientFeatures): ServerCapabilities {
  return {
    // Saves start audits (in the default on-save mode).
    textDocumentSync: { openClose: true, change: TextDocumentSyncKind.Incremental, save: { includeText: false } },
    // Pull clients ask for diagnostics; the others get them pushed (see diagnostics-service.ts).
    ...(features.pullDiagnostics ? { diagnosticProvider: { identifier: 'herald', interFileDependencies: false, workspaceDiagnostics: false } } : {}),
    hoverProvider: true,
    completionProvider: { triggerCharacters: [...completionTriggerCharacters] },
    definitionProvider: true,
    referencesProvider: true,
    documentHighlightProvider: true,
    renameProvider: features.prepareRename ? { prepareProvider: true } : true,
    documentSymbolProvider: { label: 'HERALD' },
    semanticTokensProvider: { legend: semanticTokensLegend, full: true, range: false },
    documentFormattingProvider: true,
    codeActionProvider: { codeActionKinds: [CodeActionKind.QuickFix] },
    codeLensProvider: { resolveProvider: false },
    executeCommandProvider: { commands: [acceptBaselineCommand] },
  };
}
