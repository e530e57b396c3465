import * as fs from 'node:fs';
import { formatHtml } from '../render/format-html.js';
import { formatTable } from '../render/format-table.js';
import type { Report } from '../report/schema.js';
import type { CommandOutput } from './check-command.js';

// What `herald signal` and `herald compare` share: their output formats and where output goes.

export const analysisFormats = ['table', 'json', 'html'] as const;
export type AnalysisFormat = (typeof analysisFormats)[number];

export function isAnalysisFormat(format: string | undefined): format is AnalysisFormat {
  return analysisFormats.includes(format as AnalysisFormat);
}

export function writeReport(report: Report, format: AnalysisFormat, out: string | undefined, io: CommandOutput & { write: (text: string) => void }): void {
  const rendered = format === 'table' ? formatTable(report) : format === 'json' ? `${JSON.stringify(report, null, 2)}\n` : formatHtml(report);
  if (out === undefined) {
    io.write(rendered);
    return;
  }
  fs.writeFileSync(out, rendered);
  io.err(`herald: wrote ${out}`);
}
