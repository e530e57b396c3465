import { maxListedRows } from '../problems/limits.js';
import type { PoolImportReport, PoolResolutionReport } from '../report/schema.js';
import type { RowIssue } from '../pool/types.js';
import type { LoadedPool, MissingField } from './analysis-inputs.js';

// What every analysis says about a pool or log it read, whatever its section (an audit's pools, a
// training block's logs, a comparison's arms): the rows skipped, how its ids resolved, what its
// import did. One function, so the three sections cannot drift apart.

export interface ReadFileSection {
  readonly skipped: number;
  readonly issues: RowIssue[];
  readonly resolution?: PoolResolutionReport;
  readonly import?: PoolImportReport;
  readonly missingFields?: MissingField[];
}

/** The first rows of a list, as the report keeps them (copies: the report owns its objects). */
export function reportedRows(list: readonly RowIssue[]): RowIssue[] {
  return list.slice(0, maxListedRows).map((i) => ({ ...i }));
}

/** True when the corpus found or failed to find some id: a row that logged every id leaves nothing to say. */
function corpusWasAsked(counts: NonNullable<LoadedPool['resolution']>['counts']): boolean {
  const { results, citations } = counts;
  return results.url + results.text + results.title + results.unresolved + citations.url + citations.rank + citations.unresolved > 0;
}

function resolutionSection(pool: LoadedPool): PoolResolutionReport | undefined {
  const r = pool.resolution;
  if (r === undefined || !corpusWasAsked(r.counts)) return undefined;
  return {
    results: { ...r.counts.results },
    rowsWithUnresolved: r.unresolved.length,
    citations: { ...r.counts.citations },
    // Resolution stops a row at its first unresolved marker: one unresolved citation per skipped row.
    rowsSkipped: r.counts.citations.unresolved,
    notes: reportedRows(r.unresolved),
  };
}

/**
 * `skipped` and `issues`, then `resolution`, `import` and `missingFields` only when there is something to say (a v1
 * pool read from our own format has neither, so its section is as it always was).
 */
export function readFileSection(pool: LoadedPool): ReadFileSection {
  const resolution = resolutionSection(pool);
  const imported = pool.imported;
  return {
    skipped: pool.issues.length,
    issues: reportedRows(pool.issues),
    ...(resolution === undefined ? {} : { resolution }),
    ...(imported === undefined ? {} : { import: { format: imported.format, counts: { ...imported.counts }, notes: [...imported.notes] } }),
    ...(pool.missingFields === undefined ? {} : { missingFields: pool.missingFields.map((f) => ({ ...f })) }),
  };
}
