import { points, powerSentence } from '../findings/wording.js';
import type { ComparisonReport } from '../report/training-schema.js';
import type { SymbolInfo } from '../semantics/symbols.js';
import { reportLink } from './audit-hover.js';

// What the latest comparison says, appended to the hover of its block's name: the EM gate with
// each benchmark's lower bound, runs and their variance, matched arms, and each blocked claim's
// power statement (the figures behind the block's diagnostics).

function blockLines(report: ComparisonReport): string[] {
  const gate = report.nonInferiority;
  const lines = [
    `**last comparison**: EM non-inferiority ${gate.passed ? 'holds ✓' : 'fails ✗'} (paired lower bound of treatment − base above −${gate.margin} points on each benchmark): ` +
      gate.benchmarks.map((b) => `${b.benchmark} ${points(b.lower)} ${b.passed ? '✓' : '✗'}`).join(', '),
    report.runs.note === null
      ? `Runs: base ${report.runs.base.length}, treatment ${report.runs.treatment.length}; intervals resample runs, then questions.`
      : `Runs: ${report.runs.note}.`,
  ];
  if (!report.matching.matched) lines.push('Arms **not matched**: see the warning on the block.');
  const blocked = report.metrics.flatMap((m) => m.cells.flatMap((c) => (c.verdict === 'blocks a reduction claim' && c.power !== null ? [`- ${m.label}, ${c.benchmark}: ${powerSentence(c.power)}`] : [])));
  if (blocked.length > 0) lines.push('', `Blocks a reduction claim of ${report.settings.claim} points:`, ...blocked);
  return lines;
}

/** Markdown lines for a comparison block's name from its latest run; empty when there is none. */
export function comparisonHoverLines(reports: readonly ComparisonReport[] | undefined, symbol: SymbolInfo, commandLinks = true): string[] {
  if (reports === undefined || symbol.kind !== 'comparison') return [];
  const report = reports.find((r) => r.name === symbol.name);
  return report === undefined ? [] : ['', '---', '', ...blockLines(report), '', reportLink(commandLinks)];
}
