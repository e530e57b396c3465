import type { TrajectoryPart } from '../language/types.js';
import { sumProfiles, type PoolProfile } from '../pool/profile.js';
import { plural } from '../report/format-numbers.js';
import type { AttackReport, AuditReport } from '../report/schema.js';
import type { SpecModel } from '../semantics/check.js';

// Why an attack has nothing to test, a detector cannot fire or a term is the same on every row,
// said from the data: the audit's pool profiles (what the rows hold, counted) and the read sets of
// the checker (semantics/read-set.ts: the parts of a trajectory a detector, term or edit reads).
// A part no row holds is the usual reason: a Search-R1 log has no citations, so a detector over
// citations cannot fire and there is no citation to launder.

/** The profile of the audit's pools together: every count summed, meta keys by key. */
export function auditProfile(report: AuditReport): PoolProfile {
  return sumProfiles(report.pools.map((p) => p.profile));
}

/** What a part is called where a sentence says no row has it, and whether a profile shows it empty. */
const countedParts: Partial<Record<TrajectoryPart, { readonly what: string; readonly empty: (p: PoolProfile) => boolean }>> = {
  citations: { what: 'citations', empty: (p) => p.withCitations === 0 },
  steps: { what: 'steps', empty: (p) => p.withSteps === 0 },
  answer: { what: 'nonempty answers', empty: (p) => p.withAnswer === 0 },
  final_text: { what: 'finals', empty: (p) => p.withFinal === 0 },
  has_final: { what: 'finals', empty: (p) => p.withFinal === 0 },
  gold: { what: 'gold answers or support ids', empty: (p) => p.withGoldAnswers === 0 && p.withGoldSupport === 0 },
  meta: { what: 'logged fields (meta)', empty: (p) => p.meta.length === 0 },
};

/**
 * Of `parts`, the words of those no row of `profile` holds, once each (`final_text` and `has_final`
 * are one, "finals"). A part the profile does not count (the question, the corpus) is never empty.
 */
export function emptyParts(profile: PoolProfile, parts: Iterable<TrajectoryPart>): string[] {
  if (profile.rows === 0) return [];
  const words = new Set<string>();
  for (const part of parts) {
    const counted = countedParts[part];
    if (counted !== undefined && counted.empty(profile)) words.add(counted.what);
  }
  return [...words];
}

/** `the pool rollouts` or `the pools a, b`: where the rows a reason counts are. */
function poolsText(report: AuditReport): string {
  const names = report.pools.map((p) => p.name);
  return names.length === 1 ? `the pool ${names[0]}` : `the pools ${names.join(', ')}`;
}

/** `the pool rollouts has no citations (0 of 400 rows)`: one clause per empty part. */
function noneText(report: AuditReport, profile: PoolProfile, empty: readonly string[]): string {
  const has = report.pools.length === 1 ? 'has' : 'have';
  return `${poolsText(report)} ${has} no ${empty.join(' and no ')} (0 of ${plural(profile.rows, 'row')})`;
}

/** The parts an attack's edit reads (its guard, its binders' collections): for a built-in edit, from the prelude's read sets. */
function editReads(model: SpecModel, kind: string): ReadonlySet<TrajectoryPart> {
  const edit = model.edits.get(kind);
  if (edit === undefined) return new Set();
  const readSets = edit.builtin ? model.preludeModel?.readSets : model.readSets;
  return readSets?.ofDecl(edit.decl) ?? new Set();
}

/** The parts a declared detector, signal or field reads. */
export function declReads(model: SpecModel, name: string): ReadonlySet<TrajectoryPart> {
  const decl = model.globals.get(name)?.decl;
  return decl === undefined ? new Set() : model.readSets.ofDecl(decl);
}

/**
 * Why `detector` cannot fire on any row of the audit's pools (`the pool rollouts has no citations
 * (0 of 400 rows), which L reads`), when a part it reads is empty on every row; undefined otherwise.
 */
export function cannotFireReason(report: AuditReport, model: SpecModel, detector: string): string | undefined {
  const profile = auditProfile(report);
  const empty = emptyParts(profile, declReads(model, detector));
  if (empty.length === 0) return undefined;
  return `${noneText(report, profile, empty)}, which ${detector} reads`;
}

/**
 * Which condition of eligibility failed, and on how many rows, for an attack with no
 * isolated-eligible edit: no row admits the edit (and the part it edits that no row holds), no
 * edit flips a target 0 → 1 (and why the target cannot fire), no edit flips every target at once,
 * or every eligible edit changes another detector.
 */
export function noEditReason(report: AuditReport, model: SpecModel, attack: AttackReport): string {
  const profile = auditProfile(report);
  const rows = attack.counts.rows;
  if (rows.constructible === 0) {
    const empty = emptyParts(profile, editReads(model, attack.kind));
    const edit = attack.kind === attack.name ? attack.name : `${attack.name} (${attack.kind})`;
    return empty.length > 0
      ? `${noneText(report, profile, empty)}, which ${attack.kind} edits: ${edit} has nothing to edit`
      : `no row of the ${plural(profile.rows, 'row')} admits a ${attack.kind} edit`;
  }
  const withEdit = `the ${plural(rows.constructible, `row`)} with a ${attack.kind} edit`;
  if (rows.eligible === 0) {
    const never = attack.eligibility.targets.filter((t) => t.flips === 0);
    if (never.length === 0) return `no single edit flips ${attack.targets.join(' and ')} 0 → 1 together on any of ${withEdit}`;
    return never.map((t) => {
      const cannot = cannotFireReason(report, model, t.detector);
      const active = t.active === 0 ? '' : ` (it is already active on ${t.active} of them)`;
      return `${cannot === undefined ? '' : `${cannot}: ${t.detector} cannot fire on any row, so `}no edit flips ${t.detector} 0 → 1 on any of ${withEdit}${active}`;
    }).join('; ');
  }
  const breaking = attack.eligibility.others.filter((o) => o.changes > 0);
  return `every eligible edit (on ${plural(rows.eligible, 'row')}) also changes another detector: ` +
    breaking.map((o) => `${o.detector} on ${plural(o.changes, 'row')}`).join(', ');
}

/** A term that is `value` on every row and reads a part no row holds: why, in words; undefined otherwise. */
export function constantTermReason(report: AuditReport, reads: Iterable<TrajectoryPart>): string | undefined {
  const profile = auditProfile(report);
  const empty = emptyParts(profile, reads);
  return empty.length === 0 ? undefined : noneText(report, profile, empty);
}
