// Parquet fixtures written in the test with hyparquet-writer, in the layouts the frameworks write:
// ART's trajectories (pyarrow schema of art/utils/trajectory_logging.py, ZSTD) and TRL's completions.
import { gzipSync } from 'node:zlib';
import { ByteWriter, ParquetWriter, parquetWriteBuffer, schemaFromColumnData } from 'hyparquet-writer';
import type { ImportFile } from '../../server/src/importers/importer.js';

/**
 * A valid zstd frame holding `data` in raw (stored) blocks: enough to prove the reader's ZSTD path
 * without a zstd compressor in the test (node 20's zlib has none).
 */
export function zstdStored(data: Uint8Array): Uint8Array {
  const blocks: number[] = [];
  const blockSize = 65536;
  for (let start = 0; start < data.length || start === 0; start += blockSize) {
    const chunk = data.subarray(start, start + blockSize);
    const last = start + blockSize >= data.length ? 1 : 0;
    const header = last | (chunk.length << 3);
    blocks.push(header & 0xff, (header >> 8) & 0xff, (header >> 16) & 0xff, ...chunk);
    if (data.length === 0) break;
  }
  const size = data.length;
  // Magic, then a descriptor: single segment, 4-byte content size.
  const frame = [0x28, 0xb5, 0x2f, 0xfd, 0xa0, size & 0xff, (size >> 8) & 0xff, (size >> 16) & 0xff, (size >>> 24) & 0xff, ...blocks];
  return new Uint8Array(frame);
}

export type Codec = 'SNAPPY' | 'ZSTD' | 'GZIP' | 'UNCOMPRESSED';

const compressors = { ZSTD: zstdStored, GZIP: (input: Uint8Array) => new Uint8Array(gzipSync(input)) };

const utf8 = { type: 'BYTE_ARRAY', converted_type: 'UTF8', repetition_type: 'OPTIONAL' } as const;

export interface ArtMessage {
  role: string;
  content: string | null;
  tool_calls: string | null;
  tool_call_id: string | null;
}

export interface ArtRow {
  group_index: number;
  reward: number;
  metadata: string | null;
  messages: ArtMessage[];
}

export function artParquet(path: string, rows: readonly ArtRow[], codec: Codec = 'ZSTD'): ImportFile {
  const schema = [
    { name: 'root', num_children: 4 },
    { name: 'group_index', type: 'INT64', repetition_type: 'OPTIONAL' },
    { name: 'reward', type: 'DOUBLE', repetition_type: 'OPTIONAL' },
    { name: 'metadata', ...utf8 },
    { name: 'messages', repetition_type: 'OPTIONAL', converted_type: 'LIST', num_children: 1 },
    { name: 'list', repetition_type: 'REPEATED', num_children: 1 },
    { name: 'element', repetition_type: 'OPTIONAL', num_children: 4 },
    { name: 'role', ...utf8 },
    { name: 'content', ...utf8 },
    { name: 'tool_calls', ...utf8 },
    { name: 'tool_call_id', ...utf8 },
  ] as const;
  const buffer = parquetWriteBuffer({
    columnData: [
      { name: 'group_index', data: rows.map((r) => BigInt(r.group_index)) },
      { name: 'reward', data: rows.map((r) => r.reward) },
      { name: 'metadata', data: rows.map((r) => r.metadata) },
      { name: 'messages', data: rows.map((r) => r.messages) },
    ],
    schema: [...schema],
    codec,
    compressors,
  });
  return { path, bytes: new Uint8Array(buffer) };
}

/** TRL's completions table: text prompt and completion, one DOUBLE column per reward function, advantage. */
export function trlParquet(path: string, rows: readonly Record<string, string | number>[], codec: Codec = 'SNAPPY'): ImportFile {
  const columns = Object.keys(rows[0] ?? {});
  const buffer = parquetWriteBuffer({
    columnData: columns.map((name) => {
      const data = rows.map((r) => r[name] ?? null);
      return typeof data[0] === 'string' ? { name, data, type: 'STRING' as const } : name === 'step' ? { name, data: data.map((v) => BigInt(Number(v))), type: 'INT64' as const } : { name, data, type: 'DOUBLE' as const };
    }),
    codec,
    compressors,
  });
  return { path, bytes: new Uint8Array(buffer) };
}

const trlRow = { step: 1, prompt: 'Question: who?', completion: '<answer>x</answer>', accuracy_reward: 1 };

/** TRL's columns, each holding `n` copies of `trlRow`'s value (or of `prompt`): one dictionary page and one run each. */
function trlColumns(n: number, prompt = trlRow.prompt) {
  const column = <T>(value: T): T[] => new Array<T>(n).fill(value);
  return [
    { name: 'step', data: column(1n), type: 'INT64' as const },
    { name: 'prompt', data: column(prompt), type: 'STRING' as const },
    { name: 'completion', data: column(trlRow.completion), type: 'STRING' as const },
    { name: 'accuracy_reward', data: column(1), type: 'DOUBLE' as const },
  ];
}

/**
 * `n` TRL rows in one row group, with the footer's counts changed by `claim` before it is written:
 * a file whose footer claims what its pages do not hold.
 */
export function claimingTrl(path: string, n: number, claim: (footer: ParquetWriter) => void, prompt?: string): ImportFile {
  const columnData = trlColumns(n, prompt);
  const writer = new ByteWriter();
  const parquet = new ParquetWriter({ writer, schema: schemaFromColumnData({ columnData }) });
  // A ByteWriter writes synchronously: neither call returns a promise with it.
  void parquet.write({ columnData, rowGroupSize: Math.max(1, n) });
  claim(parquet);
  void parquet.finish();
  return { path, bytes: writer.getBytes() };
}

/** Issue 33's first Parquet bomb: a TRL file of 3 rows, about 700 bytes, whose footer (and row group) claims 10⁹. */
export function billionRowClaim(path: string): ImportFile {
  return claimingTrl(path, 3, (footer) => {
    footer.num_rows = 1_000_000_000n;
    for (const group of footer.row_groups) group.num_rows = 1_000_000_000n;
  });
}

/** Issue 33's second: `n` identical TRL rows in one row group, dictionary- and run-length-encoded to a few KB. */
export function repeatedRows(path: string, n: number): ImportFile {
  return claimingTrl(path, n, () => undefined);
}

/** `n` TRL rows that share one prompt of `promptBytes`: stored once in the column's dictionary, copied into every row's record. */
export function sharedPrompt(path: string, n: number, promptBytes: number): ImportFile {
  return claimingTrl(path, n, () => undefined, `Question: ${'why '.repeat(promptBytes / 4)}`);
}
