import { z } from 'zod';
import { intervalMethod } from './schema-parts.js';

// What a report says about candidate generators (issue 17): the command a generator ran, the
// certificate per generator, and held-out certification. docs/report.md describes each field.

export const commandRecord = z.object({
  generator: z.string().describe('the generator as the report names it: candidates command "…"'),
  command: z.string().describe('the exact command, as written in the spec; run by /bin/sh -c in the spec\'s folder'),
  requests: z.number().int().describe('request lines written to its stdin (one per trajectory and citation position)'),
  outputSha256: z.string().describe('SHA-256 of its whole stdout (from the cache when the same command, corpus and requests ran before: the same bytes)'),
}).describe('a command generator the attack ran (docs/generators.md)');

export const generatorGain = z.object({
  attack: z.string(),
  generator: z.string().describe("a candidate generator's label (lexical(8), bm25(16), candidates \"file\", candidates command \"…\"), or the attack kind for an exact attack (same_final, fake_id)"),
  edits: z.number().int().describe('audited edits of this attack from this generator that trigger the detector; an id proposed by several generators counts for each'),
  maxGain: z.number().nullable().describe('max base-reward gain among them; null when none'),
  certified: z.boolean().describe('every one of them has a margin below zero under R − λ·detector (true when there are none)'),
});

export const generatorCertificate = z.object({
  detector: z.string(),
  lambda: z.number(),
  generators: z.array(generatorGain).describe('per attack and generator, in attack then generator order'),
  certifies: z.array(z.string()).describe('the generators (labels, once each) whose every triggering edit λ rejects'),
  fails: z.array(z.string()).describe('the generators with an edit λ does not reject'),
  untested: z.array(z.string()).describe('generator families the audit ran none of: lexical, bm25, a candidates file, a command (dense retriever, LLM)'),
}).describe("the certificate per generator (with `certify by_generator`): which generators the detector's λ is certified against");

export const heldOutResult = z.object({
  attack: z.string(),
  asr: z.number().nullable().describe('oracle-worst ASR of the fit-chosen repair on the held-out clusters; null without isolated-eligible held-out clusters'),
  upper: z.number().nullable().describe("the estimate's upper 95% bound (exact 1 − 0.05^(1/n) at zero successes); null when asr is"),
  method: intervalMethod,
  clusters: z.number().int().describe('held-out clusters with an isolated-eligible edit of this attack'),
});

export const heldOut = z.object({
  share: z.number().describe('the share of question clusters held out (the `holdout` option)'),
  rule: z.string().describe('how a cluster is assigned: held out when SHA-256(question_id) read as a big-endian 32-bit number, divided by 2^32, is below share'),
  fitClusters: z.number().int(),
  heldOutClusters: z.number().int(),
  repair: z.array(z.string()).nullable().describe('the smallest observed minimal repair on the fit half under the fitted λs (fewest detectors, then lattice order); null when the fit half has none'),
  lambdas: z.array(z.object({
    detector: z.string(),
    lambda: z.number().describe("the certificate's step: the lattice's λ when it is above the fit half's max gain (or no fit edit triggers the detector), else the next tenth above that gain"),
    fitMaxGain: z.number().nullable(),
  })),
  results: z.array(heldOutResult),
  generalised: z.boolean().nullable().describe('every attack has a held-out ASR of 0 under the fit-chosen repair; null when there is no repair or no held-out cluster'),
}).describe('held-out certification (with `holdout SHARE`): repair and λ chosen on the fit clusters, tested on the held-out ones');

export type CommandRecord = z.infer<typeof commandRecord>;
export type GeneratorCertificate = z.infer<typeof generatorCertificate>;
export type GeneratorGain = z.infer<typeof generatorGain>;
export type HeldOutReport = z.infer<typeof heldOut>;
export type HeldOutResult = z.infer<typeof heldOutResult>;
