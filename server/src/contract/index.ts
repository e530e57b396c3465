// The extension's one entry into the server's code (client/src imports this file and nothing else of
// server/src; the walls of scripts/stages.mjs and the build's bundle check hold it to that): the
// custom LSP messages, the report page it shows in its webview, and the plain types and constants
// the two sides share. No engine: the client asks the server for anything the engine computes.
export * from './protocol.js';
export { reservedNames } from './reserved-names.js';
export { heraldVersion } from '../version.js';
export type { PoolProfile } from '../pool/profile.js';
export type { Report } from '../report/schema.js';
export { renderNoticePage, renderReportPage, type ReportPageOptions } from '../render/report-page/render-page.js';
export { reportFiles, viewMessageOf, type ViewMessage } from '../render/report-page/view-messages.js';
