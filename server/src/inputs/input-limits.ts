// How much data one analysis may read. Loaded rows take several times their file's size in memory
// and an audit's edits several times more, so a file past these limits would end in V8's
// out-of-memory abort instead of an answer; it is refused before a byte of it is read, with the
// limit in the message. docs/language.md ("Limits") states them and what they were measured on.

const mebibyte = 1024 * 1024;

/** The largest pool, corpus, candidate file or training/evaluation log one spec may link, by default. */
export const maxInputBytes = 128 * mebibyte;

/** The largest sum of the files one analysis (an audit, a training block, one arm of a comparison) loads, by default. */
export const maxAnalysisBytes = 160 * mebibyte;

/** How much the linked files of one analysis may hold: each file, and all of them together. */
export interface InputLimits {
  readonly file: number;
  readonly analysis: number;
}

export const defaultInputLimits: InputLimits = { file: maxInputBytes, analysis: maxAnalysisBytes };

/**
 * What `--max-input-mib` and the setting `herald.maxInputMiB` take. The limits protect a machine of
 * a few GiB; a user whose machine has the memory raises them (docs/language.md, Limits). They only
 * go up: the least value is the default total.
 */
export const raisedLimitMebibytes = { least: maxAnalysisBytes / mebibyte, most: 65_536 } as const;

/** Ends a refusal by size: how the user raises the limit. */
export const raiseLimitsHint = 'raise it with --max-input-mib or the setting herald.maxInputMiB; see Limits in docs/language.md';

/** The limits raised to `mebibytes` for each file and for all of them together; undefined keeps the defaults. */
export function inputLimitsOf(mebibytes: number | undefined): InputLimits {
  if (mebibytes === undefined) return defaultInputLimits;
  return { file: mebibytes * mebibyte, analysis: mebibytes * mebibyte };
}

/** Why a raised limit cannot be taken, or undefined: a whole number of MiB from the default total up. */
export function raisedLimitProblem(mebibytes: number): string | undefined {
  const { least, most } = raisedLimitMebibytes;
  if (Number.isInteger(mebibytes) && mebibytes >= least && mebibytes <= most) return undefined;
  return `a whole number of MiB from ${least} (the default limit) to ${most.toLocaleString('en-US')}`;
}

/**
 * The largest imported pool (its files together) the editor imports itself, to put the importer's
 * skipped records on their lines: it does so in a worker thread, but a 118 MiB verl dump takes
 * seconds and its rows' hover lines cross to the server thread; 16 MiB takes a few seconds. The
 * audit reads a larger pool as usual.
 */
export const maxEditorImportBytes = 16 * mebibyte;

/** The largest baseline file read (a baseline holds a few figures per attack: kilobytes). */
export const maxBaselineBytes = 16 * mebibyte;

/** The most folder entries a glob link's walk looks at (a `**` over a large tree stops here, with the reason). */
export const maxGlobEntries = 100_000;

/** `1.5 GiB`, `256 MiB`, `12 KiB`, `80 bytes`: sizes as the limit messages name them. */
export function formatBytes(bytes: number): string {
  const units = [['GiB', 1024 ** 3], ['MiB', mebibyte], ['KiB', 1024]] as const;
  for (const [unit, size] of units) {
    if (bytes >= size) {
      const value = bytes / size;
      return `${Number.isInteger(value) ? value : value.toFixed(1)} ${unit}`;
    }
  }
  return `${bytes} bytes`;
}
