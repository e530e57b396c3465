// What every imported row is held to before the pool format reads it (registry.ts): bounded in
// steps, results per step and nesting (docs/language.md, "Limits"), and free of numbers JSON cannot
// write. `JSON.parse` reads `1e999` as Infinity, and Parquet floats hold NaN; written to a pool,
// each would become `null` without a word, so a row holding one is skipped, naming the field.
import { maxImportedResults, maxImportedSteps, maxImportNesting } from '../problems/limits.js';
import type { PoolRowJson } from './importer.js';
import { isRecord } from './jsonl-records.js';

/** A value met in the walk, with how it was reached (kept as links, so a path is built only for a reason). */
interface Visit {
  readonly value: unknown;
  readonly depth: number;
  readonly key: string | number;
  readonly parent: Visit | undefined;
}

function pathOf(visit: Visit): string {
  const keys: (string | number)[] = [];
  for (let v: Visit | undefined = visit; v !== undefined; v = v.parent) keys.push(v.key);
  let path = '';
  for (const key of keys.reverse()) path += typeof key === 'number' ? `[${key}]` : path === '' ? key : `.${key}`;
  return path;
}

/** The first field (depth first, in order) that nests too deep or holds a non-finite number; a loop, so no value can exhaust the stack. */
function valueReason(row: PoolRowJson): string | undefined {
  const stack: Visit[] = [];
  for (const key of Object.keys(row).reverse()) stack.push({ value: row[key], depth: 1, key, parent: undefined });
  for (let visit = stack.pop(); visit !== undefined; visit = stack.pop()) {
    const { value, depth } = visit;
    if (typeof value === 'number' && !Number.isFinite(value)) return `${pathOf(visit)} is not a finite number (${String(value)}): JSON has no such number`;
    if (value === null || typeof value !== 'object') continue;
    if (depth >= maxImportNesting) {
      // Named by the field the log wrote it in (three levels down at most), not by the whole chain.
      let field: Visit = visit;
      while (field.depth > 3 && field.parent !== undefined) field = field.parent;
      return `${pathOf(field)} nests deeper than ${maxImportNesting} levels, the limit per record (maxImportNesting)`;
    }
    if (Array.isArray(value)) {
      for (let i = value.length - 1; i >= 0; i--) stack.push({ value: value[i], depth: depth + 1, key: i, parent: visit });
    } else if (isRecord(value)) {
      const keys = Object.keys(value);
      for (let i = keys.length - 1; i >= 0; i--) stack.push({ value: value[keys[i]!], depth: depth + 1, key: keys[i]!, parent: visit });
    }
  }
  return undefined;
}

function count(n: number): string {
  return n.toLocaleString('en-US');
}

/** Why an imported row is skipped rather than handed to the pool format, or undefined when it is within every limit. */
export function rowLimitReason(row: PoolRowJson): string | undefined {
  const steps = row.steps;
  if (Array.isArray(steps)) {
    if (steps.length > maxImportedSteps) return `${count(steps.length)} steps, above the limit of ${count(maxImportedSteps)} per record (maxImportedSteps)`;
    for (const [i, step] of steps.entries()) {
      const results = isRecord(step) ? step.results : undefined;
      if (Array.isArray(results) && results.length > maxImportedResults) {
        return `steps[${i}]: ${count(results.length)} results, above the limit of ${count(maxImportedResults)} per step (maxImportedResults)`;
      }
    }
  }
  return valueReason(row);
}
