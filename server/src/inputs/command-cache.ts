// A candidate command's output kept on disk, as the ranking cache keeps rankings
// (inputs/ranking-cache.ts: same folder, same trust rule, same "only an accelerator" promise), so a
// re-audit does not run a dense retriever or an LLM again. The key is the command text, the folder
// it runs in, the corpus file's content hash and the hash of the request lines: any change to the
// data or the command runs it again. A change to the program's own files does not: edit the
// command (`--v 2`) or run with `--no-cache` (docs/generators.md).
import { createHash } from 'node:crypto';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { maxInputBytes } from './input-limits.js';
import { openInput, readOpened, type InputAccess } from './open-input.js';
import { prepareCacheFolder } from './ranking-cache.js';
import { WorkspaceTrust } from './trust.js';

const commandCacheVersion = 'commands-v1';
/** The ranking cache's folder (prepareCacheFolder makes it). */
const folderName = 'rankings-v1';

const sha256 = (text: string): string => createHash('sha256').update(text, 'utf8').digest('hex');

export interface CommandCacheKey {
  readonly command: string;
  readonly cwd: string;
  readonly corpusHash: string;
  readonly requestLines: string;
}

function cacheFile(dir: string, key: CommandCacheKey): string {
  const name = sha256([commandCacheVersion, key.command, key.cwd, key.corpusHash, sha256(key.requestLines)].join('\u0000'));
  return path.join(dir, folderName, `command-${name}.out`);
}

const access: InputAccess = { trust: WorkspaceTrust.everything, maxBytes: maxInputBytes, limitName: 'for a command cache file' };

/** The output kept for this key; undefined when none is (or it cannot be read). */
export function cachedOutput(dir: string, key: CommandCacheKey): string | undefined {
  const opened = openInput(cacheFile(dir, key), access);
  if (!opened.ok) return undefined;
  try {
    // readOpened closes the descriptor.
    return readOpened(opened, access.maxBytes).toString('utf8');
  } catch {
    return undefined;
  }
}

/** Keeps an output (written whole, then renamed into place); failures only cost the next run the command. */
export function keepOutput(dir: string, key: CommandCacheKey, stdout: string): void {
  try {
    if (prepareCacheFolder(dir) !== undefined) return;
    const file = cacheFile(dir, key);
    const temporary = `${file}.${process.pid}.tmp`;
    fs.writeFileSync(temporary, stdout, { flag: 'wx', mode: 0o644 });
    fs.renameSync(temporary, file);
  } catch {
    // A read-only or full disk: the cache is only an accelerator.
  }
}

/** The report's record of an output: its SHA-256. */
export function outputHash(stdout: string): string {
  return sha256(stdout);
}
