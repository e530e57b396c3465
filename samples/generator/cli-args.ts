/** Reads the generator's command line: `--out DIR [--scale N] [--corpus-size N] [--seed S]`. */
import { DEFAULT_CORPUS_SIZE, DEFAULT_SEED, type GenerateOptions } from './generate.js';

export const USAGE = 'usage: node out/samples/generator/main.js --out DIR [--scale N] [--corpus-size N] [--seed S]';

/** Fewer passages cannot hold every question family; the generator needs room for distractors. */
const MIN_CORPUS_SIZE = 300;

export type ParsedArgs = { kind: 'options'; options: GenerateOptions } | { kind: 'help' } | { kind: 'error'; message: string };

export function parseArgs(argv: readonly string[]): ParsedArgs {
  let outDir: string | undefined;
  let seed = DEFAULT_SEED;
  let scale = 1;
  let corpusSize = DEFAULT_CORPUS_SIZE;
  for (let i = 0; i < argv.length; i++) {
    const flag = argv[i];
    if (flag === '--help' || flag === '-h') return { kind: 'help' };
    const value = argv[i + 1];
    if (value === undefined || value.startsWith('--')) return { kind: 'error', message: `${flag} needs a value` };
    i++;
    switch (flag) {
      case '--out':
        outDir = value;
        break;
      case '--seed':
        seed = value;
        break;
      case '--scale':
        scale = Number(value);
        if (!Number.isFinite(scale) || scale <= 0) return { kind: 'error', message: `--scale must be a positive number, not ${value}` };
        break;
      case '--corpus-size':
        corpusSize = Number(value);
        if (!Number.isInteger(corpusSize) || corpusSize < MIN_CORPUS_SIZE) {
          return { kind: 'error', message: `--corpus-size must be a whole number of at least ${MIN_CORPUS_SIZE}, not ${value}` };
        }
        break;
      default:
        return { kind: 'error', message: `unknown option ${flag}` };
    }
  }
  if (outDir === undefined) return { kind: 'error', message: '--out is required' };
  return { kind: 'options', options: { outDir, seed, scale, corpusSize } };
}
