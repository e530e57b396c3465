import { auditEditPlan, type AuditPlan } from '../audit/plan.js';
import { evaluateFeatures } from '../edits/attack-run.js';
import { AuditError } from '../edits/audit-error.js';
import { pairedMargin, rewardScorer } from '../edits/features.js';
import { editVariants, type Edit } from '../edits/edit-program.js';
import { renderedView, UnrenderedEdit } from '../edits/rendered-view.js';
import { compilePlan } from '../edits/prepare.js';
import { corpusEnv, type EvalEnv } from '../language/eval-env.js';
import type { CommandTerms } from '../language/command-terms.js';
import { viewOf, type TrajectoryView } from '../language/view.js';
import type { Corpus, TraceStep, Trajectory } from '../pool/types.js';
import type { SpecModel } from '../semantics/check.js';
import type { PairDetector, PairReward } from '../contract/protocol.js';

// A worked pair rebuilt on demand, as a user would check it by hand: the audit's attack applied to
// one pool row with the same operator the audit used (edits/operators.ts), every feature of the
// audit evaluated on the original and on the edit, and each reward's margin taken term by term.
// The margin is the audit's own (`pairedMargin`, ties made exact), so it equals the report's.

/** Which edit of the row: the attack, and for citation edits the position and the id put there. */
export interface PairEdit {
  readonly attack: string;
  readonly position: number | null;
  readonly replacement: string | null;
}

export interface ComputedPair {
  readonly edit: Edit;
  /** What the edit did, in words. */
  readonly description: string;
  readonly rewards: readonly PairReward[];
  readonly detectors: readonly PairDetector[];
}

export type PairOutcome = { readonly ok: true; readonly pair: ComputedPair } | { readonly ok: false; readonly reason: string };

/**
 * The audit's edit of one trajectory, rebuilt with the attack's own edit (edits/edit-program.ts):
 * its variants are generated again and the one at the wanted position with the wanted id is kept.
 * Generated candidates need no generator here: the only one asked for is the id the pair names.
 */
function rebuildEdit(model: SpecModel, plan: AuditPlan, env: EvalEnv, row: Trajectory, wanted: PairEdit): { edit: Edit; description: string } | string {
  const attack = plan.attacks.find((a) => a.name === wanted.attack);
  if (attack === undefined) return `audit ${plan.name} has no attack ${wanted.attack}`;
  const compiled = compilePlan(model, { rewards: [], detectors: [], attacks: [attack] }).edits.get(attack.name)!;
  const view = viewOf(row);
  const replaces = compiled.ops.some((op) => op.verb === 'replace');
  const { position, replacement } = wanted;
  if (replaces && (position === null || replacement === null)) return `a ${attack.kind} edit needs a citation position and a replacement id`;
  if (replaces && (!Number.isInteger(position) || position! < 0 || position! >= view.citations.length)) {
    return `trajectory ${row.id} has ${view.citations.length} citations: there is no citation ${position}`;
  }
  const candidatesAt = (p: number): readonly string[] => (p === position && replacement !== null ? [replacement] : []);
  for (const edit of editVariants(compiled, view, { trajectoryId: row.id, env, candidatesAt })) {
    if ((edit.position ?? null) !== position || (edit.replacement ?? null) !== replacement) continue;
    // The edit as the audit scored it: a row read through a format gets the text of the edited rollout.
    return { edit: { ...edit, view: renderedView(row, edit) }, description: describeEdit(attack.kind, view, edit) };
  }
  return position === null && replacement === null
    ? `trajectory ${row.id} has no ${attack.kind} edit: the edit's condition does not hold on it, or the edit would leave it unchanged`
    : `trajectory ${row.id} has no ${attack.kind} edit at ${position ?? '-'} with ${replacement ?? '-'}`;
}

/** What an edit changed, field by field, in words: `launder: citation 0 w:1 → w:9 in final.citations and in final.text`. */
export function describeEdit(kind: string, original: TrajectoryView, edit: Edit): string {
  const edited = edit.view;
  const parts: string[] = [];
  const removed = original.steps.length - edited.steps.length;
  if (edited.steps !== original.steps) {
    if (removed > 0) parts.push(`${removed} step${removed === 1 ? '' : 's'} removed (${original.steps.filter((_s, i) => !edit.stepOrigin.includes(i)).map(stepName).join(', ')})`);
    else if (removed < 0) parts.push(`${-removed} step${removed === -1 ? '' : 's'} duplicated (${stepName(original.steps[edit.position ?? edit.stepOrigin[0]!]!)})`);
  }
  if (edit.position !== undefined && edit.replacement !== undefined && edited.citations.length === original.citations.length) {
    const where = edited.finalText === original.finalText
      ? `in final.citations (final.text is kept: ${original.citations[edit.position]} is cited more than once or not written there)`
      : 'in final.citations and in final.text';
    parts.push(`citation ${edit.position} ${original.citations[edit.position]} → ${edit.replacement} ${where}`);
  } else if (edited.citations !== original.citations) {
    parts.push(`citations ${original.citations.join(', ') || '(none)'} → ${edited.citations.join(', ') || '(none)'}`);
  }
  if (edited.answer !== original.answer) parts.push(`answer set to ${JSON.stringify(edited.answer)}`);
  if (edited.finalText !== original.finalText && edit.replacement === undefined) parts.push('final.text set');
  return `${kind}: ${parts.join('; ')}`;
}

function stepName(step: TraceStep): string {
  return step.type === 'tool' ? step.tool : step.type;
}

/**
 * Rebuilds the pair (trajectory, edit) of one audit and takes every scored reward's margin term by
 * term. `corpus` is the audit's corpus (detectors and signals read it).
 */
export function computeWorkedPair(model: SpecModel, plan: AuditPlan, corpus: Corpus, row: Trajectory, wanted: PairEdit, commandTerms?: CommandTerms): PairOutcome {
  const env = corpusEnv(corpus, commandTerms);
  // Rebuilding the edit and evaluating the features can meet an engine bound (an edit that grows
  // past its limits, a `matches` past its work): the audit stopped on it too, with this message.
  try {
    const rebuilt = rebuildEdit(model, plan, env, row, wanted);
    if (typeof rebuilt === 'string') return { ok: false, reason: rebuilt };
    const { rewards, table, detectorNames } = compilePlan(model, auditEditPlan(plan));
    const F = table.keys.length;
    const original = new Float64Array(F);
    const edited = new Float64Array(F);
    evaluateFeatures(table, viewOf(row), env, original, 0);
    evaluateFeatures(table, rebuilt.edit.view, env, edited, 0);
    const targets = new Set(plan.attacks.find((a) => a.name === wanted.attack)?.targets ?? []);
    const scored = rewards.map((reward, i): PairReward => {
      const terms = reward.terms.map((term) => {
        const k = table.index.get(term.key)!;
        const before = original[k]!;
        const after = edited[k]!;
        return { name: term.name, weight: term.weight, original: before, edited: after, contribution: term.weight * (after - before) };
      });
      return {
        reward: reward.name, role: i === 0 ? 'audited' : 'compared', terms,
        sum: terms.reduce((s, t) => s + t.contribution, 0),
        margin: pairedMargin(rewardScorer(table, reward).weights, edited, 0, original, 0),
      };
    });
    const detectors = detectorNames.map((name): PairDetector => {
      const k = table.index.get(`decl:${name}`)!;
      return { name, target: targets.has(name), original: original[k]!, edited: edited[k]! };
    });
    return { ok: true, pair: { ...rebuilt, rewards: scored, detectors } };
  } catch (error) {
    // A term that is not finite on this row, or an edit past its bounds: the audit itself would have stopped with this message.
    if (error instanceof AuditError) return { ok: false, reason: error.message };
    if (error instanceof UnrenderedEdit) return { ok: false, reason: `${error.message}; the audit does not count it` };
    throw error;
  }
}


export const isRecord = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value);

/**
 * The row as its JSON says, with the edit applied to the fields it changed and every other field
 * (unknown ones included) kept, so a diff against the original shows exactly the edit. Steps are
 * the row's own JSON steps in the edit's order (`stepOrigin`), so their logged form stays.
 */
export function editedRow(raw: Record<string, unknown>, pair: Pick<ComputedPair, 'edit'>): Record<string, unknown> {
  const { edit } = pair;
  const steps = raw['steps'];
  const identity = edit.stepOrigin.length === (Array.isArray(steps) ? steps.length : -1) && edit.stepOrigin.every((origin, i) => origin === i);
  const withSteps = identity || !Array.isArray(steps) ? raw : { ...raw, steps: edit.stepOrigin.map((i) => steps[i]) };
  const meta = raw['meta'];
  // An edit the format cannot write back shows the logged values: no term of the audit read them.
  const shown = (key: string): unknown => {
    try {
      return edit.view.meta[key];
    } catch (error) {
      if (error instanceof UnrenderedEdit) return isRecord(meta) ? meta[key] : undefined;
      throw error;
    }
  };
  const rendered = isRecord(meta) ? Object.keys(meta).filter((key) => JSON.stringify(meta[key]) !== JSON.stringify(shown(key))) : [];
  const withMeta = rendered.length === 0 || !isRecord(meta) ? withSteps : { ...withSteps, meta: { ...meta, ...Object.fromEntries(rendered.map((key) => [key, shown(key)])) } };
  return withFinal(withMeta, edit);
}

/** The row with its `final` as the edit left it (answer, citations, text), or as it was when the edit did not touch it. */
function withFinal(withSteps: Record<string, unknown>, edit: Edit): Record<string, unknown> {
  const final = withSteps['final'];
  if (!isRecord(final)) return withSteps;
  const view = edit.view;
  const changed = {
    ...(final['answer'] === view.answer || final['answer'] === undefined ? {} : { answer: view.answer }),
  };
  const citations = Array.isArray(final['citations']) && sameIds(final['citations'], view.citations) ? {} : { citations: [...view.citations] };
  const text = final['text'] === view.finalText || (final['text'] === undefined && view.finalText === '') ? {} : { text: view.finalText };
  if (Object.keys(changed).length + Object.keys(citations).length + Object.keys(text).length === 0) return withSteps;
  return { ...withSteps, final: { ...final, ...changed, ...citations, ...text } };
}

/** The logged citations read as the view's ids (a marker logged as an object is not an id). */
function sameIds(logged: readonly unknown[], ids: readonly string[]): boolean {
  return logged.length === ids.length && logged.every((c, i) => c === ids[i]);
}
