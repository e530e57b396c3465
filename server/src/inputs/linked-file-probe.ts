import * as path from 'node:path';
import type { FileStatus } from './file-probe.js';
import { isGlobLink } from './glob-files.js';
import type { WorkspaceTrust } from './trust.js';

/**
 * Remembers whether each linked file can be read, so a keystroke does not touch the disk. The
 * client's file watcher (`**\/*.jsonl`) tells us what changed; `generation` moves on every change
 * so analyses computed before it are recomputed. Files that the workspace trust rules out are never
 * touched, not even to see whether they exist.
 */
export class LinkedFileProbe {
  private readonly statuses = new Map<string, FileStatus>();
  private changes = 0;

  constructor(private readonly probe: (absolutePath: string, trust: WorkspaceTrust) => FileStatus, private readonly trust: () => WorkspaceTrust) {}

  get generation(): number {
    return this.changes;
  }

  readonly status = (absolutePath: string): FileStatus => {
    if (!this.trust().allows(absolutePath)) return 'untrusted';
    let status = this.statuses.get(absolutePath);
    if (status === undefined) {
      status = this.probe(absolutePath, this.trust());
      this.statuses.set(absolutePath, status);
    }
    return status;
  };

  /** Only the trust verdict, for when linked files are not to be checked: `ok` or `untrusted`. */
  readonly trustOnly = (absolutePath: string): FileStatus => (this.trust().allows(absolutePath) ? 'ok' : 'untrusted');

  /** Forgets the given paths and everything beneath them (a renamed or deleted folder). */
  invalidate(changedPaths: readonly string[]): void {
    for (const changed of changedPaths) {
      const folder = changed.endsWith(path.sep) ? changed : changed + path.sep;
      for (const known of this.statuses.keys()) {
        // Any change may add or remove a glob's match, and globs are few: forget them all.
        if (known === changed || known.startsWith(folder) || isGlobLink(known)) this.statuses.delete(known);
      }
    }
    this.changes++;
  }
}
