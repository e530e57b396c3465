import * as fs from 'node:fs';
import type { FileStatus } from '../semantics/check.js';

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
