import type { AuditReport, Report, WorkedPair } from '../report/schema.js';
import { isDeclSymbol, type SymbolInfo } from '../semantics/symbols.js';
import { margin, percent } from '../report/format-numbers.js';
import { pairLabel, pairLink, pairParams } from './worked-pair-links.js';

// What the latest audit says about the name under the cursor, appended to its hover.

/** Where a hover's worked pairs link to: the spec's URI, when the client can open a pair side by side. */
export type PairLinks = { readonly uri: string } | undefined;

/** A worked pair named in a hover: a link that opens it side by side, or its name and row. */
function pairRef(audit: AuditReport, pair: WorkedPair, links: PairLinks): string {
  const label = pairLabel(pair);
  if (links !== undefined) return pairLink(label, pairParams(links.uri, { ...pair, audit: audit.name }));
  const file = audit.pools.find((p) => p.name === pair.pool)?.file ?? pair.pool;
  // A code span reads the same as markdown and, without its backticks, as plain text.
  return `\`${`${label} (${file}:${pair.line})`.replace(/`/g, "'")}\``;
}


function rateText(estimate: AuditReport['attacks'][number]['results'][number]['estimate']): string {
  if (estimate.clusters === 0) return 'n/a (no isolated-eligible edit)';
  if (estimate.interval.method === 'exact-zero') return `${percent(estimate.asr)} (≤ ${percent(estimate.interval.high)})`;
  return `${percent(estimate.asr)} [${percent(estimate.interval.low)}, ${percent(estimate.interval.high)}]`;
}

function detectorSection(audit: AuditReport, name: string, links: PairLinks): string[] {
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
      : `Certificate: max base gain among the ${certificate.edits} audited edits that trigger it is ${margin(certificate.maxGain)} ${certificate.certified ? '<' : '≥'} λ ${certificate.lambda} ${certificate.certified ? '✓' : '✗'}` +
        (certificate.example === null ? '' : `; that edit: ${pairRef(audit, certificate.example, links)}`));
  }
  if (audit.lattice.minimal.length > 0) {
    const needed = audit.lattice.minimal.some((m) => m.includes(name));
    lines.push(needed ? `In the observed minimal repair ${audit.lattice.minimal.map((m) => `{${m.join(', ')}}`).join(', ')}.` : 'In no observed minimal repair: redundant for these attacks.');
  }
  return lines;
}

/** The report's worked pairs under a reward: the largest gains if it is the audited one, its cancellations' pairs if it wins them back. */
function rewardPairs(audit: AuditReport, name: string, links: PairLinks): string[] {
  const pairs = [
    ...(name === audit.reward.name ? audit.certificate.flatMap((c) => (c.example === null ? [] : [{ pair: c.example, why: `largest gain among the edits that trigger ${c.detector}` }])) : []),
    ...audit.cancellation.filter((f) => f.larger === name).map((f) => ({ pair: f.example, why: `${f.attack} wins by switching off ${f.term} (${f.selection})` })),
  ];
  // One line per pair: the first reason it is named for.
  const unique = new Map<string, (typeof pairs)[number]>();
  for (const p of pairs) {
    const key = JSON.stringify([p.pair.trajectory, p.pair.attack, p.pair.position, p.pair.replacement]);
    if (!unique.has(key)) unique.set(key, p);
  }
  if (unique.size === 0) return [];
  return ['', 'Worked pairs (margin under each reward):', ...[...unique.values()].map(({ pair, why }) =>
    `- ${pairRef(audit, pair, links)}: ${Object.entries(pair.margins).map(([reward, m]) => `${reward} ${margin(m)}`).join(' → ')}; ${why}`)];
}

function rewardSection(audit: AuditReport, name: string, links: PairLinks): string[] {
  const rows = audit.attacks.flatMap((a) => a.results.filter((r) => r.reward === name).map((r) => ({ attack: a.name, ...r })));
  if (rows.length === 0) return [];
  return [
    `**audit \`${audit.name}\`** (isolated-eligible edits; a tie counts as success)`,
    '',
    '| attack | selection | ASR (95%) | mean margin | worst margin | label |',
    '| --- | --- | --- | --- | --- | --- |',
    ...rows.map((r) => `| ${r.attack} | ${r.selection} | ${rateText(r.estimate)} | ${margin(r.estimate.meanMargin)} | ${margin(r.estimate.worstMargin)} | ${r.label} |`),
    ...rewardPairs(audit, name, links),
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
export function auditHoverLines(report: Report | undefined, symbol: SymbolInfo, links: PairLinks = undefined): string[] {
  if (report === undefined || !isDeclSymbol(symbol)) return [];
  const sections = report.audits.map((audit) => {
    if (symbol.kind === 'detector') return detectorSection(audit, symbol.name, links);
    if (symbol.kind === 'reward') return rewardSection(audit, symbol.name, links);
    if (symbol.kind === 'audit' && symbol.name === audit.name) return auditSection(audit);
    return [];
  });
  return sections.filter((s) => s.length > 0).flatMap((s) => ['', '---', '', ...s]);
}
