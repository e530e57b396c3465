// The files a glob link names (`pool runs = "dumps/*.jsonl"`): one walk of the folders below the
// glob's fixed part, matched by `globPattern` (linear time), in one order everywhere. The walk never follows a
// linked folder (no loops, no way out), and every matched file passes the trust rule on its
// resolved path, so in an untrusted workspace a link to a file outside is not listed, let alone read.
import * as fs from 'node:fs';
import * as path from 'node:path';
import { globBase, globPattern } from './glob-pattern.js';
import { maxGlobEntries } from './input-limits.js';
import { maxGlobWork } from '../problems/limits.js';
import type { WorkspaceTrust } from './trust.js';

/**
 * Whether a link is a glob: it has `*`, `?` or a `{a,b}` list. Brackets and `!(…)`-style patterns
 * are not glob syntax here, so a file named `run[1].jsonl` is still linked as written.
 */
export function isGlobLink(link: string): boolean {
  return /[*?]|\{[^{}]*,[^{}]*\}/.test(link);
}

export type GlobFiles =
  | { readonly ok: true; readonly files: readonly string[] }
  | { readonly ok: false; readonly reason: string };

/**
 * The regular files an absolute glob names, absolute and sorted by path (code units, `/` between
 * folders: the same order on every machine), that the trust rule allows. Hidden files and folders
 * match only when the glob names them. Past `maxGlobEntries` folder entries the walk stops with a reason.
 */
export function globFiles(absoluteGlob: string, trust: WorkspaceTrust): GlobFiles {
  const pattern = absoluteGlob.split(path.sep).join('/');
  const { base, glob } = globBase(pattern);
  const root = base === '' ? '/' : base;
  const compiled = globPattern(glob);
  if (!compiled.ok) return compiled;
  const { matches, depth, steps } = compiled;
  if (!trust.allows(root)) return { ok: true, files: [] };
  const found: string[] = [];
  let entries = 0;
  const walk = (folder: string, relative: string, level: number): string | undefined => {
    let listed: fs.Dirent[];
    try {
      listed = fs.readdirSync(folder, { withFileTypes: true });
    } catch {
      return undefined;
    }
    entries += listed.length;
    if (entries > maxGlobEntries) return `the glob passes more than ${maxGlobEntries.toLocaleString('en-US')} folder entries (see Limits in docs/language.md): narrow it`;
    for (const entry of listed) {
      const name = relative === '' ? entry.name : `${relative}/${entry.name}`;
      const full = path.join(folder, entry.name);
      if (entry.isDirectory()) {
        if (level < depth) {
          const stopped = walk(full, name, level + 1);
          if (stopped !== undefined) return stopped;
        }
      } else if (matches(name) && trust.allows(full) && (entry.isFile() || (entry.isSymbolicLink() && isFile(full)))) {
        found.push(full);
      }
      if (steps() > maxGlobWork) return `matching the glob against the names it passes takes more than ${maxGlobWork.toLocaleString('en-US')} comparisons (see Limits in docs/language.md): narrow it`;
    }
    return undefined;
  };
  const stopped = walk(root, '', 1);
  if (stopped !== undefined) return { ok: false, reason: stopped };
  const key = (file: string): string => file.split(path.sep).join('/');
  return { ok: true, files: found.sort((a, b) => (key(a) < key(b) ? -1 : key(a) > key(b) ? 1 : 0)) };
}

function isFile(file: string): boolean {
  try {
    return fs.statSync(file).isFile();
  } catch {
    return false;
  }
}

/** The files one listed input reads: its path, or every file its glob matches now (none when the walk stops). */
export function inputFiles(input: { readonly path: string; readonly glob?: true }, trust: WorkspaceTrust): readonly string[] {
  if (input.glob === undefined) return [input.path];
  const matched = globFiles(input.path, trust);
  return matched.ok ? matched.files : [];
}
