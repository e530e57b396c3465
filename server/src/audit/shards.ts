import { deserialize, serialize } from 'node:v8';
import { z } from 'zod';
import { consecutiveRanges, maxRowsPerRange, type PreparedPart } from '../edits/prepare.js';
import type { PartOnWire } from '../threads/parallel-prepare.js';
import { heraldVersion } from '../version.js';

// An audit's rows cut into shards that separate processes (or machines) prepare, and the file each
// writes: the prepared parts of its row ranges, as the threads of one run hand theirs to the calling
// thread (threads/parallel-prepare.ts). Merging lays every shard's parts end to end in row order, as
// one run joins its threads' parts, so the report is the one a single run over every row gives,
// byte for byte (`assemblePrepared`).

/** Shard `index` of `count` (0 ≤ index < count). */
export interface Shard {
  readonly index: number;
  readonly count: number;
}

/** Shards one audit may be cut into at most. */
export const maxShards = 4096;

/** `I/N` as `--shard` takes it, or why not. */
export function parseShard(text: string): Shard | string {
  const match = /^(\d+)\/(\d+)$/.exec(text);
  const index = Number(match?.[1]);
  const count = Number(match?.[2]);
  if (match === null || !Number.isSafeInteger(index) || !Number.isSafeInteger(count) || count < 1 || count > maxShards || index >= count) {
    return `--shard takes I/N, shard I of N counted from 0 (0 ≤ I < N ≤ ${maxShards}), not ${JSON.stringify(text)}`;
  }
  return { index, count };
}

/**
 * The row ranges shard `index` of `count` prepares among `rows` rows: a block of consecutive rows
 * (the blocks of all shards cover every row once, in order), cut into ranges of at most
 * `maxRowsPerRange` rows as a preparation cuts them.
 */
export function shardRanges(rows: number, shard: Shard): { from: number; to: number }[] {
  const from = Math.floor((rows * shard.index) / shard.count);
  const to = Math.floor((rows * (shard.index + 1)) / shard.count);
  return consecutiveRanges(to - from, maxRowsPerRange).map((r) => ({ from: from + r.from, to: from + r.to }));
}

/** One audit's share of a shard: the parts of its ranges, under the key of what preparing read. */
export interface ShardAudit {
  readonly name: string;
  /** The preparation's key with the data files' contents for their stamps: equal wherever the same spec reads the same bytes. */
  readonly key: string;
  /** The audit's rows in all (every shard's). */
  readonly rows: number;
  readonly parts: readonly { readonly from: number; readonly to: number; readonly part: PartOnWire }[];
}

/** What `herald audit --shard I/N --partial FILE` writes. */
export interface PartialFile {
  readonly format: 'herald-partial';
  readonly version: typeof partialVersion;
  readonly tool: string;
  /** The spec's absolute path when the shard ran, and the SHA-256 of its text. */
  readonly spec: { readonly path: string; readonly sha256: string };
  readonly shard: Shard;
  readonly audits: readonly ShardAudit[];
}

const partialVersion = 1;

// The file is Node's structured-clone serialisation (node:v8), which keeps the parts' typed arrays
// as they are; what it holds is checked before use, the parts' arrays against the plan at the merge
// (`partProblem`).
const typed = <T>(kind: new (...args: never[]) => T) => z.custom<T>((value) => value instanceof kind, { message: `not a ${kind.name}` });
const runPartSchema = z.object({
  rowFlags: typed(Uint8Array), constructible: z.number().int().nonnegative(), eligible: z.number().int().nonnegative(),
  editRow: typed(Int32Array), editPosition: typed(Int32Array), editOrdinal: typed(Int32Array),
  editReplacement: z.object({ places: typed(Int32Array), others: typed(Map), corpusIds: z.array(z.string()).length(0) }),
  editOrigins: typed(Int32Array).optional(),
  changes: z.object({ columns: typed(Int32Array), vectors: typed(Float64Array), vectorOf: typed(Int32Array) }),
  detectorBits: typed(Uint32Array),
  unrendered: z.object({ edits: z.number().int().nonnegative(), first: z.object({ row: z.number().int().nonnegative(), reason: z.string() }).optional() }),
  targetActive: z.array(z.number().int().nonnegative()), targetFlips: z.array(z.number().int().nonnegative()), otherChanges: z.array(z.number().int().nonnegative()),
});
const dropsSchema = z.array(z.object({ label: z.string(), dropped: z.object({ notInCorpus: z.number(), excluded: z.number(), duplicates: z.number() }) }));
const partSchema = z.object({
  originalValues: typed(Float64Array), originalMetrics: typed(Float64Array), runs: z.array(runPartSchema), drops: z.array(dropsSchema),
  failure: z.object({ stage: z.number().int().nonnegative(), row: z.number().int().nonnegative().optional(), message: z.string() }).optional(),
});
const partialSchema = z.object({
  format: z.literal('herald-partial'),
  version: z.literal(partialVersion),
  tool: z.string(),
  spec: z.object({ path: z.string(), sha256: z.string() }),
  shard: z.object({ index: z.number().int().nonnegative(), count: z.number().int().positive().max(maxShards) }).refine((s) => s.index < s.count, 'a shard index past its count'),
  audits: z.array(z.object({
    name: z.string(), key: z.string(), rows: z.number().int().nonnegative(),
    parts: z.array(z.object({ from: z.number().int().nonnegative(), to: z.number().int().nonnegative(), part: partSchema })),
  })),
});

export function encodePartial(partial: PartialFile): Buffer {
  return serialize(partial);
}

/** A partial file's contents, or why they are not one this version of herald wrote. */
export function decodePartial(bytes: Buffer): PartialFile | string {
  let value: unknown;
  try {
    value = deserialize(bytes);
  } catch {
    return 'not a partial file (herald audit --shard I/N --partial FILE writes one)';
  }
  const header = z.object({ format: z.literal('herald-partial'), version: z.number(), tool: z.string() }).safeParse(value);
  if (!header.success) return 'not a partial file (herald audit --shard I/N --partial FILE writes one)';
  if (header.data.version !== partialVersion || header.data.tool !== heraldVersion) {
    return `written by herald ${header.data.tool} (partial format ${header.data.version}); this is herald ${heraldVersion}: run the shards again with it`;
  }
  const parsed = partialSchema.safeParse(value);
  if (!parsed.success) {
    const issue = parsed.error.issues[0]!;
    return `a damaged partial file: ${issue.path.join('.')}: ${issue.message}`;
  }
  return parsed.data as PartialFile;
}

/**
 * One audit's parts from every shard's file, in row order, or why they are not every row exactly
 * once under the same key (a shard missing or given twice, shards of another spec or data).
 */
export function mergedParts(audit: string, key: string, rows: number, shards: readonly PartialFile[]): { from: number; to: number; part: PartOnWire }[] | string {
  const count = shards[0]?.shard.count ?? 0;
  const seen = new Set<number>();
  for (const file of shards) {
    if (file.shard.count !== count) return `the shards were cut into different counts (${count} and ${file.shard.count})`;
    if (seen.has(file.shard.index)) return `shard ${file.shard.index}/${count} is given twice`;
    seen.add(file.shard.index);
  }
  const missing = Array.from({ length: count }, (_, i) => i).filter((i) => !seen.has(i));
  if (missing.length > 0) return `shard${missing.length === 1 ? '' : 's'} ${missing.map((i) => `${i}/${count}`).join(', ')} missing`;
  const parts: { from: number; to: number; part: PartOnWire }[] = [];
  for (const file of shards) {
    const share = file.audits.find((a) => a.name === audit);
    if (share === undefined) return `shard ${file.shard.index}/${count} has no audit '${audit}' (run every shard with the same --audit)`;
    if (share.key !== key || share.rows !== rows) return `shard ${file.shard.index}/${count} of audit '${audit}' was prepared from another spec or other data than the merge reads now`;
    parts.push(...share.parts);
  }
  parts.sort((a, b) => a.from - b.from);
  let next = 0;
  for (const { from, to } of parts) {
    if (from !== next || to <= from) return `the shards' rows of audit '${audit}' do not cover its ${rows} rows once each`;
    next = to;
  }
  if (next !== rows) return `the shards' rows of audit '${audit}' do not cover its ${rows} rows once each`;
  return parts;
}

/**
 * Why a part read from a file does not fit the plan it is merged under (its arrays' lengths
 * against its rows, the features and the attacks), or undefined when it fits.
 */
export function partProblem(part: PreparedPart, rows: number, features: number, attacks: number): string | undefined {
  if (part.failure !== undefined) return undefined;
  if (part.originalValues.length !== rows * features) return 'its originals do not match the spec\'s features';
  if (part.runs.length !== attacks || part.drops.length !== attacks) return 'its attacks do not match the spec\'s';
  for (const run of part.runs) {
    const edits = run.editRow.length;
    if (run.rowFlags.length !== rows || run.editPosition.length !== edits || run.editOrdinal.length !== edits || run.changes.vectorOf.length !== edits || run.editReplacement.places.length !== edits) {
      return 'its edits are not whole';
    }
    if (run.editRow.some((row) => row < 0 || row >= rows)) return 'an edit names a row outside its range';
  }
  return undefined;
}
