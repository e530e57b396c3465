import type { LanguageClientOptions } from 'vscode-languageclient/node';
import { type HeraldInitializationOptions, openWorkedPairCommand, showReportCommand, type WorkedPairInitializationOptions } from '../../server/src/contract/index';

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
      // Pools, corpora and candidate files: the server checks the rows of those an open spec links, and
      // explains a row on hover (whatever language VS Code gives the file; the server never reads one as a spec).
      { scheme: 'file', pattern: '**/*.jsonl' },
    ],
    // The client also writes the `herald.trace.server` protocol trace here.
    outputChannel,
    initializationOptions: { workspaceTrusted, openWorkedPair: true } satisfies HeraldInitializationOptions & WorkedPairInitializationOptions,
    // Hovers may run two commands only: open the report view, and open a worked pair side by side
    // (client/src/trajectory-diff.ts); no other command may run from server markdown.
    markdown: { isTrusted: { enabledCommands: [showReportCommand, openWorkedPairCommand] } },
  };
}
