// The names the server-rendered page and the browser view (client/webview/report-view.ts) agree on.

/** The `<script type="application/json">` that holds the report. */
export const reportDataId = 'herald-report';

/**
 * `data-chart` of an element the view draws a chart into; `data-audit` / `data-attack` are indexes.
 * `exposure` reads `data-signal` (index into `signals`), `forest` reads `data-comparison` (into `comparisons`).
 */
export type ChartKind = 'margins' | 'sweep-asr' | 'sweep-margin' | 'strata' | 'exposure' | 'forest';

/** `data-lattice` (audit index) on the lattice card; its nodes carry `data-subset` (index into `lattice.subsets`). */
export const latticeDetailClass = 'subset-detail';

/** Embeds JSON in a script element: no `<` (so no `</script>` or `<!--`), `>` or `&` survives as is. */
export function embedJson(value: unknown): string {
  return JSON.stringify(value)
    .replace(/</g, '\\u003c')
    .replace(/>/g, '\\u003e')
    .replace(/&/g, '\\u0026')
    .replace(/\u2028/g, '\\u2028')
    .replace(/\u2029/g, '\\u2029');
}

/**
 * A row of a data file that the page names (a skipped row): `data-row-file` as the report names
 * the file (relative to the spec's folder, or as given on the command line) and `data-row-line`
 * (one-based), so the editor's view can open the file at that line.
 */
export const rowFileAttribute = 'data-row-file';
export const rowLineAttribute = 'data-row-line';
