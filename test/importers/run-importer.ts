// Running an importer through the registry in tests, and resolving its rows against the sample
// corpus as the loader would (inputs/load-inputs.ts), to count ids resolved and unresolved.
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import type { ImportFile, ImportResult, PoolRowJson } from '../../server/src/importers/importer.js';
import { importerFor } from '../../server/src/importers/registry.js';
import type { ImportOutcome } from '../../server/src/importers/registry.js';
import { resolvePool } from '../../server/src/pool/resolve-ids.js';
import type { ResolutionCounts } from '../../server/src/pool/resolve-ids.js';
import { parseCorpusRow, parsePoolRow } from '../../server/src/pool/schemas.js';
import type { Corpus, Passage, Trajectory } from '../../server/src/pool/types.js';

export async function runImporter(format: string, files: readonly ImportFile[], options: Record<string, string> = {}): Promise<ImportResult> {
  const importer = importerFor(format);
  assert.ok(importer !== undefined, `no importer ${format}`);
  const outcome: ImportOutcome = await importer.run(files, options);
  if (!outcome.ok) assert.fail(outcome.reason);
  return outcome.result;
}

/**
 * What `run` returned and the CPU time it took in ms: CPU time, not wall time, so a bound holds on a
 * machine other jobs load, and still tells linear work from quadratic.
 */
export async function cpuTimed<T>(run: () => T | Promise<T>): Promise<{ result: T; ms: number }> {
  const start = process.cpuUsage();
  const result = await run();
  const used = process.cpuUsage(start);
  return { result, ms: (used.user + used.system) / 1000 };
}

export function fileOf(path: string, content: unknown): ImportFile {
  const text = typeof content === 'string' ? content : JSON.stringify(content, null, 2);
  return { path, bytes: new TextEncoder().encode(text) };
}

/** Reasons as `file:line: reason`, the way the CLI prints them. */
export function reasons(result: ImportResult): string[] {
  return result.skipped.map((s) => `${s.at.file}:${s.at.line}: ${s.reason}`);
}

/** samples/pools/corpus.jsonl. */
export function corpus(): Corpus {
  const passages: Passage[] = [];
  for (const line of fs.readFileSync('samples/pools/corpus.jsonl', 'utf8').split('\n')) {
    if (line.trim() === '') continue;
    const parsed = parseCorpusRow(JSON.parse(line));
    if (parsed.ok) passages.push(parsed.value);
  }
  return { file: 'samples/pools/corpus.jsonl', passages: new Map(passages.map((p) => [p.id, p])) };
}

export function passage(id: string): Passage {
  const p = corpus().passages.get(id);
  assert.ok(p !== undefined, id);
  return p;
}

/** The rows as the loader would load them: parsed, then resolved against the sample corpus. */
export function resolved(rows: readonly PoolRowJson[]): { rows: readonly Trajectory[]; counts: ResolutionCounts | undefined; skipped: number } {
  const parsed = rows.map((row, i) => {
    const r = parsePoolRow(row, { pool: 'imported', file: 'imported.jsonl', line: i + 1 });
    if (!r.ok) assert.fail(r.reason);
    return r.value;
  });
  const out = resolvePool(parsed, corpus());
  return { rows: out.rows, counts: out.resolution?.counts, skipped: out.issues.length };
}

/** The meta keys a chat-message row keeps to be rendered back (the logged conversation, the rules it was read with). */
const renderingKeys = new Set(['messages', 'items', 'completion', 'chat_rules']);

/**
 * A row as the importer read it, without what it keeps to be rendered back (compared by the
 * round-trip tests instead) and without its turns (each step's `turn`, the row's `turns`: compared
 * by test/importers/turns.test.ts instead).
 */
export function readFields(row: PoolRowJson | undefined): PoolRowJson | undefined {
  if (row === undefined) return undefined;
  const meta = row.meta as Record<string, unknown>;
  const rest: Record<string, unknown> = { ...row };
  delete rest.turns;
  const steps = Array.isArray(row.steps)
    ? (row.steps as Record<string, unknown>[]).map((step) => Object.fromEntries(Object.entries(step).filter(([k]) => k !== 'turn')))
    : row.steps;
  return { ...rest, steps, meta: Object.fromEntries(Object.entries(meta).filter(([k]) => !renderingKeys.has(k))) };
}
