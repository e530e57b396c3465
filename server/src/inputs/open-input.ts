// The one way a file a spec reads is opened. Every loader, the baseline reader and the corpus hash
// go through `openInput`, which checks the trust rule and the kind of file before opening, opens
// without blocking, and checks the opened descriptor again: what is read is what was checked, even
// when a symbolic link moves between the check and the open.
import * as fs from 'node:fs';
import { formatBytes } from './input-limits.js';
import type { WorkspaceTrust } from './trust.js';

/** Under which rule, and up to what size, a file may be opened. */
export interface InputAccess {
  readonly trust: WorkspaceTrust;
  /** Files larger than this are refused before they are read. */
  readonly maxBytes: number;
  /** Names the limit in a refusal: `for one linked file`. */
  readonly limitName: string;
}

/** How pools, corpora, candidate files and logs are opened: the trust rule and its per-file limit. */
export function linkedFileAccess(trust: WorkspaceTrust): InputAccess {
  return { trust, maxBytes: trust.limits.file, limitName: 'for one linked file' };
}

/** An open, checked, regular file: read it through `fd` only, and close it. */
export interface OpenedInput {
  readonly ok: true;
  readonly fd: number;
  readonly size: number;
}

/** Why a file was not opened: `missing` for a file that is not there (a baseline may be absent). */
export interface InputRefusal {
  readonly ok: false;
  readonly missing: boolean;
  readonly reason: string;
}

/** A refusal raised while a file is read (an encoding problem, a file that grew past its limit). */
export class UnreadableInput extends Error {
  constructor(readonly reason: string) {
    super(reason);
  }
}

// O_NONBLOCK: a FIFO put where a file was opens at once instead of waiting for a writer (Windows has no such flag).
const openFlags = fs.constants.O_RDONLY | (fs.constants.O_NONBLOCK ?? 0) | (fs.constants.O_NOCTTY ?? 0);

/**
 * Why what a path leads to is not a regular file (a folder, FIFO, device or socket), or undefined:
 * the one wording of the rule that HERALD reads and writes regular files only.
 */
export function notRegularFile(stats: fs.Stats): string | undefined {
  if (stats.isDirectory()) return 'a folder, not a file';
  if (stats.isFIFO()) return 'not a regular file (a FIFO)';
  if (stats.isCharacterDevice()) return 'not a regular file (a character device)';
  if (stats.isBlockDevice()) return 'not a regular file (a block device)';
  if (stats.isSocket()) return 'not a regular file (a socket)';
  if (!stats.isFile()) return 'not a regular file';
  return undefined;
}

/** What is wrong with a file of this kind and size for reading, or undefined. */
function kindProblem(stats: fs.Stats, access: InputAccess): string | undefined {
  const kind = notRegularFile(stats);
  if (kind !== undefined) return kind;
  if (stats.size > access.maxBytes) return `${formatBytes(stats.size)}, above the ${formatBytes(access.maxBytes)} limit ${access.limitName} (see Limits in docs/language.md)`;
  return undefined;
}

/** A file system error in words. */
export function describeError(error: unknown): string {
  const code = error instanceof Error && 'code' in error ? error.code : undefined;
  switch (code) {
    case 'ENOENT':
      return 'file not found';
    case 'EISDIR':
      return 'a folder, not a file';
    case 'EACCES':
    case 'EPERM':
      return 'permission denied';
    case 'ENOTDIR':
      return 'a part of the path is not a folder';
    case 'ELOOP':
      return 'too many symbolic links';
    default:
      return error instanceof Error ? error.message : String(error);
  }
}

function refusal(reason: string, missing = false): InputRefusal {
  return { ok: false, missing, reason };
}

function isMissing(error: unknown): boolean {
  return error instanceof Error && 'code' in error && (error.code === 'ENOENT' || error.code === 'ENOTDIR');
}

/**
 * Opens a file a spec reads, or says why not. In order: the trust rule on the path (refused by its
 * name or its resolved path, with no system call on an outside file); the kind and size of what the
 * path leads to (a folder, FIFO, device or socket, or a file past the limit, is never opened); the
 * open itself, non-blocking; the kind and size of the opened descriptor. In an untrusted workspace
 * the path is then resolved again and must be inside the workspace and lead to the very file that
 * was opened (same device and inode), so a link flipped between the check and the open is caught.
 */
export function openInput(file: string, access: InputAccess): OpenedInput | InputRefusal {
  const { trust } = access;
  if (!trust.allows(file)) return refusal('outside this untrusted workspace: not read');
  let fd: number;
  try {
    const named = kindProblem(fs.statSync(file), access);
    if (named !== undefined) return refusal(named);
    fd = fs.openSync(file, openFlags);
  } catch (error) {
    return refusal(describeError(error), isMissing(error));
  }
  return checkOpened(file, fd, access);
}

/**
 * The checks on a descriptor just opened from `file`: a regular file within the limit and, in an
 * untrusted workspace, the file the path resolves to now, inside the workspace. Closes `fd` on a
 * refusal. (Separate from `openInput` so tests can hand it a descriptor opened before a link moved.)
 */
export function checkOpened(file: string, fd: number, access: InputAccess): OpenedInput | InputRefusal {
  try {
    const opened = fs.fstatSync(fd);
    const problem = kindProblem(opened, access) ?? (access.trust.trusted ? undefined : movedProblem(file, opened, access.trust));
    if (problem === undefined) return { ok: true, fd, size: opened.size };
    fs.closeSync(fd);
    return refusal(problem);
  } catch (error) {
    fs.closeSync(fd);
    return refusal(describeError(error), isMissing(error));
  }
}

/** In an untrusted workspace: whether the path now resolves inside it, to the file that was opened. */
function movedProblem(file: string, opened: fs.Stats, trust: WorkspaceTrust): string | undefined {
  const real = fs.realpathSync.native(file);
  if (!trust.allowsResolved(real)) return 'outside this untrusted workspace: not read';
  const there = fs.statSync(real);
  return there.dev === opened.dev && there.ino === opened.ino ? undefined : 'changed while it was opened (a symbolic link moved): not read';
}

/** The size of a file the rule allows, without opening it; undefined when it is not a regular file. */
export function inputSize(file: string, trust: WorkspaceTrust): number | undefined {
  if (!trust.allows(file)) return undefined;
  try {
    const stats = fs.statSync(file);
    return stats.isFile() ? stats.size : undefined;
  } catch {
    return undefined;
  }
}

/** Reads a whole opened input (a small one: the baseline) and closes it. */
export function readOpened(input: OpenedInput, maxBytes: number): Buffer {
  try {
    const chunks: Buffer[] = [];
    let total = 0;
    for (;;) {
      const chunk = Buffer.allocUnsafe(1 << 16);
      const read = fs.readSync(input.fd, chunk, 0, chunk.length, null);
      if (read === 0) break;
      total += read;
      if (total > maxBytes) throw new UnreadableInput(`more than ${formatBytes(maxBytes)}, the limit for this file`);
      chunks.push(chunk.subarray(0, read));
    }
    return Buffer.concat(chunks);
  } finally {
    fs.closeSync(input.fd);
  }
}
