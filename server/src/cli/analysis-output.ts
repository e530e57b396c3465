import { formatHtml } from '../render/format-html.js';
import { formatTable } from '../render/format-table.js';
import type { Report } from '../report/schema.js';
import type { CommandOutput } from './check-command.js';
import { writeOutput, type OutputTarget } from './output-file.js';

// What `herald signal` and `herald compare` share: their output formats and where output goes.

export const analysisFormats = ['table', 'json', 'html'] as const;
export type AnalysisFormat = (typeof analysisFormats)[number];

export function isAnalysisFormat(format: string | undefined): format is AnalysisFormat {
  return analysisFormats.includes(format as AnalysisFormat);
}

/** The report where `outputTarget` said it may go; false when it could not be written. */
export function writeReport(report: Report, format: AnalysisFormat, target: OutputTarget, io: CommandOutput & { write: (text: string) => void }): boolean {
  const rendered = format === 'table' ? formatTable(report) : format === 'json' ? `${JSON.stringify(report, null, 2)}\n` : formatHtml(report);
  return writeOutput(target, rendered, io);
}
