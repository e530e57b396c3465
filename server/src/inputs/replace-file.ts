// The one way HERALD replaces a file it was asked to write (a report or a pool by `--out`, a
// baseline): a new file beside it, renamed over it once every byte is written. Opening the name
// with 'w' truncated it first, so a write that failed halfway (an imported value too deep for
// JSON.stringify) left an empty file, and followed a symbolic link put there during the run (onto
// the very log being imported). A rename replaces the name itself, never what a link leads to.
import { randomBytes } from 'node:crypto';
import * as fs from 'node:fs';
import * as path from 'node:path';

export type Replaced = { readonly ok: true } | { readonly ok: false; readonly reason: string };

export interface ReplaceOptions {
  /** The new file's permission bits, whatever the replaced file had (a cache file's 0o600); by default the replaced file's, or 0o666 less the umask. */
  readonly mode?: number;
  /** Asked after the last byte is written, with the new file's identity, just before the rename: a reason stops it (nothing is replaced). */
  readonly beforeRename?: (written: fs.Stats) => string | undefined;
}

// O_EXCL | O_CREAT: a new file, never one of that name already there, nor a link's target; O_NOFOLLOW for good measure.
const newFileFlags = fs.constants.O_WRONLY | fs.constants.O_CREAT | fs.constants.O_EXCL | (fs.constants.O_NOFOLLOW ?? 0);

/** The permission bits the replaced file had, so a rewrite keeps them; a new file gets 0o666 less the umask, as any. */
function keptMode(file: string): number | undefined {
  try {
    const stats = fs.lstatSync(file);
    return stats.isFile() ? stats.mode & 0o777 : undefined;
  } catch {
    return undefined;
  }
}

/** Writes all of `text` at the descriptor's position (a short write is retried). */
function writeAll(fd: number, piece: string | Uint8Array): void {
  const bytes = typeof piece === 'string' ? Buffer.from(piece, 'utf8') : piece;
  for (let at = 0; at < bytes.length;) at += fs.writeSync(fd, bytes, at, bytes.length - at);
}

function message(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

/**
 * Writes `pieces` in order to a new file in `file`'s folder, then renames it to `file`. Whatever
 * fails (opening, a write, a piece that throws while it is made, `beforeRename`, the rename), the
 * new file is removed and `file` is left byte for byte as it was. Right before the rename the new
 * file's name must still lead to the file written (same device and inode): a folder moved during
 * the write is caught rather than written into.
 */
export function replaceFile(file: string, pieces: Iterable<string | Uint8Array>, options: ReplaceOptions = {}): Replaced {
  const temporary = path.join(path.dirname(file), `.${path.basename(file)}.${randomBytes(6).toString('hex')}.tmp`);
  const mode = options.mode ?? keptMode(file);
  let fd: number;
  try {
    fd = fs.openSync(temporary, newFileFlags, options.mode ?? 0o666);
  } catch (error) {
    return { ok: false, reason: message(error) };
  }
  let reason: string | undefined;
  try {
    if (mode !== undefined) fs.fchmodSync(fd, mode);
    for (const piece of pieces) writeAll(fd, piece);
    const written = fs.fstatSync(fd);
    const there = fs.lstatSync(temporary);
    reason = there.dev === written.dev && there.ino === written.ino ? options.beforeRename?.(written) : 'its folder changed while it was written';
  } catch (error) {
    reason = message(error);
  } finally {
    fs.closeSync(fd);
  }
  try {
    if (reason === undefined) {
      fs.renameSync(temporary, file);
      return { ok: true };
    }
  } catch (error) {
    reason = message(error);
  }
  try {
    fs.rmSync(temporary, { force: true });
  } catch {
    // Left behind (its folder went away or turned read-only): the reason below still stands.
  }
  return { ok: false, reason };
}
