import * as fs from 'node:fs';
import * as path from 'node:path';
import type { WorkspaceTrust } from './trust.js';

// What a folder holds, for completing a link as it is typed (the sub-folders and the JSONL files:
// every file a spec links is JSONL) and for the "did you mean" of a link to a missing file (every
// file name, as an imported pool links its framework's files), never hidden ones. Only names are read, never contents, and
// in an untrusted workspace nothing outside its folders is listed at all.

export interface FolderEntry {
  readonly name: string;
  readonly folder: boolean;
}

function isFolder(dir: string, entry: fs.Dirent): boolean {
  if (entry.isDirectory()) return true;
  if (!entry.isSymbolicLink()) return false;
  try {
    return fs.statSync(path.join(dir, entry.name)).isDirectory();
  } catch {
    return false;
  }
}

/** The entries of `dir` that are not hidden and that the trust rule allows; empty when it cannot be read. */
function allowedEntries(dir: string, trust: WorkspaceTrust): FolderEntry[] {
  if (!trust.allows(dir)) return [];
  let entries: fs.Dirent[];
  try {
    entries = fs.readdirSync(dir, { withFileTypes: true });
  } catch {
    return [];
  }
  return entries
    .filter((e) => !e.name.startsWith('.') && trust.allows(path.join(dir, e.name)))
    .map((e) => ({ name: e.name, folder: isFolder(dir, e) }));
}

/** Sub-folders and `.jsonl` files of `dir` that the trust rule allows, folders first; empty when it cannot be read. */
export function linkableEntries(dir: string, trust: WorkspaceTrust): FolderEntry[] {
  return allowedEntries(dir, trust)
    .filter((e) => e.folder || e.name.endsWith('.jsonl'))
    .sort((a, b) => Number(b.folder) - Number(a.folder) || a.name.localeCompare(b.name));
}

/** The names of the files in `dir` (not folders, not hidden) that the trust rule allows; empty when it cannot be read. */
export function folderFileNames(dir: string, trust: WorkspaceTrust): string[] {
  return allowedEntries(dir, trust).filter((e) => !e.folder).map((e) => e.name).sort((a, b) => a.localeCompare(b));
}
