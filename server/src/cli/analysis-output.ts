import { readFindings, unlinkedReadNews } from '../findings/data-findings.js';
import type { LineIndex } from '../problems/line-index.js';
import { formatHtml } from '../render/format-html.js';
import { formatTable } from '../render/format-table.js';
import type { Report } from '../report/schema.js';
import { escapeControls } from '../report/escape-text.js';
import type { SpecModel } from '../semantics/check.js';
import { printFindings, type CommandOutput } from './check-command.js';
import { fitsTerminal, writeOutput, type OutputTarget } from './output-file.js';

// What `herald signal` and `herald compare` share: their output formats and where output goes.

export const analysisFormats = ['table', 'json', 'html'] as const;
export type AnalysisFormat = (typeof analysisFormats)[number];

export function isAnalysisFormat(format: string | undefined): format is AnalysisFormat {
  return analysisFormats.includes(format as AnalysisFormat);
}

/** The report where `outputTarget` said it may go; false when it could not be written. */
export function writeReport(report: Report, format: AnalysisFormat, target: OutputTarget, io: CommandOutput & { write: (text: string) => void }): boolean {
  const rendered = format === 'table' ? formatTable(report, { fit: fitsTerminal(target, io) }) : format === 'json' ? `${JSON.stringify(report, null, 2)}\n` : formatHtml(report);
  return writeOutput(target, rendered, io);
}

/**
 * What reading the logs took (imports, ids that did not resolve), on stderr like skipped rows: as
 * findings on the spec line that links a log, else (a log named on the command line) as `herald:` lines.
 */
export function printReadNews(specFile: string, lines: LineIndex, report: Report, model: SpecModel, specDir: string, io: CommandOutput): void {
  printFindings(specFile, lines, readFindings(report, model, specDir), io);
  for (const news of unlinkedReadNews(report, model, specDir)) {
    io.err(escapeControls(`herald: ${news.text}`));
    for (const row of news.rows) io.err(escapeControls(`  ${row.file}:${row.line}: ${row.reason}`));
  }
}
