import type { Report } from '../report/schema.js';
import { escapeControls } from '../report/escape-text.js';
import { paperTableBlocks } from './format-selection.js';
import { formatBlocks, type TableOptions } from './format-table.js';
import { comparisonTables } from './comparison-tables.js';
import { paperTables, tableCsv, tableMarkdown, type PaperTable, type PaperTableFormat } from './paper-tables.js';

// `herald audit SPEC --tables text|csv|markdown`: only the paper's tables of every audit (Table 2,
// Table 3, the robustness and cross-model tables when the audit has them), and `herald compare SPEC
// --tables …`: Table 4 of every comparison (all rows, then greedy and sampled), for a terminal or a
// paper's appendix.

/** Every text from the data escaped once, as at every other output. */
function escaped(table: PaperTable): PaperTable {
  return {
    ...table, title: escapeControls(table.title), note: escapeControls(table.note),
    columns: table.columns.map(escapeControls), rows: table.rows.map((row) => row.map(escapeControls)),
  };
}

/** `options` apply to the text form (`fit`: cut to a terminal's width). */
export function formatPaperTables(report: Report, format: PaperTableFormat, options: TableOptions = {}): string {
  const tables = [...report.audits.flatMap(paperTables), ...(report.comparisons ?? []).flatMap(comparisonTables)];
  switch (format) {
    case 'text':
      return formatBlocks(tables.flatMap(paperTableBlocks), options);
    case 'markdown':
      return tables.map((t) => tableMarkdown(escaped(t))).join('\n');
    case 'csv':
      // One CSV table per paper table, each after a `# title` line, separated by a blank line.
      return tables.map((t) => `# ${escaped(t).title}\r\n${tableCsv(escaped(t))}`).join('\r\n');
  }
}
