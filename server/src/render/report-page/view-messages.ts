import type { Report, WorkedPair } from '../../report/schema.js';

// What the report page's script tells the editor when a reader clicks a row or a worked pair
// (client/webview/report-view.ts posts these, client/src/report-panel.ts acts on them), and the
// attribute that names a worked pair on the page. A standalone page has nobody to tell: there the
// rows and pairs stay plain text.

/** `data-pair` on an element naming a worked pair: `cancellation:<i>` or `certificate:<i>`, indexes into the audit's report. */
export const pairAttribute = 'data-pair';

/** A worked pair as the page names it: a row of a pool and an edit of it. */
export type PagePair = Omit<WorkedPair, 'margins'>;

export type ViewMessage =
  /** Open a data file the report names (relative to the spec's folder) at a one-based line. */
  | { readonly kind: 'openRow'; readonly file: string; readonly line: number }
  /** Open a worked pair of the named audit side by side. */
  | { readonly kind: 'openPair'; readonly audit: string; readonly pair: PagePair };

/** The report's worked pair that a `data-pair` value names. */
export function namedPair(audit: { readonly cancellation: readonly { readonly example: WorkedPair }[]; readonly certificate: readonly { readonly example: WorkedPair | null }[] }, ref: string): WorkedPair | undefined {
  const [kind, index] = ref.split(':');
  const i = Number(index);
  if (kind === 'cancellation') return audit.cancellation[i]?.example;
  if (kind === 'certificate') return audit.certificate[i]?.example ?? undefined;
  return undefined;
}

const isString = (v: unknown): v is string => typeof v === 'string';
const isLine = (v: unknown): v is number => Number.isInteger(v) && typeof v === 'number' && v >= 1;

function pagePairOf(value: unknown): PagePair | undefined {
  if (typeof value !== 'object' || value === null) return undefined;
  const v: Partial<Record<keyof PagePair, unknown>> = value;
  const position = v.position === null ? null : Number.isInteger(v.position) && typeof v.position === 'number' ? v.position : undefined;
  const replacement = v.replacement === null ? null : isString(v.replacement) ? v.replacement : undefined;
  if (!isString(v.trajectory) || !isString(v.pool) || !isLine(v.line) || !isString(v.attack) || position === undefined || replacement === undefined) return undefined;
  const change = isString(v.change) ? { change: v.change } : {};
  return { trajectory: v.trajectory, pool: v.pool, line: v.line, attack: v.attack, position, replacement, ...change };
}

/** A message from the page, checked (a webview's messages are only data); undefined when it is not one. */
export function viewMessageOf(value: unknown): ViewMessage | undefined {
  if (typeof value !== 'object' || value === null || !('kind' in value)) return undefined;
  if (value.kind === 'openRow' && 'file' in value && 'line' in value && isString(value.file) && isLine(value.line)) {
    return { kind: 'openRow', file: value.file, line: value.line };
  }
  if (value.kind === 'openPair' && 'audit' in value && 'pair' in value && isString(value.audit)) {
    const pair = pagePairOf(value.pair);
    return pair === undefined ? undefined : { kind: 'openPair', audit: value.audit, pair };
  }
  return undefined;
}

/**
 * The data files a report names (as it names them: relative to the spec's folder): the only files
 * the editor opens for the page, whatever a message says.
 */
export function reportFiles(report: Report): Set<string> {
  const read = (f: { readonly file: string; readonly issues: readonly { readonly file: string }[] }): string[] => [f.file, ...f.issues.map((i) => i.file)];
  return new Set([
    ...report.audits.flatMap((a) => [a.corpus, ...a.pools].flatMap(read)),
    ...(report.signals ?? []).flatMap((s) => s.logs.flatMap(read)),
    ...(report.comparisons ?? []).flatMap((c) => [...c.base, ...c.treatment].flatMap(read)),
  ]);
}
