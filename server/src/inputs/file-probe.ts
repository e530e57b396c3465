import * as fs from 'node:fs';

/** `untrusted`: outside the folders of a workspace the user has not trusted, so not read at all. */
export type FileStatus = 'ok' | 'missing' | 'unreadable' | 'untrusted';

/** The real file system's answer to "can this linked file be read?". */
export function probeFile(absolutePath: string): FileStatus {
  try {
    const stat = fs.statSync(absolutePath);
    if (!stat.isFile()) return 'unreadable';
    fs.accessSync(absolutePath, fs.constants.R_OK);
    return 'ok';
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'ENOENT' ? 'missing' : 'unreadable';
  }
}
