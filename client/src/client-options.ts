import type { LanguageClientOptions, SynchronizeOptions } from 'vscode-languageclient/node';

/** The settings section whose changes VS Code pushes to the server. */
export const configurationSection = 'herald';

/** Specs link corpus, pool and candidate files in JSON Lines; the server re-checks specs when they change. */
export const linkedFilesGlob = '**/*.jsonl';

export type ClientOutputChannel = NonNullable<LanguageClientOptions['outputChannel']>;
export type LinkedFileWatcher = NonNullable<SynchronizeOptions['fileEvents']>;

export function createClientOptions(
  outputChannel: ClientOutputChannel,
  linkedFileWatcher: LinkedFileWatcher,
): LanguageClientOptions {
  return {
    documentSelector: [
      { scheme: 'file', language: 'reward' },
      // Unsaved specs are checked too; only their linked-file checks have no folder to resolve against.
      { scheme: 'untitled', language: 'reward' },
    ],
    synchronize: { configurationSection, fileEvents: linkedFileWatcher },
    // The client also writes the `herald.trace.server` protocol trace here.
    outputChannel,
  };
}
