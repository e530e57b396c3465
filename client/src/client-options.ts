import type { LanguageClientOptions } from 'vscode-languageclient/node';

export type ClientOutputChannel = NonNullable<LanguageClientOptions['outputChannel']>;

// The server registers its own watchers for `herald` settings and linked `**/*.jsonl` files
// (dynamic registration), so the client synchronises nothing itself: doing both doubles every event.
export function createClientOptions(outputChannel: ClientOutputChannel): LanguageClientOptions {
  return {
    documentSelector: [
      { scheme: 'file', language: 'reward' },
      // Unsaved specs are checked too; only their linked-file checks have no folder to resolve against.
      { scheme: 'untitled', language: 'reward' },
    ],
    // The client also writes the `herald.trace.server` protocol trace here.
    outputChannel,
  };
}
