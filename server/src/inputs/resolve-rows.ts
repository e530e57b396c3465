import { resolvePool } from '../pool/resolve-ids.js';
import type { Corpus, RowIssue, Trajectory } from '../pool/types.js';

// Rows read outside `loadInputs` (an open pool document's text, the one row a worked pair is rebuilt
// from) meet their corpus here, by the rule `loadInputs` applies to a loaded pool: rows from an
// editor and from disk are resolved alike, with the same reasons.

export interface ResolvedRows {
  /** The rows kept, with the ids they did not log resolved. */
  readonly rows: readonly Trajectory[];
  /** Rows skipped: a citation marker that does not resolve. */
  readonly skipped: readonly RowIssue[];
  /** One note per kept row whose results did not all resolve. */
  readonly unresolved: readonly RowIssue[];
}

export function resolveRows(rows: readonly Trajectory[], corpus: Corpus): ResolvedRows {
  const resolved = resolvePool(rows, corpus);
  return { rows: resolved.rows, skipped: resolved.issues, unresolved: resolved.resolution?.unresolved ?? [] };
}
