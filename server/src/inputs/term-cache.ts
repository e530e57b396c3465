// The answers of a command term (a field or reward computed by the user's program), kept on disk
// per request, so a re-audit runs the program only on trajectories it has not answered: none when
// nothing changed, the new edits' when an attack is added. Same folder, trust rule and "only an
// accelerator" promise as the ranking and command caches (inputs/cache-folder.ts).
//
// One file per program: the key is the command text, the folder it runs in, whether its requests
// carry gold, and the SHA-256 of every file the command names (a word of it that is a file of the
// folder: `reward.py` in `python3 -m herald_adapters.verl reward.py`, `judge.py` in
// `--file=judge.py`, `qa.py` in `qa.py:compute_score`), so editing the reward's own file runs it
// again. A module that file imports is not named: edit the command (`--v 2`) or run `--no-cache`.
import * as fs from 'node:fs';
import * as path from 'node:path';
import { readDigestedFile, sha256Hex, writeDigestedFile } from './cache-folder.js';
import { maxInputBytes } from './input-limits.js';

const termCacheVersion = 'terms-v1';

/** What a program's answers are kept under. */
export interface TermCacheKey {
  readonly command: string;
  readonly cwd: string;
  readonly oracle: boolean;
  /** `path sha256` of every file the command names, one per line (`namedFiles`). */
  readonly files: string;
}

/** Words of a command that may name a file: each word, the part after `=` of `--opt=value`, the part before `:` of `file.py:function`. */
function fileWords(command: string): string[] {
  const words = command.split(/\s+/u).map((w) => w.replace(/^['"]|['"]$/gu, '')).filter((w) => w.length > 0);
  return words.flatMap((w) => {
    const value = w.includes('=') ? w.slice(w.indexOf('=') + 1) : w;
    return [value, value.replace(/:[A-Za-z_][A-Za-z0-9_.,]*$/u, '')];
  });
}

/** The largest file whose content is hashed into the key; a bigger one counts by its size and time. */
const maxHashedBytes = 64 * 1024 * 1024;

/** `path sha256` of every regular file the command names, relative to `cwd`, sorted. */
export function namedFiles(command: string, cwd: string): string {
  const lines = new Set<string>();
  for (const word of fileWords(command)) {
    const file = path.resolve(cwd, word);
    let stats: fs.Stats;
    try {
      stats = fs.statSync(file);
    } catch {
      continue;
    }
    if (!stats.isFile()) continue;
    const digest = stats.size > maxHashedBytes ? `size ${stats.size} mtime ${stats.mtimeMs}` : sha256Hex([fs.readFileSync(file).toString('latin1')]);
    lines.add(`${path.relative(cwd, file)} ${digest}`);
  }
  return [...lines].sort().join('\n');
}

const keyParts = (key: TermCacheKey): string[] => [termCacheVersion, key.command, key.cwd, key.oracle ? 'oracle' : 'visible', key.files];
const fileName = (key: TermCacheKey): string => `terms-${sha256Hex(keyParts(key))}.txt`;

/** A value as the file keeps it: JSON, one per line after its request's key. */
export type TermValue = number | boolean;

/**
 * The answers kept for this key, by request key; empty when none are, or what is there is not this
 * key's whole (a planted or damaged file is not used). A file that cannot be used (a link, not this
 * user's…) is also told to `onRefused`, by its path.
 */
export function cachedTermValues(dir: string, key: TermCacheKey, onRefused?: (reason: string) => void): Map<string, TermValue> {
  const values = new Map<string, TermValue>();
  const body = readDigestedFile(dir, fileName(key), keyParts(key), maxInputBytes, onRefused);
  for (const line of body?.split('\n') ?? []) {
    const tab = line.indexOf('\t');
    if (tab < 0) continue;
    const value: unknown = JSON.parse(line.slice(tab + 1));
    if (typeof value === 'boolean' || (typeof value === 'number' && Number.isFinite(value))) values.set(line.slice(0, tab), value);
  }
  return values;
}

/** Keeps the answers (a new file renamed into place); a failure only costs the next run the program. */
export function keepTermValues(dir: string, key: TermCacheKey, values: ReadonlyMap<string, TermValue>): void {
  const lines: string[] = [];
  for (const [request, value] of values) lines.push(`${request}\t${JSON.stringify(value)}\n`);
  const body = lines.join('');
  if (body.length <= maxInputBytes) writeDigestedFile(dir, fileName(key), keyParts(key), body);
}
