import { cell, text, type Cell } from './format-blocks.js';
import { importSentence, resolutionCounts, unresolvedSentence } from '../findings/wording.js';
import type { PoolImportReport, PoolResolutionReport } from '../report/schema.js';

// One line per pool or log about what reading it took: its import (`from FORMAT(...)`) and how its
// ids resolved against the corpus. Nothing for a pool in our own format that logs only ids.

export interface ReadPoolLine {
  readonly name: string;
  readonly resolution?: PoolResolutionReport | undefined;
  readonly import?: PoolImportReport | undefined;
}

/** `hotpot: imported 58 of 60 records from verl; …; ids: results 58 logged, 2 unresolved; …`, or undefined. */
export function readFileCells(p: ReadPoolLine): Cell[] | undefined {
  if (p.resolution === undefined && p.import === undefined) return undefined;
  const cells: Cell[] = [text(`${p.name}: `)];
  if (p.import !== undefined) cells.push(cell(importSentence(p.import), p.import.counts.skipped > 0 ? 'warn' : undefined));
  if (p.resolution !== undefined) {
    if (p.import !== undefined) cells.push(text('; '));
    cells.push(text(`ids: ${resolutionCounts(p.resolution)}`));
    const unresolved = unresolvedSentence(p.resolution);
    if (unresolved !== undefined) cells.push(text(' — '), cell(unresolved, 'warn'));
  }
  return cells;
}

/** The fields of a section's header: one `read` line per pool or log with something to say. */
export function readFileFields(pools: readonly ReadPoolLine[]): { name: string; value: Cell[] }[] {
  const fields: { name: string; value: Cell[] }[] = [];
  for (const p of pools) {
    const value = readFileCells(p);
    if (value !== undefined) fields.push({ name: fields.length === 0 ? 'read' : '', value });
  }
  return fields;
}
