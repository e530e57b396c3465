import * as fs from 'node:fs';
import { globFiles, isGlobLink } from './glob-files.js';
import { WorkspaceTrust } from './trust.js';

/** `untrusted`: outside the folders of a workspace the user has not trusted, so not read at all. */
export type FileStatus = 'ok' | 'missing' | 'unreadable' | 'untrusted';

/**
 * The real file system's answer to "can this linked file be read?". Only a regular file is `ok`:
 * a folder, FIFO, device or socket is `unreadable` (reading one would block or never end). The
 * probe stats, it never opens.
 */
export function probeFile(absolutePath: string, trust = WorkspaceTrust.everything): FileStatus {
  // A glob is there when it matches a file the rule allows; `unreadable` when its walk is too long.
  if (isGlobLink(absolutePath)) {
    const matched = globFiles(absolutePath, trust);
    return !matched.ok ? 'unreadable' : matched.files.length > 0 ? 'ok' : 'missing';
  }
  try {
    const stat = fs.statSync(absolutePath);
    if (!stat.isFile()) return 'unreadable';
    fs.accessSync(absolutePath, fs.constants.R_OK);
    return 'ok';
  } catch (error) {
    return error instanceof Error && 'code' in error && error.code === 'ENOENT' ? 'missing' : 'unreadable';
  }
}

/** `probeFile` under a trust rule: a file the rule refuses is `untrusted` and not touched at all. */
export function probeFileUnder(trust: WorkspaceTrust): (absolutePath: string) => FileStatus {
  return trust.trusted ? (absolutePath) => probeFile(absolutePath) : (absolutePath) => (trust.allows(absolutePath) ? probeFile(absolutePath, trust) : 'untrusted');
}
