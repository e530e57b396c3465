// The blocks of issue 17: the commands an attack ran, the certificate per generator and held-out
// certification. The text table and the HTML page both render them (format-blocks.ts).
import { check, cell, heading, paragraph, rateBar, rateTone, text, type Block, type Cell } from './format-blocks.js';
import { margin, percent, shortNumber } from '../report/format-numbers.js';
import type { AttackReport, AuditReport } from '../report/schema.js';
import { generatorCertificateSentence, heldOutSentence } from '../findings/generator-wording.js';

/** One muted line per command an attack ran: the exact command, its requests and its output's hash. */
export function commandBlocks(attack: AttackReport): Block[] {
  return (attack.commands ?? []).map((c) => paragraph([cell(`command: ${c.command} · ${c.requests} requests · output sha256 ${c.outputSha256.slice(0, 16)}…`, 'muted')]));
}

/** The certificate per attack and generator (`certify by_generator`), then held-out certification (`holdout`). */
export function generatorBlocks(audit: AuditReport): Block[] {
  return [...generatorCertificateBlocks(audit), ...heldOutBlocks(audit)];
}

function generatorCertificateBlocks(audit: AuditReport): Block[] {
  const certificates = audit.generatorCertificate ?? [];
  if (certificates.length === 0) return [];
  const blocks: Block[] = [heading('certificate per generator')];
  for (const c of certificates) {
    blocks.push(paragraph([text(generatorCertificateSentence(c))], 2));
    blocks.push({
      kind: 'table',
      columns: [{ title: 'attack' }, { title: 'generator', shrink: true }, { title: `edits triggering ${c.detector}`, align: 'right' }, { title: 'max gain', align: 'right' }, { title: `λ_${c.detector} = ${shortNumber(c.lambda)}` }],
      rows: c.generators.map((g): Cell[] => [
        text(g.attack), text(g.generator), text(String(g.edits)),
        g.maxGain === null ? cell('n/a', 'muted') : text(margin(g.maxGain)),
        g.edits === 0 ? cell('vacuous', 'muted') : check(g.certified),
      ]),
    });
  }
  return blocks;
}

function heldOutBlocks(audit: AuditReport): Block[] {
  const h = audit.heldOut;
  if (h === undefined) return [];
  return [
    heading('held-out certification'),
    paragraph([cell(`clusters split by ${h.rule} (share ${shortNumber(h.share)}): ${h.fitClusters} fit, ${h.heldOutClusters} held out`, 'muted')]),
    paragraph([cell(heldOutSentence(h), h.generalised === null ? 'muted' : h.generalised ? 'good' : 'bad')], 2),
    {
      kind: 'table',
      columns: [{ title: 'attack' }, { title: 'fit n', align: 'right' }, { title: 'held-out n', align: 'right' }, { title: 'λ (fit)' }, { title: 'held-out ASR (oracle-worst)', align: 'right' }, { title: 'bound', align: 'right' }],
      rows: h.results.map((r): Cell[] => [
        text(r.attack), text(String(h.fitClusters)), text(String(r.clusters)),
        text(h.lambdas.length === 0 ? (h.repair === null ? 'n/a' : 'none') : h.lambdas.map((l) => `λ_${l.detector} = ${shortNumber(l.lambda)}`).join(', ')),
        cell(percent(r.asr), rateTone(r.asr), rateBar(r.asr, 0, r.upper)),
        r.upper === null ? cell('n/a', 'muted') : text(`≤ ${percent(r.upper)} (${r.method})`),
      ]),
    },
  ];
}
