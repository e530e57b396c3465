import type { SignalReport } from '../report/training-schema.js';
import { normalizationIdentity } from '../render/format-training.js';
import { isDeclSymbol, type SymbolInfo } from '../semantics/symbols.js';
import { reportLink } from './audit-hover.js';

// What the latest training-signal audit says about a detector, a reward or a training block, appended to its hover.

const share = (n: number, of: number): string => `${of === 0 ? '0.00' : ((n / of) * 100).toFixed(2)}%`;

function detectorLines(report: SignalReport, name: string): string[] {
  const d = report.detectors.find((x) => x.name === name);
  if (d === undefined) return [];
  const lines = [
    `**training signal \`${report.name}\`** (${report.reward.name}, ${report.normalization === 'std' ? 'A = (r − r̄_g)/s_g' : 'A = r − r̄_g'}): `
      + `fires on ${d.firingRows} of ${report.rows} rows (${share(d.firingRows, report.rows)}) in ${d.firingGroups} of ${report.groups} groups: `
      + `${d.mixedGroups} mixed, ${d.allFiringGroups} on every sample.`,
    `Its penalty λ = ${d.lambda} changes the normalised advantages in **${d.changedGroups}** groups and is exactly cancelled in ${d.cancelledGroups}`
      + ` ${d.reachesOptimizer ? '✓' : `✗ (min_groups ${report.minGroups})`}.`,
    '',
    `Group normalisation (λ = ${d.lambda}): ${normalizationIdentity}`,
  ];
  if (d.cancelledExample !== null) lines.push('', `Cancelled: group \`${d.cancelledExample.group}\` (step ${d.cancelledExample.step ?? '?'}) fires on ${d.cancelledExample.firing} of ${d.cancelledExample.size}: the advantages do not move.`);
  if (d.changedExample !== null) lines.push('', `Changed: group \`${d.changedExample.group}\` (step ${d.changedExample.step ?? '?'}) fires on ${d.changedExample.firing} of ${d.changedExample.size}: advantages move by up to ${d.changedExample.shift.toFixed(4)}.`);
  return lines;
}

function blockLines(report: SignalReport): string[] {
  return [
    `**last training-signal audit**: ${report.rows} rows in ${report.groups} groups of ${report.logs.map((l) => `\`${l.file}\``).join(', ')}; ${report.flatGroups} groups without any gradient`,
    ...report.detectors.map((d) => `- \`${d.name}\`: changes the advantages in ${d.changedGroups} groups, cancelled in ${d.cancelledGroups} ${d.reachesOptimizer ? '✓' : `✗ (< ${report.minGroups})`}`),
    '',
    normalizationIdentity,
  ];
}

/** Markdown lines for a symbol from the latest training-signal audits; empty when they say nothing about it. */
export function signalHoverLines(reports: readonly SignalReport[] | undefined, symbol: SymbolInfo, commandLinks = true): string[] {
  if (reports === undefined || !isDeclSymbol(symbol)) return [];
  const sections = reports.map((report) => {
    if (symbol.kind === 'detector') return detectorLines(report, symbol.name);
    if (symbol.kind === 'training' && symbol.name === report.name) return blockLines(report);
    return [];
  });
  const shown = sections.filter((s) => s.length > 0);
  return shown.length === 0 ? [] : [...shown.flatMap((s) => ['', '---', '', ...s]), '', reportLink(commandLinks)];
}
