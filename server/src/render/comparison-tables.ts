import { points } from '../findings/wording.js';
import type { ComparisonBody, ComparisonCell, ComparisonReport } from '../report/training-schema.js';
import { betterArrow } from '../findings/wording.js';
import type { PaperTable } from './paper-tables.js';

// The paper's Table 4 shape for a comparison: metric × benchmark (then equal-suite), each cell the
// paired difference treatment − base with its 95% interval, and the EM non-inferiority row; once
// over all rows and, with `greedy`, over the greedy and over the sampled rows.

const equalSuite = 'equal-suite';

function cellText(c: ComparisonCell | undefined): string {
  if (c === undefined || c.difference === null || c.interval.low === null) return 'n/a';
  return `${points(c.difference)} [${points(c.interval.low)}, ${points(c.interval.high)}]`;
}

function runNote(body: ComparisonBody): string {
  return body.runs.note ?? `${body.runs.base.length} base and ${body.runs.treatment.length} treatment runs: intervals resample runs within each arm, then questions`;
}

function table4(report: ComparisonReport, body: ComparisonBody, rows: string): PaperTable {
  const benchmarks = body.benchmarks.length > 1 ? [...body.benchmarks, equalSuite] : [...body.benchmarks];
  const gate = body.nonInferiority;
  const gateRow = [`EM NI (lower bound > −${gate.margin})`, ...benchmarks.map((b) => {
    const g = gate.benchmarks.find((x) => x.benchmark === b);
    return g === undefined ? '—' : `${points(g.lower)} ${g.passed ? '✓' : '✗'}`;
  })];
  return {
    id: 'table4', audit: report.name,
    title: `comparison ${report.name}: Table 4, ${rows}`,
    note: `treatment − base in points [95% interval], ${body.pairs} pairs; ↑: better when positive, ↓: better when negative; attackability is first-visible under ${report.scorer.name}; ${runNote(body)}`,
    columns: ['metric', ...benchmarks],
    rows: [
      // The label without its parenthesis (the scorer is in the report): the table fits a terminal.
      ...body.metrics.map((m) => [`${m.label.replace(/ \(.*\)$/, '')} ${betterArrow(m.better).replace(' better', '')}`, ...benchmarks.map((b) => cellText(m.cells.find((c) => c.benchmark === b)))]),
      gateRow,
    ],
  };
}

/** Table 4 of a comparison over all rows, then its greedy and sampled rows when it splits them. */
export function comparisonTables(report: ComparisonReport): PaperTable[] {
  return [
    table4(report, report, report.splits === null ? 'all rows' : 'greedy and sampled together'),
    ...(report.splits ?? []).map((split) => table4(report, split, `${split.split} rows`)),
  ];
}
