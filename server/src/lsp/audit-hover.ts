import type { AuditReport, Report } from '../report/schema.js';
import { isDeclSymbol, type SymbolInfo } from '../semantics/symbols.js';
import { margin, percent } from '../report/format-numbers.js';

// What the latest audit says about the name under the cursor, appended to its hover.


function rateText(estimate: AuditReport['attacks'][number]['results'][number]['estimate']): string {
  if (estimate.clusters === 0) return 'n/a (no isolated-eligible edit)';
  if (estimate.interval.method === 'exact-zero') return `${percent(estimate.asr)} (≤ ${percent(estimate.interval.high)})`;
  return `${percent(estimate.asr)} [${percent(estimate.interval.low)}, ${percent(estimate.interval.high)}]`;
}

function detectorSection(audit: AuditReport, name: string): string[] {
  const detector = audit.detectors.find((d) => d.name === name);
  if (detector === undefined) return [];
  const lines = [`**audit \`${audit.name}\`**: fires on ${detector.firesOnOriginals} originals${detector.lambda === null ? '' : `, λ = ${detector.lambda}`}`];
  const without = audit.lattice.subsets.find((s) => s.detectors.length === 0);
  const alone = audit.lattice.subsets.find((s) => s.detectors.length === 1 && s.detectors[0] === name);
  if (without !== undefined && alone !== undefined) {
    lines.push('', '| attack | ASR without it (oracle-worst) | with only it | mean margin without → with |', '| --- | --- | --- | --- |');
    for (const r of without.results.filter((x) => x.selection === 'oracle_worst')) {
      const w = alone.results.find((x) => x.attack === r.attack && x.selection === 'oracle_worst');
      if (w === undefined) continue;
      lines.push(`| ${r.attack} | ${percent(r.asr)} | ${percent(w.asr)} | ${margin(r.meanMargin)} → ${margin(w.meanMargin)} |`);
    }
  }
  const effects = audit.attacks.flatMap((a) => a.detectorEffects.filter((e) => e.detector === name).map((e) => ({ attack: a.name, ...e })));
  if (effects.length > 0) {
    lines.push('', '| attack | fires on edits | mean −λ·d | worst −λ·d |', '| --- | --- | --- | --- |');
    for (const e of effects) lines.push(`| ${e.attack} | ${percent(e.firesOnEdits)} | ${margin(e.meanContribution)} | ${margin(e.worstContribution)} |`);
  }
  const certificate = audit.certificate.find((c) => c.detector === name);
  if (certificate !== undefined) {
    lines.push('', certificate.maxGain === null
      ? 'Certificate: no audited edit triggers it.'
      : `Certificate: max base gain among the ${certificate.edits} audited edits that trigger it is ${margin(certificate.maxGain)} ${certificate.certified ? '<' : '≥'} λ ${certificate.lambda} ${certificate.certified ? '✓' : '✗'}`);
  }
  if (audit.lattice.minimal.length > 0) {
    const needed = audit.lattice.minimal.some((m) => m.includes(name));
    lines.push(needed ? `In the observed minimal repair ${audit.lattice.minimal.map((m) => `{${m.join(', ')}}`).join(', ')}.` : 'In no observed minimal repair: redundant for these attacks.');
  }
  return lines;
}

function rewardSection(audit: AuditReport, name: string): string[] {
  const rows = audit.attacks.flatMap((a) => a.results.filter((r) => r.reward === name).map((r) => ({ attack: a.name, ...r })));
  if (rows.length === 0) return [];
  return [
    `**audit \`${audit.name}\`** (isolated-eligible edits; a tie counts as success)`,
    '',
    '| attack | selection | ASR (95%) | mean margin | worst margin | label |',
    '| --- | --- | --- | --- | --- | --- |',
    ...rows.map((r) => `| ${r.attack} | ${r.selection} | ${rateText(r.estimate)} | ${margin(r.estimate.meanMargin)} | ${margin(r.estimate.worstMargin)} | ${r.label} |`),
  ];
}

function auditSection(audit: AuditReport): string[] {
  const sufficient = audit.lattice.subsets.filter((s) => s.sufficient).length;
  const failed = audit.expectations.filter((e) => !e.passed).length;
  return [
    `**last audit**: ${audit.clusters} question clusters; ${audit.expectations.length - failed}/${audit.expectations.length} expectations hold`,
    `Lattice over {${audit.lattice.detectors.map((d) => d.name).join(', ')}}: ${sufficient} of ${audit.lattice.subsets.length} subsets sufficient; ` +
      (audit.lattice.minimal.length === 0 ? 'none is.' : `observed inclusion-minimal repair ${audit.lattice.minimal.map((m) => `{${m.join(', ')}}`).join(', ')}.`),
  ];
}

/** Markdown lines for the latest audit's view of a symbol; empty when the audit has nothing to say. */
export function auditHoverLines(report: Report | undefined, symbol: SymbolInfo): string[] {
  if (report === undefined || !isDeclSymbol(symbol)) return [];
  const sections = report.audits.map((audit) => {
    if (symbol.kind === 'detector') return detectorSection(audit, symbol.name);
    if (symbol.kind === 'reward') return rewardSection(audit, symbol.name);
    if (symbol.kind === 'audit' && symbol.name === audit.name) return auditSection(audit);
    return [];
  });
  return sections.filter((s) => s.length > 0).flatMap((s) => ['', '---', '', ...s]);
}
