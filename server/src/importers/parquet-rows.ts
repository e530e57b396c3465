// Parquet files (TRL completions, ART trajectories) as plain JSON records, read with hyparquet: a
// pure-JS reader, so the extension stays one platform-independent .vsix. hyparquet decodes
// uncompressed and Snappy pages itself; pyarrow's other usual codecs are added here, also without
// native code: ZSTD (ART writes it) with fzstd, GZIP and Brotli with node's own zlib. What the file
// claims (rows, values, decoded bytes) is checked first (`parquet-bounds.ts`), and each page
// decompresses into no more than its header claimed, so no file makes the reader allocate past the
// limits; the rows are decoded a row group at a time.
import { gunzipSync, brotliDecompressSync } from 'node:zlib';
import { decompress as zstdDecompress } from 'fzstd';
import { parquetMetadata, parquetReadObjects, parquetSchema } from 'hyparquet';
import type { Compressors, FileMetaData } from 'hyparquet';
import { decodedRowsProblem, parquetClaimsProblem, valueBytes } from './parquet-bounds.js';
import type { ClaimsProblem } from './parquet-bounds.js';

// A page is checked against its claimed size after it is decompressed; zlib stops at that size, so a
// page that inflates further fails at once instead of first filling memory.
const compressors: Compressors = {
  ZSTD: (input, outputLength) => zstdDecompress(input, new Uint8Array(outputLength)),
  GZIP: (input, outputLength) => gunzipSync(input, { maxOutputLength: Math.max(1, outputLength) }),
  BROTLI: (input, outputLength) => brotliDecompressSync(input, { maxOutputLength: Math.max(1, outputLength) }),
};

/** One Parquet row as JSON: INT64 as a number (a string past 2^53), timestamps as ISO strings. */
export type ParquetRecord = Readonly<Record<string, unknown>>;

export type ParquetRead = { readonly ok: true; readonly records: readonly ParquetRecord[]; readonly columns: readonly string[] } | { readonly ok: false; readonly reason: string };

/** The 4-byte magic at both ends of every Parquet file. */
const magic = [0x50, 0x41, 0x52, 0x31] as const;

/**
 * Whether the file begins like Parquet. Only the start is looked at: a file cut short has lost the
 * magic at its end, and is a damaged Parquet file, not text (no JSON or JSONL file starts `PAR1`).
 */
export function looksLikeParquet(bytes: Uint8Array): boolean {
  return magic.every((b, i) => bytes[i] === b);
}

const endsLikeParquet = (bytes: Uint8Array): boolean => bytes.length >= 12 && magic.every((b, i) => bytes[bytes.length - 4 + i] === b);

const damaged = (why: string): ParquetRead => ({ ok: false, reason: `a truncated or damaged Parquet file: ${why}` });

const refused = (problem: ClaimsProblem): ParquetRead => (problem.kind === 'damaged' ? damaged(problem.reason) : { ok: false, reason: `too large to read: ${problem.reason}` });

function plainValue(value: unknown): unknown {
  if (typeof value === 'bigint') return Number.isSafeInteger(Number(value)) ? Number(value) : value.toString();
  if (value instanceof Date) return value.toISOString();
  if (value instanceof Uint8Array) return new TextDecoder().decode(value);
  if (Array.isArray(value)) return value.map(plainValue);
  if (value !== null && typeof value === 'object') {
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, plainValue(v)]));
  }
  return value;
}

function message(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

/** The footer and the top-level column names, or why they cannot be read. */
function footerOf(file: ArrayBuffer): { metadata: FileMetaData; columns: string[] } | string {
  try {
    // No GeoParquet columns in a training log, and hyparquet's marking of them loops forever on a
    // schema element that claims a negative number of children.
    const metadata = parquetMetadata(file, { geoparquet: false });
    return { metadata, columns: parquetSchema(metadata).children.map((child) => child.element.name) };
  } catch (error) {
    return message(error);
  }
}

/**
 * Every row of a Parquet file, or why it cannot be read: not Parquet, cut short or damaged, past a
 * limit (`problems/limits.ts`), or a codec or type hyparquet lacks.
 */
export async function readParquet(bytes: Uint8Array): Promise<ParquetRead> {
  if (!looksLikeParquet(bytes)) return { ok: false, reason: 'not a Parquet file (no PAR1 magic at its start and end)' };
  if (!endsLikeParquet(bytes)) return damaged('it does not end with the PAR1 magic');
  const file = new ArrayBuffer(bytes.byteLength);
  const copy = new Uint8Array(file);
  copy.set(bytes);
  const footer = footerOf(file);
  if (typeof footer === 'string') return damaged(footer);
  let problem: ReturnType<typeof parquetClaimsProblem>;
  try {
    problem = parquetClaimsProblem(copy, footer.metadata);
  } catch (error) {
    return damaged(message(error));
  }
  if (problem !== undefined) return refused(problem);
  try {
    const records: ParquetRecord[] = [];
    // A row group at a time: only one group's decoded columns are alive beside the records. Each
    // row is sized before it is copied into a record, where shared dictionary values multiply.
    // The footer is narrowed to the group, so each read plans one group, not all of them again.
    let decoded = 0;
    for (const group of footer.metadata.row_groups) {
      if (Number(group.num_rows) === 0) continue;
      const metadata = { ...footer.metadata, row_groups: [group], num_rows: group.num_rows };
      const rows = await parquetReadObjects({ file, metadata, compressors });
      for (const row of rows) {
        decoded += valueBytes(row);
        const tooLarge = decodedRowsProblem(decoded, records.length + 1);
        if (tooLarge !== undefined) return refused(tooLarge);
        records.push(Object.fromEntries(Object.entries(row).map(([k, v]) => [k, plainValue(v)])));
      }
    }
    return { ok: true, records, columns: footer.columns };
  } catch (error) {
    return { ok: false, reason: `the Parquet reader failed: ${message(error)}` };
  }
}
