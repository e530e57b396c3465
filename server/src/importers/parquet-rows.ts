// Parquet files (TRL completions, ART trajectories) as plain JSON records, read with hyparquet: a
// pure-JS reader, so the extension stays one platform-independent .vsix. hyparquet decodes
// uncompressed and Snappy pages itself; pyarrow's other usual codecs are added here, also without
// native code: ZSTD (ART writes it) with fzstd, GZIP and Brotli with node's own zlib.
import { gunzipSync, brotliDecompressSync } from 'node:zlib';
import { decompress as zstdDecompress } from 'fzstd';
import { parquetMetadata, parquetReadObjects, parquetSchema } from 'hyparquet';
import type { Compressors } from 'hyparquet';

const compressors: Compressors = {
  ZSTD: (input, outputLength) => zstdDecompress(input, new Uint8Array(outputLength)),
  GZIP: (input) => gunzipSync(input),
  BROTLI: (input) => brotliDecompressSync(input),
};

/** One Parquet row as JSON: INT64 as a number (a string past 2^53), timestamps as ISO strings. */
export type ParquetRecord = Readonly<Record<string, unknown>>;

export type ParquetRead = { readonly ok: true; readonly records: readonly ParquetRecord[]; readonly columns: readonly string[] } | { readonly ok: false; readonly reason: string };

/** The 4-byte magic at both ends of every Parquet file. */
export function looksLikeParquet(bytes: Uint8Array): boolean {
  const magic = [0x50, 0x41, 0x52, 0x31];
  return bytes.length >= 12 && magic.every((b, i) => bytes[i] === b && bytes[bytes.length - 4 + i] === b);
}

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

/** Every row of a Parquet file, or why it cannot be read (not Parquet, a codec or type hyparquet lacks). */
export async function readParquet(bytes: Uint8Array): Promise<ParquetRead> {
  if (!looksLikeParquet(bytes)) return { ok: false, reason: 'not a Parquet file (no PAR1 magic at its start and end)' };
  const file = new ArrayBuffer(bytes.byteLength);
  new Uint8Array(file).set(bytes);
  try {
    const metadata = parquetMetadata(file);
    const columns = parquetSchema(metadata).children.map((child) => child.element.name);
    const rows = await parquetReadObjects({ file, metadata, compressors });
    const records = rows.map((row) => Object.fromEntries(Object.entries(row).map(([k, v]) => [k, plainValue(v)])));
    return { ok: true, records, columns };
  } catch (error) {
    return { ok: false, reason: `the Parquet reader failed: ${message(error)}` };
  }
}
