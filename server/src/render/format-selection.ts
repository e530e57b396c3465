import { cell, heading, paragraph, text, type Block } from './format-blocks.js';
import type { AuditReport } from '../report/schema.js';
import { isNumericColumn, robustnessTable, wideColumns, type PaperTable } from './paper-tables.js';

// What an audit says about its pool selection and cluster set, and its robustness table, as blocks
// for the terminal table and the HTML page (the rows come from paper-tables.ts).

/** One paragraph each: which samples were attacked, and what every figure's n is. */
export function selectionBlocks(audit: AuditReport): Block[] {
  const blocks: Block[] = [];
  const s = audit.poolSelection;
  if (s !== undefined) {
    const oracle = s.visibility === 'oracle' ? ' (reads gold: every figure below is an oracle upper bound on the selection)' : '';
    const unselected = s.unselected === 0 ? '' : `; ${s.unselected} groups have no row it selects`;
    blocks.push(paragraph([text(`pool selection ${s.selection}${oracle}: ${s.rows} rows of ${s.groups} sample groups${unselected}; counts are over every row`)]));
  }
  if (audit.clusterSet !== undefined) {
    blocks.push(paragraph([cell(`clusters common: every attack figure is over the ${audit.clusterSet.clusters} question clusters isolated-eligible for all of this audit's attacks (n = ${audit.clusterSet.clusters})`, 'accent')]));
  }
  return blocks;
}

/** A paper table as a heading, its note and a table block without the wide columns. */
export function paperTableBlocks(table: PaperTable): Block[] {
  const kept = table.columns.flatMap((title, i) => (wideColumns.has(title) ? [] : [i]));
  return [
    heading(table.title),
    paragraph([cell(table.note, 'muted')]),
    {
      kind: 'table',
      columns: kept.map((i) => ({ title: table.columns[i]!, ...(isNumericColumn(table.columns[i]!) ? { align: 'right' as const } : {}) })),
      rows: table.rows.map((row) => kept.map((i) => text(row[i]!))),
    },
  ];
}

export function robustnessBlocks(audit: AuditReport): Block[] {
  const table = robustnessTable(audit);
  return table === undefined ? [] : paperTableBlocks(table);
}
