import { randomBytes } from 'node:crypto';
import { renderReportPage } from './report-page/render-page.js';
import { reportViewScript } from './report-page/report-view-script.js';
import type { Report } from '../report/schema.js';

// `herald audit --format html`: the editor's report page as one standalone file. The view script
// and the data are inlined, the CSP lets only this page's nonce run, and nothing is fetched.

export function formatHtml(report: Report): string {
  return renderReportPage(report, { nonce: randomBytes(18).toString('base64'), inlineScript: reportViewScript() });
}
