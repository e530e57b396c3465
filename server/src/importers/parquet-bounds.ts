// What a Parquet file claims about itself, checked against its own size and the limits before a value
// is decoded. hyparquet allocates what the file claims: an object per row the footer counts, an array
// slot per value a page header counts, a buffer per page at its claimed uncompressed size. So a
// 592-byte file whose footer claims 10⁹ rows, or a 3 KB file holding 5M rows of one repeated value,
// would exhaust the heap; here such a file is refused with the numbers and the limit, and a file
// whose claims do not add up (a footer's rows its pages do not hold, a page past its column chunk)
// is a damaged one. The page headers are read with hyparquet's own header reader.
import { parquetSchema } from 'hyparquet';
import type { ColumnChunk, FileMetaData, PageHeader, SchemaTree } from 'hyparquet';
import { parquetHeader } from 'hyparquet/src/column.js';
import { maxParquetDecodedBytes, maxParquetExpansion, maxParquetRows, maxParquetValues } from '../problems/limits.js';

const seeLimits = '(see Limits in docs/language.md)';

const number = (n: number): string => n.toLocaleString('en-US');

/** Why a file is refused: over a limit, or damaged (the caller prefixes that). */
export type ClaimsProblem = { readonly kind: 'too-large' | 'damaged'; readonly reason: string };

const tooLarge = (reason: string): ClaimsProblem => ({ kind: 'too-large', reason: `${reason} ${seeLimits}` });
const damaged = (reason: string): ClaimsProblem => ({ kind: 'damaged', reason });

/** A count as the thrift reader gives it (i64 as a bigint, i32 as a number); undefined when it is no whole number ≥ 0. */
function count(value: unknown): number | undefined {
  const n = typeof value === 'bigint' ? Number(value) : value;
  return typeof n === 'number' && Number.isInteger(n) && n >= 0 ? n : undefined;
}

/** Decoded bytes against the limit and against the file's size: `what` says whose claim it is. */
function decodedProblem(decoded: number, fileBytes: number, what: string): ClaimsProblem | undefined {
  if (decoded > maxParquetDecodedBytes) {
    return tooLarge(`${what} ${number(decoded)} bytes of decoded data; at most ${number(maxParquetDecodedBytes)} bytes per Parquet file`);
  }
  if (decoded > maxParquetExpansion * fileBytes) {
    return tooLarge(`${what} ${number(decoded)} bytes of decoded data in a file of ${number(fileBytes)} bytes; a Parquet file may decode to at most ${number(maxParquetExpansion)} times its size`);
  }
  return undefined;
}

/** What the pages of one column chunk claim, read from their headers: data values, dictionary entries, decoded bytes. */
interface ChunkPages {
  readonly values: number;
  readonly entries: number;
  readonly decoded: number;
}

/** A page header's count: an i32 in the format, so a number here, whole and ≥ 0. */
function pageCount(value: unknown): number | undefined {
  return typeof value === 'number' && Number.isInteger(value) && value >= 0 ? value : undefined;
}

/**
 * The values and dictionary entries a page claims, or undefined when a field its type needs is missing
 * or no count: hyparquet computes offsets from them, and an offset that is not a number never
 * advances (a version-2 data page without its levels' lengths read its first byte forever).
 */
function pageClaims(header: PageHeader, stored: number): { values: number; entries: number } | undefined {
  if (header.type === 'DATA_PAGE') {
    const values = pageCount(header.data_page_header?.num_values);
    return values === undefined ? undefined : { values, entries: 0 };
  }
  if (header.type === 'DATA_PAGE_V2') {
    const v2 = header.data_page_header_v2;
    const values = pageCount(v2?.num_values);
    const nulls = pageCount(v2?.num_nulls);
    const definitions = pageCount(v2?.definition_levels_byte_length);
    const repetitions = pageCount(v2?.repetition_levels_byte_length);
    if (values === undefined || nulls === undefined || definitions === undefined || repetitions === undefined) return undefined;
    return nulls <= values && definitions + repetitions <= stored ? { values, entries: 0 } : undefined;
  }
  if (header.type === 'DICTIONARY_PAGE') {
    const entries = pageCount(header.dictionary_page_header?.num_values);
    return entries === undefined ? undefined : { values: 0, entries };
  }
  // An index page, or a type the format does not name: hyparquet refuses it by name.
  return { values: 0, entries: 0 };
}

/**
 * Walks the page headers of one column chunk, `[start, end)` of the file, as hyparquet will read
 * them: every page must lie inside the chunk and claim the sizes and counts its type needs.
 */
function chunkPages(view: DataView, start: number, end: number, column: string): ChunkPages | ClaimsProblem {
  const reader = { view, offset: start };
  let values = 0;
  let entries = 0;
  let decoded = 0;
  while (reader.offset < end) {
    const at = reader.offset;
    let header: PageHeader;
    try {
      header = parquetHeader(reader);
    } catch {
      return damaged(`column '${column}' has an unreadable page header at byte ${number(at)}`);
    }
    const stored = pageCount(header.compressed_page_size);
    const size = pageCount(header.uncompressed_page_size);
    const claims = stored === undefined ? undefined : pageClaims(header, stored);
    if (stored === undefined || size === undefined || claims === undefined) return damaged(`column '${column}' has a page header at byte ${number(at)} without the sizes and counts its page needs`);
    if (reader.offset + stored > end) return damaged(`column '${column}' has a page at byte ${number(at)} that runs past its column chunk`);
    reader.offset += stored;
    decoded += size;
    values += claims.values;
    entries += claims.entries;
  }
  return { values, entries, decoded };
}

/** The byte range of a column chunk, as hyparquet reads it (from its dictionary page when it has one). */
function chunkRange(chunk: ColumnChunk): { start: number; end: number; column: string; decoded: number } | ClaimsProblem {
  const meta = chunk.meta_data;
  if (meta === undefined) return damaged('a column chunk has no metadata');
  const column = Array.isArray(meta.path_in_schema) ? meta.path_in_schema.join('.') : '?';
  const start = count(meta.dictionary_page_offset || meta.data_page_offset);
  const stored = count(meta.total_compressed_size);
  const decoded = count(meta.total_uncompressed_size);
  if (start === undefined || stored === undefined || decoded === undefined) return damaged(`column '${column}' has no valid offset or size`);
  return { start, end: start + stored, column, decoded };
}

const isProblem = (value: object): value is ClaimsProblem => 'kind' in value;

const pathKey = (path: readonly unknown[]): string => JSON.stringify(path);

/** The schema's leaf columns, keyed as `pathKey` of the `path_in_schema` a column chunk names. */
function leafColumns(metadata: FileMetaData): Set<string> {
  const leaves = new Set<string>();
  const stack: SchemaTree[] = [parquetSchema(metadata)];
  for (let node = stack.pop(); node !== undefined; node = stack.pop()) {
    if (node.children.length === 0) leaves.add(pathKey(node.path));
    for (const child of node.children) stack.push(child);
  }
  return leaves;
}

/**
 * Whether each column chunk of a row group is a distinct leaf of the schema. hyparquet starts
 * decoding each chunk as it meets it and stops at the first it cannot place, and a chunk it decodes
 * but never assembles (a second chunk of one column) is never awaited: its errors would escape as
 * unhandled rejections instead of this file's reason.
 */
function chunksProblem(chunks: readonly ColumnChunk[], leaves: Set<string>, group: number): ClaimsProblem | undefined {
  const seen = new Set<string>();
  for (const chunk of chunks) {
    const path: unknown = chunk.meta_data?.path_in_schema;
    const names = Array.isArray(path) && path.every((name) => typeof name === 'string') ? path : undefined;
    const key = names === undefined ? undefined : pathKey(names);
    if (names === undefined || key === undefined || !leaves.has(key)) return damaged(`row group ${group} has a column chunk that is not a column of its schema`);
    if (seen.has(key)) return damaged(`row group ${group} has two chunks of column '${names.join('.')}'`);
    seen.add(key);
  }
  return undefined;
}

/**
 * Why the file cannot be decoded within the limits, or undefined when its footer and page headers
 * add up and stay within them. `bytes` is the whole file; `metadata` its footer as hyparquet read it.
 */
export function parquetClaimsProblem(bytes: Uint8Array, metadata: FileMetaData): ClaimsProblem | undefined {
  const rows = count(metadata.num_rows);
  if (rows === undefined) return damaged('the footer has no row count');
  if (rows > maxParquetRows) return tooLarge(`the footer claims ${number(rows)} rows; at most ${number(maxParquetRows)} rows per Parquet file`);
  const groups = Array.isArray(metadata.row_groups) ? metadata.row_groups : [];
  const leaves = leafColumns(metadata);
  const rowsOf: number[] = [];
  let groupRows = 0;
  let footerDecoded = 0;
  for (const [g, group] of groups.entries()) {
    const n = count(group.num_rows);
    if (n === undefined || !Array.isArray(group.columns)) return damaged(`row group ${g} has no row count or no columns`);
    const unplaced = chunksProblem(group.columns, leaves, g);
    if (unplaced !== undefined) return unplaced;
    rowsOf.push(n);
    groupRows += n;
    if (groupRows > maxParquetRows) return tooLarge(`its row groups claim ${number(groupRows)} rows or more; at most ${number(maxParquetRows)} rows per Parquet file`);
    for (const chunk of group.columns) {
      const range = chunkRange(chunk);
      if (isProblem(range)) return range;
      footerDecoded += range.decoded;
    }
  }
  if (groupRows !== rows) return damaged(`the footer claims ${number(rows)} rows and its row groups ${number(groupRows)}`);
  const footerProblem = decodedProblem(footerDecoded, bytes.length, 'the footer claims');
  if (footerProblem !== undefined) return footerProblem;
  // The pages themselves: what hyparquet allocates is what their headers claim, not the footer.
  const footerStart = bytes.length - 8 - metadata.metadata_length;
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  let values = 0;
  let decoded = 0;
  for (const [g, group] of groups.entries()) {
    for (const chunk of group.columns) {
      const range = chunkRange(chunk);
      if (isProblem(range)) return range;
      if (range.end > footerStart) return damaged(`column '${range.column}' of row group ${g} runs into the footer or past the end of the file`);
      const pages = chunkPages(view, range.start, range.end, range.column);
      if (isProblem(pages)) return pages;
      // Every row has at least one value (a null or an empty list included) in every column.
      const n = rowsOf[g] ?? 0;
      if (pages.values < n) return damaged(`row group ${g} claims ${number(n)} rows, and its column '${range.column}' holds ${number(pages.values)} values`);
      values += pages.values + pages.entries;
      decoded += pages.decoded;
      if (values > maxParquetValues) return tooLarge(`its pages claim ${number(values)} values or more; at most ${number(maxParquetValues)} values per Parquet file`);
    }
  }
  return decodedProblem(decoded, bytes.length, 'its pages claim');
}

/**
 * What a decoded value holds, in bytes as its JSON text would: a string or a byte array its length, a
 * number or flag 8, a list or a struct the sum of its parts. The reader shares one dictionary value
 * among the rows that hold it, but each row's record (and each pool row made from it) has its own
 * copy, so it counts in every row: one 1 MB prompt in the dictionary of a million rows is 1 TB.
 */
export function valueBytes(value: unknown): number {
  if (typeof value === 'string') return value.length;
  if (value instanceof Uint8Array) return value.byteLength;
  if (Array.isArray(value)) {
    let sum = 0;
    for (const item of value) sum += valueBytes(item);
    return sum;
  }
  if (value !== null && typeof value === 'object' && !(value instanceof Date)) {
    let sum = 0;
    for (const [key, item] of Object.entries(value)) sum += key.length + valueBytes(item);
    return sum;
  }
  return 8;
}

/** Refuses the file when its first `rows` rows, as decoded, hold `decoded` bytes of values, more than the limit. */
export function decodedRowsProblem(decoded: number, rows: number): ClaimsProblem | undefined {
  if (decoded <= maxParquetDecodedBytes) return undefined;
  return tooLarge(`its first ${number(rows)} rows hold ${number(decoded)} bytes of values (a dictionary value counts in every row that holds it); at most ${number(maxParquetDecodedBytes)} bytes per Parquet file`);
}
