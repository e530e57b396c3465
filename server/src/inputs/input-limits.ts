// How much data one analysis may read. Loaded rows take several times their file's size in memory
// and an audit's edits several times more, so a file past these limits would end in V8's
// out-of-memory abort instead of an answer; it is refused before a byte of it is read, with the
// limit in the message. docs/language.md ("Limits") states them and what they were measured on.

const mebibyte = 1024 * 1024;

/** The largest pool, corpus, candidate file or training/evaluation log one spec may link. */
export const maxInputBytes = 128 * mebibyte;

/** The largest sum of the files one analysis (an audit, a training block, one arm of a comparison) loads. */
export const maxAnalysisBytes = 160 * mebibyte;

/**
 * The largest imported pool (its files together) the editor imports itself, to put the importer's
 * skipped records on their lines: it does so on the language server's thread, where a 118 MiB verl
 * dump takes seconds; 16 MiB takes well under one. The audit reads a larger pool as usual.
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
