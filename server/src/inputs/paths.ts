import * as path from 'node:path';

// The one path rule: a link in a spec is relative to the spec's folder (an absolute link stays as
// written), and reports name files relative to that folder with forward slashes, so they read the
// same on every machine.

/** The absolute path a link of a spec in `specDir` names. */
export function resolveLink(specDir: string, link: string): string {
  return path.resolve(specDir, link);
}

/** A file as reports name it: relative to the spec's folder, with `/`. */
export function specRelative(specDir: string, file: string): string {
  return path.relative(specDir, path.resolve(specDir, file)).split(path.sep).join('/');
}

/** Whether two names of files (absolute, or relative to `specDir`) are the same file by name. */
export function sameFile(specDir: string, a: string, b: string): boolean {
  return resolveLink(specDir, a) === resolveLink(specDir, b);
}
