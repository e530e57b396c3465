// How findings, quick fixes and views name what a certificate covers (issue 17, §2, §3): the
// generators its λ is certified against, the families not yet tested, and whether a repair chosen
// on fit clusters held on the held-out ones.
import { percent, shortNumber } from '../report/format-numbers.js';
import type { GeneratorCertificate, HeldOutReport } from '../report/generator-schema.js';
import type { AuditReport } from '../report/schema.js';

/**
 * The generators whose edits a detector's certificate covers: with `certify by_generator`, those
 * with a triggering edit; otherwise every generator of the attacks that target the detector (a
 * launder attack's generators, an exact attack's kind).
 */
export function certifiedAgainst(report: AuditReport, detector: string): string[] {
  const byGenerator = report.generatorCertificate?.find((c) => c.detector === detector);
  if (byGenerator !== undefined) return [...new Set(byGenerator.generators.filter((g) => g.edits > 0).map((g) => g.generator))];
  const labels = report.attacks.filter((a) => a.targets.includes(detector)).flatMap((a) => (a.kind === 'launder' ? a.generators : [a.kind]));
  return [...new Set(labels)];
}

/** `λ_L = 1.2 certifies lexical(8), bm25(16); does not certify candidates command "…"; not yet tested: …`. */
export function generatorCertificateSentence(c: GeneratorCertificate): string {
  const parts = [`λ_${c.detector} = ${shortNumber(c.lambda)} ${c.certifies.length === 0 ? 'certifies no generator' : `certifies ${c.certifies.join(', ')}`}`];
  if (c.fails.length > 0) parts.push(`does not certify ${c.fails.join(', ')}`);
  if (c.untested.length > 0) parts.push(`not yet tested: ${c.untested.join(', ')}`);
  return parts.join('; ');
}

/** `the repair {L} (λ_L = 1.2, fitted on 88 clusters) generalised: held-out ASR 0.00% (≤ 2.64%) over 112 clusters for every attack`. */
export function heldOutSentence(h: HeldOutReport): string {
  if (h.repair === null) return `held-out certification: the fit half (${h.fitClusters} clusters) has no minimal repair, so nothing was tested on the ${h.heldOutClusters} held-out clusters`;
  const lambdas = h.lambdas.map((l) => `λ_${l.detector} = ${shortNumber(l.lambda)}`).join(', ');
  const repair = `the repair {${h.repair.join(', ')}}${lambdas.length > 0 ? ` (${lambdas})` : ''}, chosen on ${h.fitClusters} fit clusters,`;
  if (h.generalised === null) return `${repair} was not tested: no attack has an isolated-eligible held-out cluster`;
  const results = h.results.filter((r) => r.asr !== null).map((r) => `${r.attack} ${percent(r.asr)}${r.asr === 0 && r.upper !== null ? ` (≤ ${percent(r.upper)})` : ''} · n=${r.clusters}`).join(', ');
  return `${repair} ${h.generalised ? 'generalised' : 'did not generalise'} to the ${h.heldOutClusters} held-out clusters: oracle-worst ASR ${results}`;
}
