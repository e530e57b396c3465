import { fileURLToPath } from 'node:url';
import type { FileEvent } from 'vscode-languageserver/node';

/** The files specs link (corpora, pools, candidates) are JSON Lines; the client watches these. */
export const linkedFilesGlob = '**/*.jsonl';

/** The local paths of watched-file events; events for other schemes cannot be linked files. */
export function changedPaths(changes: readonly FileEvent[]): string[] {
  return changes.flatMap((change) => {
    if (!change.uri.startsWith('file:')) return [];
    try {
      return [fileURLToPath(change.uri)];
    } catch {
      return [];
    }
  });
}
