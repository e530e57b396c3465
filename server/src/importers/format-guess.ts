// Which format a log looks like, from its first records: each registered importer is run, with its
// default options, on the first records of the first file, and the format that imports the most of
// them is the guess. The importers themselves decide what a record of their format is, so a guess
// never disagrees with what `--from GUESS` would then do on those records. Pure, like the importers.
import type { ImportFile } from './importer.js';
import { importers } from './registry.js';

/** How many records of a JSON Lines file are tried: enough to get past a first odd record. */
export const guessedRecords = 5;

export interface FormatGuess {
  readonly format: string;
  /** Records of the sample the format imported, of `tried`. */
  readonly imported: number;
  readonly tried: number;
}

/**
 * The first `guessedRecords` lines of a JSON Lines file; a file whose first line is not a JSON object
 * by itself (one JSON document, pretty-printed; Parquet) whole, since its first record is all of it.
 */
export function firstRecords(file: ImportFile): ImportFile {
  const newline = 0x0a;
  const ends: number[] = [];
  for (let k = 0; k < file.bytes.length && ends.length < guessedRecords; k++) if (file.bytes[k] === newline) ends.push(k);
  const firstEnd = ends[0];
  if (firstEnd === undefined) return file;
  try {
    const first: unknown = JSON.parse(new TextDecoder('utf-8', { fatal: true }).decode(file.bytes.subarray(0, firstEnd)));
    if (typeof first !== 'object' || first === null || Array.isArray(first)) return file;
  } catch {
    return file;
  }
  const end = ends.length < guessedRecords ? file.bytes.length : ends[ends.length - 1]! + 1;
  return { path: file.path, bytes: file.bytes.subarray(0, end) };
}

/**
 * The format the first file's first records import best under, or undefined when no format imports
 * one of them. Ties go to the earlier format in the registry's order. `files` are the logs as they
 * would be imported; a format whose records span files (BrowseComp-Plus's query file) is tried on
 * the first file alone, which holds a run's records.
 */
export async function guessFormat(files: readonly ImportFile[]): Promise<FormatGuess | undefined> {
  const first = files[0];
  if (first === undefined) return undefined;
  const sample = [firstRecords(first)];
  let best: FormatGuess | undefined;
  for (const importer of importers) {
    const outcome = await importer.run(sample, {});
    if (!outcome.ok) continue;
    const { imported, read } = outcome.result.counts;
    if (imported > 0 && (best === undefined || imported > best.imported)) best = { format: importer.format, imported, tried: read };
  }
  return best;
}

/** The registry's formats with the guessed one first (the rest in the registry's order). */
export function formatsGuessedFirst(guessed: string | undefined): string[] {
  const formats = importers.map((i) => i.format);
  return guessed === undefined || !formats.includes(guessed) ? formats : [guessed, ...formats.filter((f) => f !== guessed)];
}
