// The folder the ranking cache (inputs/ranking-cache.ts) and the command cache
// (inputs/command-cache.ts) keep their files in, and the one way either opens, writes or checks
// them. Anyone who can write that folder can fill it, so nothing in it is trusted by its place:
// - the folder (`dir`) and the versioned folder inside it must be real folders, not symbolic links,
//   owned by this user and writable by nobody else, or the whole cache is skipped with one warning
//   (their parents are the user's own to keep: `~/.cache`, or the folder `HERALD_CACHE_DIR` names);
// - a file is opened without following a link (O_NOFOLLOW), and used only when it is a regular file
//   of this user's that nobody else can write; anything else is a miss, and never read;
// - a file is written only as a new file in the folder (O_EXCL, O_NOFOLLOW, mode 0600), renamed into
//   place, so a link planted where a cache file belongs is replaced, never written through.
// Entries also carry a SHA-256 of their key and content (`sha256Hex`), so a damaged entry, or one
// planted or moved from another key without it, is a miss. That digest is no secret: whoever can
// write the folder can compute it, which is why the folder's owner and mode are checked first.
import { createHash } from 'node:crypto';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { formatBytes } from './input-limits.js';
import { readOpened } from './open-input.js';
import { replaceFile } from './replace-file.js';

/** Bumped with the format of either cache's files: old files are never read. */
const folderVersion = 'v2';

/** `HERALD_CACHE_DIR`, else `$XDG_CACHE_HOME/herald`, else `~/.cache/herald`. */
export function defaultCacheDir(env: NodeJS.ProcessEnv = process.env): string {
  const explicit = env['HERALD_CACHE_DIR'];
  if (explicit !== undefined && explicit.length > 0) return path.resolve(explicit);
  const xdg = env['XDG_CACHE_HOME'];
  if (xdg !== undefined && path.isAbsolute(xdg)) return path.join(xdg, 'herald');
  return path.join(os.homedir(), '.cache', 'herald');
}

/** The folder under `dir` that holds both caches' files. */
export function cacheFolder(dir: string): string {
  return path.join(dir, folderVersion);
}

/** SHA-256 (hex) of the parts, each ended by a NUL so that no two lists of parts run together. */
export function sha256Hex(parts: readonly string[]): string {
  const hash = createHash('sha256');
  for (const part of parts) hash.update(part, 'utf8').update('\u0000');
  return hash.digest('hex');
}

function errorCode(error: unknown): string {
  return error instanceof Error && 'code' in error && typeof error.code === 'string' ? error.code : String(error);
}

/** Why a cache folder or file of this owner and mode cannot be trusted, or undefined. */
function ownerProblem(at: string, stats: fs.Stats): string | undefined {
  // Windows has neither owners nor mode bits that mean this: nothing to check.
  const uid = process.getuid?.();
  if (uid === undefined) return undefined;
  if (stats.uid !== uid) return `${at} is owned by another user (uid ${stats.uid})`;
  if ((stats.mode & 0o002) !== 0) return `${at} is writable by other users`;
  if ((stats.mode & 0o020) !== 0) return `${at} is writable by its group`;
  return undefined;
}

/** Checks one level of the cache's folders without following a link. */
function folderProblem(at: string): string | undefined {
  let stats: fs.Stats;
  try {
    stats = fs.lstatSync(at);
  } catch (error) {
    return `${at} cannot be read (${errorCode(error)})`;
  }
  if (stats.isSymbolicLink()) return `${at} is a symbolic link`;
  if (!stats.isDirectory()) return `${at} is not a folder`;
  return ownerProblem(at, stats);
}

/**
 * Makes the folder `at` one level at a time (Node's recursive mkdir loops forever where the kernel
 * answers ENOENT for a parent that exists, as under /proc), each new level 0700. Undefined when it
 * is there; otherwise why not.
 */
function makeFolder(target: string): string | undefined {
  const missing: string[] = [];
  for (let at = target; ; at = path.dirname(at)) {
    try {
      if (!fs.statSync(at).isDirectory()) return `${at} is not a folder`;
      break;
    } catch (error) {
      // ENOTDIR: a part of the path is a file, which the walk up then names.
      const absent = errorCode(error) === 'ENOENT' || errorCode(error) === 'ENOTDIR';
      if (!absent || path.dirname(at) === at) return `${at} cannot be read (${errorCode(error)})`;
      missing.unshift(at);
    }
  }
  for (const at of missing) {
    try {
      fs.mkdirSync(at, { mode: 0o700 });
    } catch (error) {
      if (errorCode(error) !== 'EEXIST') return `the folder ${at} cannot be made (${errorCode(error)})`;
    }
  }
  return undefined;
}

/**
 * Makes the cache's folder under `dir`, and checks `dir` before making anything in it. Undefined
 * when the folder is ready to use; otherwise why not, for the one warning that skips the cache: a
 * level that cannot be made, `dir` or the versioned folder a symbolic link, not this user's, or
 * writable by others, or a folder that cannot be written.
 */
export function prepareCacheFolder(dir: string): string | undefined {
  const folder = cacheFolder(dir);
  const problem = makeFolder(dir) ?? folderProblem(dir) ?? makeFolder(folder) ?? folderProblem(folder);
  if (problem !== undefined) return problem;
  try {
    fs.accessSync(folder, fs.constants.W_OK);
    return undefined;
  } catch (error) {
    return `${folder} is not writable (${errorCode(error)})`;
  }
}

/** A cache file's bytes; `absent` when there is none; `refused`, and why, when what is there is not used. */
export type CacheRead =
  | { readonly kind: 'found'; readonly bytes: Buffer }
  | { readonly kind: 'absent' }
  | { readonly kind: 'refused'; readonly reason: string };

// O_NONBLOCK: a FIFO left where a cache file belongs opens at once instead of waiting for a writer.
const readFlags = fs.constants.O_RDONLY | (fs.constants.O_NOFOLLOW ?? 0) | (fs.constants.O_NONBLOCK ?? 0) | (fs.constants.O_NOCTTY ?? 0);

/**
 * Reads the cache file `name` under `dir`, after checking both folders again. A reason names the
 * file and what is wrong with it, never a byte of what it holds or leads to.
 */
export function readCacheFile(dir: string, name: string, maxBytes: number): CacheRead {
  const folder = cacheFolder(dir);
  const problem = folderProblem(dir) ?? folderProblem(folder);
  if (problem !== undefined) return { kind: 'refused', reason: problem };
  const file = path.join(folder, name);
  let fd: number;
  let size: number;
  try {
    fd = fs.openSync(file, readFlags);
  } catch (error) {
    const code = errorCode(error);
    if (code === 'ENOENT') return { kind: 'absent' };
    // ELOOP: O_NOFOLLOW met a link where the file belongs; what it leads to is never opened.
    return { kind: 'refused', reason: code === 'ELOOP' ? `${file} is a symbolic link` : `${file} cannot be opened (${code})` };
  }
  try {
    const stats = fs.fstatSync(fd);
    const refused = !stats.isFile() ? `${file} is not a regular file`
      : ownerProblem(file, stats) ?? (stats.size > maxBytes ? `${file} is ${formatBytes(stats.size)}, above the ${formatBytes(maxBytes)} a cache file may hold` : undefined);
    if (refused !== undefined) {
      fs.closeSync(fd);
      return { kind: 'refused', reason: refused };
    }
    size = stats.size;
  } catch (error) {
    fs.closeSync(fd);
    return { kind: 'refused', reason: `${file} cannot be read (${errorCode(error)})` };
  }
  try {
    // readOpened closes the descriptor.
    return { kind: 'found', bytes: readOpened({ ok: true, fd, size }, maxBytes) };
  } catch {
    return { kind: 'refused', reason: `${file} cannot be read` };
  }
}

/**
 * Writes the cache file `name` under `dir` as `parts` in order, by `replaceFile`: a new file of mode
 * 0o600 in the same folder, renamed over whatever has that name (a file or a planted link, which is
 * replaced and never followed). False when the folder is not fit (see `prepareCacheFolder`) or the
 * disk refused: the caches are only accelerators. Two writers of one name: the last rename wins, whole.
 */
export function writeCacheFile(dir: string, name: string, parts: Iterable<string | Uint8Array>): boolean {
  if (prepareCacheFolder(dir) !== undefined) return false;
  return replaceFile(path.join(cacheFolder(dir), name), parts, { mode: 0o600 }).ok;
}

/** The warning for a cache skipped as a whole (its folder) or for one entry that is not used. */
export function cacheWarning(scope: 'folder' | 'entry', reason: string): string {
  return scope === 'folder'
    ? `warning: cache skipped (candidate rankings and command outputs are not kept between runs): ${reason}`
    : `warning: cache entry not used: ${reason}`;
}

/**
 * The cache's folder under `dir`, made when first asked for: one warning (to `onProgress`) and no
 * cache when it cannot be; false for no cache at all. What every analysis that keeps rankings,
 * command outputs or command terms' answers reads its folder through.
 */
export function lazyCacheFolder(dir: string | false, onProgress: ((message: string) => void) | undefined): () => string | false {
  let ready: string | false | undefined = dir === false ? false : undefined;
  return () => {
    if (ready !== undefined || dir === false) return ready ?? false;
    const problem = prepareCacheFolder(dir);
    if (problem !== undefined) onProgress?.(cacheWarning('folder', problem));
    ready = problem === undefined ? dir : false;
    return ready;
  };
}

/**
 * A cache file whose first line is the SHA-256 of `keyParts` and the body: the body when the file is
 * there and whole, undefined when it is absent or its digest differs (planted or damaged). A file
 * that cannot be used (a link, not this user's…) is also told to `onRefused`, by its path: its
 * content is never read, let alone quoted.
 */
export function readDigestedFile(dir: string, name: string, keyParts: readonly string[], maxBodyBytes: number, onRefused?: (reason: string) => void): string | undefined {
  const read = readCacheFile(dir, name, maxBodyBytes + 128);
  if (read.kind === 'refused') onRefused?.(read.reason);
  if (read.kind !== 'found') return undefined;
  const text = read.bytes.toString('utf8');
  const newline = text.indexOf('\n');
  if (newline < 0) return undefined;
  const body = text.slice(newline + 1);
  return text.slice(0, newline) === sha256Hex([...keyParts, body]) ? body : undefined;
}

/** Writes `body` under its digest line (`readDigestedFile`), renamed into place; false when it could not be written. */
export function writeDigestedFile(dir: string, name: string, keyParts: readonly string[], body: string): boolean {
  return writeCacheFile(dir, name, [`${sha256Hex([...keyParts, body])}\n`, body]);
}
