import { labelExplanations } from '../findings/wording.js';
import { isSmallSample, smallSampleMark, smallSampleSentence } from '../findings/small-sample.js';
import type { AuditReport, Report, WorkedPair } from '../report/schema.js';
import { isDeclSymbol, type SymbolInfo } from '../semantics/symbols.js';
import { detectorSet, margin, percent, rateWithBound, strictWithBound } from '../report/format-numbers.js';
import { showReportCommand } from '../contract/protocol.js';
import { pairLabel, pairLink, pairParams } from './worked-pair-links.js';
import { pairFile } from '../report/pair-file.js';
import { generatorCertificateSentence, heldOutSentence } from '../findings/generator-wording.js';
import { loggedFieldsText, profileCounts } from '../findings/profile-words.js';
import { code } from '../ide/row-text.js';
import { escapeControls } from '../report/escape-text.js';

// What the latest audit says about the name under the cursor, appended to its hover: a summary a
// few lines long per audit; every table is one click away in the report view.

/** Where a hover's worked pairs link to: the spec's URI, when the client can open a pair side by side. */
export type PairLinks = { readonly uri: string } | undefined;

/** A worked pair named in a hover: a link that opens it side by side, or its name and row. */
function pairRef(audit: AuditReport, pair: WorkedPair, links: PairLinks): string {
  const label = pairLabel(pair);
  if (links !== undefined) return pairLink(label, pairParams(links.uri, { ...pair, audit: audit.name }));
  const file = pairFile(audit, pair);
  // A code span reads the same as markdown and, without its backticks, as plain text.
  return `\`${`${label} (${file}:${pair.line})`.replace(/`/g, "'")}\``;
}

type Result = AuditReport['attacks'][number]['results'][number];

/**
 * A rate with its interval, then the strict rate (margin > 0) when ties make them differ; `n/a`
 * without clusters, marked when it rests on a small sample.
 */
function rateText(estimate: Result['estimate']): string {
  if (estimate.clusters === 0) return 'n/a (no isolated-eligible edit)';
  const strict = estimate.strictAsr === estimate.asr ? '' : ` (strictly ${strictWithBound(estimate)}: the rest are ties)`;
  return `${rateWithBound(estimate)}${strict}${isSmallSample(estimate.clusters) ? ` ${smallSampleMark}` : ''}`;
}

/**
 * The line a hover ends with: where the full tables are. A command link only for a client that runs
 * HERALD's commands (it says so at initialize); elsewhere (Neovim, Emacs) a link would do nothing.
 */
export function reportLink(commandLinks: boolean): string {
  return commandLinks
    ? `[Every figure as a table: open the report view](command:${showReportCommand})`
    : 'Every figure as a table: the report view in VS Code, or `herald audit --format html`.';
}

/** Why a reward that reads gold has label-free figures, said where the labels appear. */
const labelsLine = `${labelExplanations['label-free']}; ${labelExplanations['oracle upper bound']}.`;

function smallSampleLines(audit: AuditReport, attacks: readonly string[]): string[] {
  const small = audit.attacks.filter((a) => attacks.includes(a.name) && isSmallSample(a.counts.clusters.isolatedEligible));
  return small.map((a) => `${smallSampleMark} ${a.name} has ${smallSampleSentence(a.counts.clusters.isolatedEligible)}.`);
}

function detectorSection(audit: AuditReport, name: string, links: PairLinks): string[] {
  const detector = audit.detectors.find((d) => d.name === name);
  if (detector === undefined) return [];
  const minimal = audit.lattice.minimal;
  const repair = minimal.length === 0 ? '' : minimal.some((m) => m.includes(name)) ? `; in the observed minimal repair ${minimal.map(detectorSet).join(', ')}` : '; in no observed minimal repair (redundant for these attacks)';
  const lines = [`**audit \`${audit.name}\`**: fires on ${detector.firesOnOriginals} originals${detector.lambda === null ? '' : `, λ = ${detector.lambda}`}${repair}.`];
  const without = audit.lattice.subsets.find((s) => s.detectors.length === 0);
  const alone = audit.lattice.subsets.find((s) => s.detectors.length === 1 && s.detectors[0] === name);
  if (without !== undefined && alone !== undefined) {
    const pairs = without.results.filter((x) => x.selection === 'oracle_worst').flatMap((r) => {
      const w = alone.results.find((x) => x.attack === r.attack && x.selection === 'oracle_worst');
      return w === undefined ? [] : [`${r.attack} ${percent(r.asr)} → ${percent(w.asr)}`];
    });
    if (pairs.length > 0) lines.push(`Oracle-worst ASR without it → with only it: ${pairs.join(' · ')}.`);
  }
  const effects = audit.attacks.flatMap((a) => a.detectorEffects.filter((e) => e.detector === name && e.meanContribution !== null).map((e) => `${a.name} ${margin(e.meanContribution)}`));
  if (effects.length > 0) lines.push(`Mean −λ·d on the attacks' edits: ${effects.join(' · ')}.`);
  const certificate = audit.certificate.find((c) => c.detector === name);
  if (certificate !== undefined) {
    lines.push(certificate.maxGain === null
      ? 'Certificate: no audited edit triggers it.'
      : `Certificate: max base gain among the ${certificate.edits} audited edits that trigger it is ${margin(certificate.maxGain)} ${certificate.certified ? '<' : '≥'} λ ${certificate.lambda} ${certificate.certified ? '✓' : '✗'}` +
        (certificate.example === null ? '' : `; that edit: ${pairRef(audit, certificate.example, links)}`));
  }
  const byGenerator = audit.generatorCertificate?.find((c) => c.detector === name);
  if (byGenerator !== undefined) lines.push(`Per generator: ${generatorCertificateSentence(byGenerator)}.`);
  if (audit.heldOut !== undefined && audit.heldOut.repair?.includes(name) === true) lines.push(`Held out: ${heldOutSentence(audit.heldOut)}.`);
  return lines;
}

/** A hover is a summary: the rest of the pairs are in the report view. */
const maxHoverPairs = 3;

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
  const shown = [...unique.values()].slice(0, maxHoverPairs);
  const more = unique.size - shown.length;
  return ['Worked pairs (margin under each reward):', ...shown.map(({ pair, why }) =>
    `- ${pairRef(audit, pair, links)}: ${Object.entries(pair.margins).map(([reward, m]) => `${reward} ${margin(m)}`).join(' → ')}; ${why}`),
  ...(more > 0 ? [`… and ${more} more in the report view's Worked pairs.`] : [])];
}

function rewardSection(audit: AuditReport, name: string, links: PairLinks): string[] {
  const rows = audit.attacks.flatMap((a) => a.results.filter((r) => r.reward === name && r.selection === 'oracle_worst').map((r) => ({ attack: a.name, ...r })));
  if (rows.length === 0) return [];
  const labels = [...new Set(rows.map((r) => r.label))];
  return [
    `**audit \`${audit.name}\`**: oracle-worst ASR (${labels.join(', ')}): ${rows.map((r) => `${r.attack} ${rateText(r.estimate)}`).join(' · ')}`,
    // A reward whose `conforms` line fails: its figures are shown, and said not to be the logged reward's.
    ...(rows[0]?.notConforming === undefined ? [] : [`⚠ not the logged reward: ${rows[0].notConforming.map((t) => `\`${t}\``).join(', ')} fails (not-conforming)`]),
    ...smallSampleLines(audit, rows.map((r) => r.attack)),
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
    ...smallSampleLines(audit, audit.attacks.map((a) => a.name)),
  ];
}

/** What the pool's rows hold, counted, as the audit read them: a part no row has is in bold. */
function poolSection(audit: AuditReport, name: string): string[] {
  const pool = audit.pools.find((p) => p.name === name);
  if (pool === undefined) return [];
  const { profile } = pool;
  const counts = profileCounts(profile).map((c) => (c.rows === 0 && profile.rows > 0 ? `**${c.what} ${c.rows}**` : `${c.what} ${c.rows}`));
  return [
    `**pool profile** (audit \`${audit.name}\`): rows of ${profile.rows} that have each part: ${counts.join(' · ')}`,
    // A key is the log's text: a code span reads the same as markdown and as plain text, its control characters escaped.
    `Logged fields (keys of meta, with their rows): ${loggedFieldsText(profile, (key) => code(escapeControls(key)))}`,
  ];
}

/** Markdown lines for the latest audit's view of a symbol; empty when the audit has nothing to say. */
export function auditHoverLines(report: Report | undefined, symbol: SymbolInfo, commandLinks = true, links: PairLinks = undefined): string[] {
  if (report === undefined || !isDeclSymbol(symbol)) return [];
  // A pool read by several audits has one profile: said once, from the first audit that read it.
  const reading = symbol.kind === 'pool' ? report.audits.find((a) => a.pools.some((p) => p.name === symbol.name)) : undefined;
  const sections = report.audits.map((audit) => {
    if (symbol.kind === 'pool') return audit === reading ? poolSection(audit, symbol.name) : [];
    if (symbol.kind === 'detector') return detectorSection(audit, symbol.name, links);
    if (symbol.kind === 'reward') return rewardSection(audit, symbol.name, links);
    if (symbol.kind === 'audit' && symbol.name === audit.name) return auditSection(audit);
    return [];
  }).filter((s) => s.length > 0);
  if (sections.length === 0) return [];
  const labels = symbol.kind === 'reward' ? ['', labelsLine] : [];
  // Lines are joined with single newlines: a blank line keeps each its own paragraph.
  return [...sections.flatMap((s) => ['', '---', ...s.flatMap((line) => ['', line])]), ...labels, '', reportLink(commandLinks)];
}
