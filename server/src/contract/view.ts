// The report view script's one entry into the server's code (client/webview imports this file and
// nothing else of server/src): the page's element contract, the chart data it draws from the report,
// the report's number formats and types. Runs in a browser, so it carries no protocol (that is
// index.ts, for the extension) and nothing that needs Node.
export { latticeDetailClass, reportDataId, rowFileAttribute, rowLineAttribute, type ChartKind } from '../render/report-page/page-contract.js';
export { namedPair, pairAttribute, type ViewMessage } from '../render/report-page/view-messages.js';
export { marginView, selectionTitle, seriesSummary, strataGroups, sweepLines, type MarginSeries, type Selection } from '../render/report-page/chart-data.js';
export { subsetFigures } from '../render/report-page/lattice-figures.js';
export { thresholdLabelFontPx, thresholdLabelPlacement, thresholdLabelRoom } from '../render/report-page/threshold-label.js';
export { exposureView, forestRows, type ForestRow } from '../render/report-page/training-chart-data.js';
export { margin, percent, rateWithUpper, shortLabel, shortNumber } from '../report/format-numbers.js';
export type { AttackReport, AuditReport, Report } from '../report/schema.js';
export type { ComparisonReport, SignalReport } from '../report/training-schema.js';
