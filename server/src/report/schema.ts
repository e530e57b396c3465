import { z } from 'zod';
import { heraldVersion } from '../version.js';
import { frozenFigures, interval, intervalMethod, label, missingFields, poolImport, poolProfile, poolResolution, rateEstimate, rowIssue, selection, specRange, undefinedWhenEmpty, visibility } from './schema-parts.js';
import { comparisonReport, signalReport } from './training-schema.js';
import { clusterSetReport, poolSelectionReport, robustnessEntry } from './selection-schema.js';
import { commandRecord, generatorCertificate, heldOut } from './generator-schema.js';
import { maxListedRows } from '../problems/limits.js';

// The one JSON shape every run produces: the audits here, the training-signal and comparison
// sections in training-schema.ts. The CLI's JSON output, the SARIF and HTML exports, and the
// editor's diagnostics and hovers all read it. docs/report.md describes it for people;
// docs/report.schema.json is generated from it (`npm run docs`).

const counts = z.object({ constructible: z.number().int(), eligible: z.number().int(), isolatedEligible: z.number().int() });

const scoreResult = z.object({
  reward: z.string(),
  selection,
  label,
  estimate: rateEstimate,
  frozen: frozenFigures.optional(),
  notConforming: z.array(z.string()).optional().describe("present when a `conforms` line of the audit fails for this reward (it is, derives from or weighs the line's subject): those lines' texts; the figure is not the logged reward's"),
});

const conformanceRow = z.object({
  trajectory: z.string(), file: z.string().describe("relative to the spec's folder"), line: z.number().int(),
});

export const conformanceReport = z.object({
  text: z.string(),
  range: specRange,
  subject: z.string(),
  reference: z.string(),
  tolerance: z.number().describe('the largest absolute difference |subject − reference| that conforms'),
  rows: z.number().int().describe("the audit's original rows compared (every row its pools kept)"),
  differing: z.number().int().describe('rows where |subject − reference| > tolerance'),
  holds: z.boolean().describe('differing is 0'),
  largest: conformanceRow.extend({ difference: z.number() }).nullable().describe('the row of the largest difference above the tolerance (the first such row on a tie); null when no row differs'),
  first: z.array(conformanceRow.extend({ subject: z.number(), reference: z.number() })).describe('the first differing rows in row order, at most 10, with both values (a boolean as 0 or 1)'),
  marks: z.array(z.string()).describe('the scored rewards whose figures are marked not conforming: those that are, derive from or weigh the subject; empty when it holds'),
});

const marginHistogram = z.object({
  edges: z.array(z.number()).describe('bins + 1 ascending bin edges shared by every series of this attack: 24 equal bins on a rounded step over [min, max] of all their margins, 0 among the edges when the range spans it; bin i is [edges[i], edges[i+1]), the last one closed; empty when the attack has no isolated-eligible edit'),
  series: z.array(z.object({
    reward: z.string().describe("the audited or a compared reward's name, or R[S] for a minimal repair S of the lattice"),
    role: z.enum(['audited', 'compared', 'repair']),
    detectors: z.array(z.string()).describe('for a repair, S in R_S = R − Σ_{j∈S} λ_j f_j; empty otherwise'),
    selection,
    label,
    counts: z.array(z.number().int()).describe("per bin, the trajectories whose selected edit's paired margin falls in it (trajectories, not clusters)"),
  })),
}).describe('the distribution of selected paired margins per scored reward and selection, for plotting; the figures (ASR, means) stay in results');

const attackReport = z.object({
  name: z.string(),
  kind: z.string().describe('the edit the attack applies: a built-in edit (same_final, fake_id, launder: the prelude in docs/language.md) or an `edit` the spec declares'),
  targets: z.array(z.string()),
  generators: z.array(z.string()),
  range: specRange,
  counts: z.object({ rows: counts, clusters: counts, edits: counts }),
  candidateNotes: z.array(z.string()).describe('e.g. user-supplied candidates dropped because they were retrieved or not corpus ids'),
  unrendered: z.object({
    edits: z.number().int().describe('edits whose row the format could not write back; none of them is counted in any figure'),
    first: z.object({ trajectory: z.string(), pool: z.string(), file: z.string().optional(), line: z.number().int(), reason: z.string() }),
  }).optional().describe('present when a term reads text the format renders (meta.transcript, meta.observations, meta.messages…) and some edits cannot be written in the format (docs/import.md, "Rendering")'),
  commands: z.array(commandRecord).optional().describe('present when the attack has a command generator: the exact command and a hash of its output'),
  eligibility: z.object({
    targets: z.array(z.object({
      detector: z.string(),
      active: z.number().int().describe('rows with an edit on which the target is already active on the original: it cannot flip 0 → 1 there'),
      flips: z.number().int().describe('rows with an edit on which some edit flips the target 0 → 1'),
    })).describe('per target, in the order the attack names them'),
    others: z.array(z.object({
      detector: z.string(),
      changes: z.number().int().describe('rows on which some eligible edit changes this detector: those edits are not isolated'),
    })).describe("per other detector of the audit"),
  }).describe('why edits are or are not eligible and isolated, in rows with at least one edit (counts.rows.constructible): an edit is eligible when it flips every target 0 → 1, isolated when it changes no other detector'),
  results: z.array(scoreResult).describe('per audited and compared reward × selection'),
  marginHistogram,
  detectorEffects: z
    .array(z.object({
      detector: z.string(),
      lambda: z.number(),
      firesOnEdits: z.number().nullable().describe('share of isolated-eligible edits on which the detector is active; null without edits'),
      meanContribution: z.number().nullable().describe('mean of −λ·d over the edits, d = f(A(τ)) − f(τ): what its penalty adds to the margin; null without edits'),
      worstContribution: z.number().nullable().describe('the largest −λ·d: the most its penalty ever helps an attack; null without edits'),
    }))
    .describe("each lattice detector's part in this attack's margins"),
});

const subsetResult = z.object({
  attack: z.string(),
  selection,
  label,
  asr: z.number().nullable().describe(undefinedWhenEmpty),
  upper: z.number().nullable().describe(`interval.high of the full estimate; ${undefinedWhenEmpty}`),
  method: intervalMethod,
  meanMargin: z.number().nullable().describe(undefinedWhenEmpty),
  clusters: z.number().int(),
});

const latticeSubset = z.object({
  detectors: z.array(z.string()),
  results: z.array(subsetResult),
  sufficient: z.boolean().describe("every attack with isolated-eligible clusters has a zero oracle-worst ASR there (attacks without any impose nothing); false for every subset when the lattice is vacuous"),
  minimal: z.boolean().describe('sufficient, and no proper subset is'),
});

const lattice = z.object({
  detectors: z.array(z.object({ name: z.string(), lambda: z.number() })),
  subsets: z.array(latticeSubset),
  minimal: z.array(z.array(z.string())).describe('every observed inclusion-minimal subset'),
  vacuous: z.boolean().describe('no attack has an isolated-eligible edit: nothing was observed, so nothing is sufficient and there is nothing to repair'),
  frozen: z.array(z.string()).optional().describe("present when some attack's figures under the audited reward are frozen: those attacks, left out of the lattice, the certificates and the sweep"),
});

const workedPair = z.object({
  trajectory: z.string(),
  pool: z.string(),
  file: z.string().optional().describe("the trajectory's file, relative to the spec's folder: only for a pool linked by a glob, whose link names several files; else the pool's file"),
  line: z.number().int().describe("the trajectory's one-based line in its pool file"),
  attack: z.string(),
  position: z.number().int().nullable(),
  replacement: z.string().nullable(),
  change: z.string().optional().describe("what an edit the spec declares did, in words: 'citation 0 → w:9', 'step 2 deleted', 'step 0 duplicated', 'citation 1 deleted', 'w:9 appended to the citations', or '<edit> edit' for an edit of one variant per trajectory; absent for the prelude's edits, which position and replacement describe"),
  margins: z.record(z.string(), z.number()).describe('paired margin of this edit under each named reward'),
});

const cancellation = z.object({
  smaller: z.string().describe('S'),
  larger: z.string().describe('T ⊃ S; M_T = M_S + C_{T∖S}'),
  attack: z.string(),
  selection,
  term: z.string().describe("the larger reward's term whose active penalty the attack switches off"),
  termWeight: z.number().describe('its signed weight in the larger reward (−0.8)'),
  count: z.number().int().describe('edits that win under T, lose under S, and gain from switching this penalty off'),
  clusters: z.number().int(),
  strata: z.object({
    active: rateEstimate.describe('originals on which the term is active'),
    inactive: rateEstimate,
  }),
  example: workedPair,
});

const certificateEntry = z.object({
  detector: z.string(),
  lambda: z.number(),
  edits: z.number().int().describe('audited edits that trigger the detector'),
  maxGain: z.number().nullable().describe('max base-reward gain R0(A(τ)) − R0(τ) among them; null when none does'),
  certified: z.boolean().describe('every audited edit that triggers it has a margin below zero under R_{detector} = R − λ·detector after the tie rule (for a reward without the detector: λ > maxGain beyond the tie tolerance)'),
  example: workedPair.nullable(),
});

const sweepEntry = z.object({
  scale: z.number(),
  attack: z.string(),
  selection,
  label,
  asr: z.number().nullable().describe(undefinedWhenEmpty),
  upper: z.number().nullable().describe(undefinedWhenEmpty),
  method: intervalMethod,
  meanMargin: z.number().nullable().describe(undefinedWhenEmpty),
  clusters: z.number().int(),
});

const retentionEntry = z.object({
  reward: z.string(),
  penalties: z.array(z.string()).describe('the penalty terms this reward adds to the audited reward (empty when retention is not defined)'),
  defined: z.boolean().describe('retention is defined only when the reward keeps every term of the audited reward with its weight and adds at least one term, all with negative weights'),
  reason: z.string().nullable().describe('why retention is not defined for this reward; null when it is'),
  compatible: z.number().int().describe('contract-compatible originals (rows)'),
  retained: z.number().int().nullable().describe('of them, the rows on which no added penalty is active; null when retention is not defined'),
  clusters: z.number().int().describe('question clusters with a contract-compatible original'),
  retention: z.number().nullable().describe("mean over those clusters of the within-cluster share of compatible originals retained (the paper's figure); null when not defined or without clusters"),
  interval: interval.describe('95% question-cluster bootstrap of retention; exact-zero when no compatible original is penalised (low = 0.05^(1/n), high = 1); none when retention is null'),
});

const utilityEntry = z.object({
  selector: z.string().describe("a reward's name, or 'first sample'"),
  label,
  groups: z.number().int(),
  exactMatch: z.number(),
  citationPrecision: z.number(),
  supportRecall: z.number(),
  validFinal: z.number(),
  searchCalls: z.number(),
});

const perPoolEntry = z.object({
  pool: z.string(),
  attack: z.string(),
  reward: z.string(),
  selection,
  label,
  asr: z.number().nullable().describe(undefinedWhenEmpty),
  upper: z.number().nullable().describe(undefinedWhenEmpty),
  method: intervalMethod,
  clusters: z.number().int(),
  frozen: frozenFigures.optional(),
  notConforming: z.array(z.string()).optional().describe('as in the attack results'),
});

const aggregateEntry = z.object({
  attack: z.string(),
  reward: z.string(),
  selection,
  label,
  asr: z.number().nullable().describe(`Σ successes / Σ clusters over pools: question-weighted; ${undefinedWhenEmpty}`),
  successes: z.number(),
  clusters: z.number().int(),
  upper: z.number().nullable().describe('the exact zero-event bound over all clusters when nothing succeeds, else null'),
  frozen: frozenFigures.optional(),
  notConforming: z.array(z.string()).optional().describe('as in the attack results'),
});

const poolReport = z.object({
  name: z.string(),
  file: z.string().describe("as linked in the spec, relative to the spec's folder"),
  rows: z.number().int(),
  questions: z.number().int(),
  skipped: z.number().int(),
  issues: z.array(rowIssue).describe(`the first ${maxListedRows} bad rows`),
  resolution: poolResolution.optional(),
  import: poolImport.optional(),
  missingFields: missingFields.optional(),
  profile: poolProfile,
});

const expectation = z.object({
  text: z.string(),
  range: specRange,
  passed: z.boolean(),
  actual: z.string(),
});

export const auditReport = z.object({
  name: z.string(),
  range: specRange,
  reward: z.object({ name: z.string(), visibility }),
  compared: z.array(z.object({ name: z.string(), visibility })),
  corpus: z.object({ name: z.string(), file: z.string(), passages: z.number().int(), skipped: z.number().int(), issues: z.array(rowIssue) }),
  pools: z.array(poolReport),
  clusters: z.number().int().describe('distinct question ids across the pools'),
  detectors: z.array(z.object({ name: z.string(), lambda: z.number().nullable(), firesOnOriginals: z.number().int() })),
  terms: z.array(z.object({
    reward: z.string().describe('the reward that declares the term'),
    term: z.string(),
    min: z.number().nullable().describe('its smallest value on the original rows; null without rows'),
    max: z.number().nullable().describe('its largest value on the original rows; null without rows'),
  })).describe('each term of the audited and compared rewards (a derived reward\'s own terms under it), once: its range on the original rows, where min = max says it is the same on every row'),
  poolSelection: poolSelectionReport.optional(),
  clusterSet: clusterSetReport.optional(),
  attacks: z.array(attackReport),
  robustness: z.array(robustnessEntry).optional().describe('present with `robustness`: every attack rerun under each listed pool selection'),
  lattice,
  cancellation: z.array(cancellation),
  certificate: z.array(certificateEntry),
  generatorCertificate: z.array(generatorCertificate).optional().describe('present with `certify by_generator`: per lattice detector, the certificate per attack and generator'),
  heldOut: heldOut.optional().describe('present with `holdout SHARE`'),
  sweep: z.array(sweepEntry),
  retention: z.array(retentionEntry),
  utility: z.array(utilityEntry),
  perPool: z.array(perPoolEntry),
  aggregate: z.array(aggregateEntry),
  expectations: z.array(expectation),
  conformance: z.array(conformanceReport).optional().describe('present when the audit has `conforms` lines, in spec order'),
  commandTerms: z.array(z.object({
    term: z.string(), command: z.string(),
    requests: z.number().int().describe('distinct trajectories (originals and edits) it was evaluated on'),
    ran: z.number().int().describe('of them, answered by running the program in this run; the rest came from the cache'),
  })).optional().describe('present when a scored reward, detector or conforms line reads a field or reward computed by a command'),
  settings: z.object({
    seed: z.number(), bootstrap: z.number().int(), sweep: z.array(z.number()),
    tieTolerance: z.number().describe('a margin M is a tie (counted as 0, a success) when |M| ≤ tieTolerance · Σ_k |w_k·d_k|'),
    contract: z.object({
      minSearches: z.number().int(), maxSearches: z.number().int(),
      repeatedQueryJaccard: z.number().describe('two queries whose normalised token sets have at least this Jaccard similarity are a repeated-query pair'),
    }).describe('the contract-compatible set of the retention figures'),
  }),
});

/** Bumped when the shape changes incompatibly (2: figures over zero clusters are null, not 0). */
export const reportVersion = 2;

export const report = z.object({
  version: z.literal(reportVersion).describe('the version of this report shape'),
  tool: z.object({ name: z.literal('herald'), version: z.string() }),
  spec: z.string().describe("the spec's file name"),
  audits: z.array(auditReport),
  signals: z.array(signalReport).optional().describe('training-signal audits (`herald signal`, training blocks)'),
  comparisons: z.array(comparisonReport).optional().describe('paired policy comparisons (`herald compare`, comparison blocks)'),
});

export type Report = z.infer<typeof report>;

/** A report of this version, made by this build of the tool, with the sections a command ran. */
export function newReport(spec: string, sections: Pick<Report, 'audits'> & Partial<Pick<Report, 'signals' | 'comparisons'>>): Report {
  return { version: reportVersion, tool: { name: 'herald', version: heraldVersion }, spec, ...sections };
}
export type AuditReport = z.infer<typeof auditReport>;
export type AttackReport = z.infer<typeof attackReport>;
export type ScoreResult = z.infer<typeof scoreResult>;
export type ConformanceReport = z.infer<typeof conformanceReport>;
export type FrozenFigures = z.infer<typeof frozenFigures>;
export type RateEstimateReport = z.infer<typeof rateEstimate>;
export type LatticeReport = z.infer<typeof lattice>;
export type CancellationFinding = z.infer<typeof cancellation>;
export type CertificateEntry = z.infer<typeof certificateEntry>;
export type WorkedPair = z.infer<typeof workedPair>;
export type SweepEntry = z.infer<typeof sweepEntry>;
export type RetentionEntry = z.infer<typeof retentionEntry>;
export type UtilityEntry = z.infer<typeof utilityEntry>;
export type PerPoolEntry = z.infer<typeof perPoolEntry>;
export type AggregateEntry = z.infer<typeof aggregateEntry>;
export type Expectation = z.infer<typeof expectation>;
export type PoolReport = z.infer<typeof poolReport>;
export type PoolResolutionReport = z.infer<typeof poolResolution>;
export type PoolImportReport = z.infer<typeof poolImport>;
export type PoolProfileReport = z.infer<typeof poolProfile>;
export type MissingFieldReport = z.infer<typeof missingFields>[number];
