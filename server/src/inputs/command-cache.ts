// A candidate command's output kept on disk, as the ranking cache keeps rankings
// (inputs/ranking-cache.ts: same folder, same trust rule, same "only an accelerator" promise), so a
// re-audit does not run a dense retriever or an LLM again. The key is the command text, the folder
// it runs in, the corpus file's content hash and the hash of the request lines: any change to the
// data or the command runs it again. A change to the program's own files does not: edit the
// command (`--v 2`) or run with `--no-cache` (docs/generators.md). How the file is read and written
// (never through a link, never from a folder others can write) is inputs/cache-folder.ts's.
import { createHash } from 'node:crypto';
import { maxInputBytes } from './input-limits.js';
import { readDigestedFile, sha256Hex, writeDigestedFile } from './cache-folder.js';

const commandCacheVersion = 'commands-v2';

export interface CommandCacheKey {
  readonly command: string;
  readonly cwd: string;
  readonly corpusHash: string;
  readonly requestLines: string;
}

function keyParts(key: CommandCacheKey): string[] {
  return [commandCacheVersion, key.command, key.cwd, key.corpusHash, sha256Hex([key.requestLines])];
}

const fileName = (key: CommandCacheKey): string => `command-${sha256Hex(keyParts(key))}.out`;

/**
 * The output kept for this key; undefined when none is, or what is there is not this key's output
 * whole (its digest differs). A file that cannot be used is told to `onRefused`, by its path.
 */
export function cachedOutput(dir: string, key: CommandCacheKey, onRefused?: (reason: string) => void): string | undefined {
  return readDigestedFile(dir, fileName(key), keyParts(key), maxInputBytes, onRefused);
}

/** Keeps an output (a new file renamed into place); failures only cost the next run the command. */
export function keepOutput(dir: string, key: CommandCacheKey, stdout: string): void {
  writeDigestedFile(dir, fileName(key), keyParts(key), stdout);
}

/** The report's record of an output: the SHA-256 of its bytes alone (what `sha256sum` gives). */
export function outputHash(stdout: string): string {
  return createHash('sha256').update(stdout, 'utf8').digest('hex');
}
