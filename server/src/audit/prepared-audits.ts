import { LRUCache } from 'lru-cache';
import type { PreparedEdits } from '../edits/prepare.js';
import type { LineIndex } from '../problems/line-index.js';
import type { AuditReport } from '../report/schema.js';
import { attackHashKey, contentDigest, termHashKey, type SpecHashes } from '../semantics/decl-hashes.js';
import { expectationReports } from './expectations.js';
import type { AuditPlan } from './plan.js';

// What an audit keeps between runs, and the keys that say when it may be used again. Each key is
// made of the content hashes of what its result reads (semantics/decl-hashes.ts: a declaration's
// tokens and, through the names it uses, the declarations those name) and the stamps of the files
// read, never of the spec's text: a comment, a change of layout or an edit of a declaration the
// audit does not read keeps every result.
//   preparation: the corpus, the pools, the detectors, the attacks (edit, targets, generators) and
//     the programs a command term runs: what building the edits reads;
//   features: per feature of the table, what it computes: a reward term changed over parts no edit
//     writes is evaluated on the originals alone (edits/patch-features.ts);
//   report: the audit block with everything it names, weights included: an unchanged one is the
//     report again, placed on the spec's current lines (`placedReport`).

export interface KeptAudit {
  readonly preparation: string;
  /** The preparation's key without the detectors' definitions (`preparationKey`): what a patch with new detectors may start from. */
  readonly shape: string;
  /** The content hash of each feature of the prepared table, by feature key. */
  readonly features: ReadonlyMap<string, string>;
  readonly edits: PreparedEdits;
  /** The last report scored from the kept edits, and the key it was scored under. */
  readonly report?: { readonly key: string; readonly report: AuditReport };
}

/**
 * What the kept audits may hold, counted in the typed arrays of their prepared edits (their rows
 * belong to the input cache): the latest preparation of every audit is always kept, and earlier
 * ones, most recently used first, while they fit. So undoing an edit that prepared again (a
 * detector's definition) finds the preparation before it. At 58,368 rows and three attacks a
 * preparation holds 41 MB, so about six earlier ones fit.
 */
export const keptAuditBytes = 256 * 1024 * 1024;

/**
 * Prepared audits kept between runs, by audit name and preparation key. Its lifetime is its
 * owner's: the language server's worker keeps one, a CLI run makes a fresh one.
 */
export class PreparedAudits {
  private readonly latest = new Map<string, KeptAudit>();
  private readonly earlier: LRUCache<string, KeptAudit>;

  constructor(maxBytes = keptAuditBytes) {
    this.earlier = new LRUCache({ maxSize: maxBytes, sizeCalculation: (kept) => Math.max(1, preparedBytes(kept.edits)) });
  }

  /** The kept audit of this preparation, if any: the audit's latest, or an earlier one still kept. */
  get(audit: string, preparation: string): KeptAudit | undefined {
    const latest = this.latest.get(audit);
    return latest?.preparation === preparation ? latest : this.earlier.get(keyOf(audit, preparation));
  }

  /**
   * The audit's latest kept preparation when it has this shape: the same but for the detectors'
   * definitions, which a patch evaluates again (edits/patch-features.ts).
   */
  ofShape(audit: string, shape: string): KeptAudit | undefined {
    const latest = this.latest.get(audit);
    return latest?.shape === shape ? latest : undefined;
  }

  keep(audit: string, kept: KeptAudit): void {
    const previous = this.latest.get(audit);
    if (previous !== undefined && previous.preparation !== kept.preparation) this.earlier.set(keyOf(audit, previous.preparation), previous);
    this.earlier.delete(keyOf(audit, kept.preparation));
    this.latest.set(audit, kept);
  }

  /** Data files changed on disk: nothing prepared from them can be trusted. */
  clear(): void {
    this.latest.clear();
    this.earlier.clear();
  }
}

const keyOf = (audit: string, preparation: string): string => `${audit}\u0000${preparation}`;

/** The bytes of a prepared audit's typed arrays: its originals' values and metrics, and each run's edits and change vectors. */
export function preparedBytes(edits: PreparedEdits): number {
  let bytes = edits.originalValues.byteLength + edits.originalMetrics.byteLength;
  for (const run of edits.runs) {
    bytes += run.detectorBits.byteLength;
    for (const value of [...Object.values(run.index), ...Object.values(run.changes), run.index.editReplacement.places]) {
      if (ArrayBuffer.isView(value)) bytes += value.byteLength;
    }
  }
  return bytes;
}


/**
 * The hash of a feature key of an audit's table (edits/features.ts keys: `decl:`, `term:`,
 * `command:`, `value:`); a key the spec does not hash stands for itself, so it equals only itself.
 */
export function featureHash(hashes: SpecHashes, key: string): string {
  const colon = key.indexOf(':');
  const kind = key.slice(0, colon);
  const name = key.slice(colon + 1);
  const dot = name.indexOf('.');
  const hash = kind === 'term' ? hashes.terms.get(termHashKey(name.slice(0, dot), name.slice(dot + 1))) : hashes.decls.get(name);
  return hash ?? `unknown:${key}`;
}

/** Command terms' records of a run that ran no program: its results were kept from the run that did. */
export function nothingRun<T extends { readonly ran: number }>(records: readonly T[]): T[] {
  return records.map((record) => ({ ...record, ran: 0 }));
}

/**
 * What preparing the audit reads of the spec, with the data's stamps and the programs' files
 * (`data`). The logged fields the plan reads (`fields`, by name) are part of it: a row that lacks
 * one is left out of the audit, so they choose the rows. Its `shape` leaves the detectors'
 * definitions out (their names and order stay in).
 */
export function preparationKey(plan: AuditPlan, hashes: SpecHashes, fields: readonly string[], data: string): { key: string; shape: string } {
  const decl = (name: string): string => hashes.decls.get(name) ?? `unknown:${name}`;
  const detectors = [...new Set([...plan.lattice.map((l) => l.name), ...plan.attacks.flatMap((a) => a.targets)])];
  const read = (definitions: boolean): string => contentDigest({
    corpus: plan.corpus === undefined ? null : decl(plan.corpus),
    pools: plan.pools.map(decl),
    detectors: detectors.map((name) => [name, definitions ? decl(name) : null]),
    attacks: plan.attacks.map((a) => (definitions ? hashes.attacks : hashes.attackShapes).get(attackHashKey(plan.name, a.name)) ?? `unknown:${a.name}`),
    values: plan.conformance.flatMap((c) => [decl(c.subject), decl(c.reference)]),
    fields: fields.map((name) => [name, decl(name)]),
    data,
  });
  return { key: read(true), shape: read(false) };
}

/**
 * What scoring the audit reads besides the prepared edits: its block and every declaration it
 * names, weights included, but its `expect` lines, which are judged against the report itself.
 */
export function reportKey(plan: AuditPlan, hashes: SpecHashes, preparation: string): string {
  return contentDigest([hashes.reports.get(plan.name) ?? `unknown:${plan.name}`, preparation]);
}

/**
 * A kept report on the spec's current lines: what the audit's own text places (its range, each
 * attack's and conformance line's text and range) taken from the current plan, its current `expect`
 * lines judged against it (as a scoring judges them, from the attacks and the lattice), and no
 * program counted as run (it ran in the run that prepared). Equal, byte for byte, to the report a
 * scoring of the current spec gives.
 */
export function placedReport(report: AuditReport, plan: AuditPlan, lines: LineIndex): AuditReport {
  const attackSpans = new Map(plan.attacks.map((a) => [a.name, a.span]));
  return {
    ...report,
    range: lines.range(plan.span),
    attacks: report.attacks.map((attack) => ({ ...attack, range: lines.range(attackSpans.get(attack.name)!) })),
    expectations: expectationReports(plan, report.attacks, report.lattice, lines),
    ...(report.conformance === undefined ? {} : {
      conformance: report.conformance.map((line, i) => ({ ...line, text: plan.conformance[i]!.text, range: lines.range(plan.conformance[i]!.span) })),
    }),
    ...(report.commandTerms === undefined ? {} : { commandTerms: nothingRun(report.commandTerms) }),
  };
}
