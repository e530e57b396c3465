import type { LanguageClientOptions } from 'vscode-languageclient/node';
import type { HeraldInitializationOptions } from '../../server/src/inputs/trust';
import { showReportCommand } from '../../server/src/lsp/protocol';

export type ClientOutputChannel = NonNullable<LanguageClientOptions['outputChannel']>;

// The server registers its own watchers for `herald` settings and linked `**/*.jsonl` files
// (dynamic registration), so the client synchronises nothing itself: doing both doubles every event.
// In an untrusted workspace the server reads no linked file outside the workspace folders (and so
// audits only specs whose data is inside them); `workspaceTrusted` tells it which mode it is in.
export function createClientOptions(outputChannel: ClientOutputChannel, workspaceTrusted: boolean): LanguageClientOptions {
  return {
    documentSelector: [
      { scheme: 'file', language: 'reward' },
      // Unsaved specs are checked too; only their linked-file checks have no folder to resolve against.
      { scheme: 'untitled', language: 'reward' },
    ],
    // The client also writes the `herald.trace.server` protocol trace here.
    outputChannel,
    initializationOptions: { workspaceTrusted } satisfies HeraldInitializationOptions,
    // Hovers end with a link that opens the report view; no other command may run from server markdown.
    markdown: { isTrusted: { enabledCommands: [showReportCommand] } },
  };
}
