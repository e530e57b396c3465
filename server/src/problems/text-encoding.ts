// The one rule that tells a file that is not UTF-8 text from one that is, read on its first line:
// for a spec (syntax/parse.ts, on the text as decoded) and a data file (inputs/jsonl.ts, on its
// bytes) alike. UTF-16 starts with a byte order mark or, without one, has a NUL in every other unit
// of its ASCII characters; any other NUL on the first line is binary content. Text never holds a
// NUL, so a NUL on a later line of a file whose first line is text is that line's problem alone
// (a data row with one is skipped with the reason; docs/pools.md).

export type NotText = 'utf-16' | 'binary';

const utf16Marks: readonly (readonly [number, number])[] = [[0xff, 0xfe], [0xfe, 0xff]];

/** How many units of the first line the UTF-16 pattern is looked for in. */
const sampleUnits = 256;

/**
 * What a file whose first line (without its line end) is `line` is, when it is not UTF-8 text:
 * `line` is the file's bytes, or the code units of the text a spec was decoded to (a NUL byte
 * decodes to a NUL character, one unit for one byte).
 */
export function firstLineEncoding(line: Uint8Array | string): NotText | undefined {
  const unitAt = typeof line === 'string' ? (i: number): number => line.charCodeAt(i) : (i: number): number => line[i]!;
  if (line.length >= 2 && utf16Marks.some(([a, b]) => unitAt(0) === a && unitAt(1) === b)) return 'utf-16';
  const hasNul = typeof line === 'string' ? line.includes('\0') : line.includes(0);
  if (!hasNul) return undefined;
  const sampled = Math.min(line.length, sampleUnits);
  const nuls = [0, 0];
  for (let i = 0; i < sampled; i++) if (unitAt(i) === 0) nuls[i % 2]! += 1;
  // UTF-16 of ASCII text: NULs at one parity only, and at most places of it (a character outside
  // Latin-1 has no NUL byte).
  const [even, odd] = nuls as [number, number];
  const places = Math.floor(sampled / 2);
  return (even === 0 && 2 * odd >= places) || (odd === 0 && 2 * even >= places) ? 'utf-16' : 'binary';
}
