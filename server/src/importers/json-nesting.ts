// How deep a record of a log may nest, checked where each record is parsed (a JSONL line, a JSON
// file, JSON inside a field), before an importer reads it. A leaf module: every parser imports it.
import { maxImportNesting } from '../problems/limits.js';

/**
 * Why a record as parsed is skipped before an importer reads it: nested deeper than maxImportNesting
 * (the importers write parts of a record back as JSON, and `JSON.stringify` recurses per level).
 * A loop over the containers, so the check itself cannot exhaust the stack.
 */
export function recordNestingReason(record: unknown): string | undefined {
  const stack: { readonly value: unknown; readonly depth: number }[] = [{ value: record, depth: 1 }];
  for (let item = stack.pop(); item !== undefined; item = stack.pop()) {
    const { value, depth } = item;
    if (value === null || typeof value !== 'object') continue;
    if (depth > maxImportNesting) return `the record nests deeper than ${maxImportNesting} levels, the limit per record (maxImportNesting)`;
    for (const child of Array.isArray(value) ? value : Object.values(value)) stack.push({ value: child, depth: depth + 1 });
  }
  return undefined;
}
