import { auditEditPlan, type AuditPlan } from '../audit/plan.js';
import { evaluateFeatures } from '../edits/attack-run.js';
import { AuditError } from '../edits/audit-error.js';
import { pairedMargin, rewardScorer } from '../edits/features.js';
import { replaceCitation, sameFinalEdit, type Edit } from '../edits/operators.js';
import { compilePlan } from '../edits/prepare.js';
import { corpusEnv } from '../language/eval-env.js';
import { viewOf } from '../language/view.js';
import type { Corpus, Trajectory } from '../pool/types.js';
import type { SpecModel } from '../semantics/check.js';
import type { PairDetector, PairReward } from './protocol.js';

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
  /** True for a same-final edit (the searches go), false for a citation edit. */
  readonly sameFinal: boolean;
  readonly rewards: readonly PairReward[];
  readonly detectors: readonly PairDetector[];
}

export type PairOutcome = { readonly ok: true; readonly pair: ComputedPair } | { readonly ok: false; readonly reason: string };

/** The audit's edit of one trajectory, as the attack builds it; a reason when it cannot be built. */
function rebuildEdit(plan: AuditPlan, row: Trajectory, wanted: PairEdit): { edit: Edit; description: string; sameFinal: boolean } | string {
  const attack = plan.attacks.find((a) => a.name === wanted.attack);
  if (attack === undefined) return `audit ${plan.name} has no attack ${wanted.attack}`;
  const view = viewOf(row);
  if (attack.kind === 'same_final') {
    const edit = sameFinalEdit(view);
    if (edit === undefined) return `trajectory ${row.id} has no same-final edit: it needs a final and at least one search`;
    return { edit, description: 'same-final: every search step and its results removed; the answer, the citations and the final text kept', sameFinal: true };
  }
  const { position, replacement } = wanted;
  if (position === null || replacement === null) return `a ${attack.kind} edit needs a citation position and a replacement id`;
  if (!Number.isInteger(position) || position < 0 || position >= view.citations.length) {
    return `trajectory ${row.id} has ${view.citations.length} citations: there is no citation ${position}`;
  }
  const previous = view.citations[position]!;
  const edit = replaceCitation(view, position, replacement);
  const where = edit.view.finalText === view.finalText
    ? `in final.citations (final.text is kept: ${previous} is cited more than once or not written there)`
    : 'in final.citations and in final.text';
  return { edit, description: `${attack.kind}: citation ${position} ${previous} → ${replacement} ${where}`, sameFinal: false };
}

/**
 * Rebuilds the pair (trajectory, edit) of one audit and takes every scored reward's margin term by
 * term. `corpus` is the audit's corpus (detectors and signals read it).
 */
export function computeWorkedPair(model: SpecModel, plan: AuditPlan, corpus: Corpus, row: Trajectory, wanted: PairEdit): PairOutcome {
  const rebuilt = rebuildEdit(plan, row, wanted);
  if (typeof rebuilt === 'string') return { ok: false, reason: rebuilt };
  const { rewards, table, detectorNames } = compilePlan(model, auditEditPlan(plan));
  const env = corpusEnv(corpus);
  const F = table.keys.length;
  const original = new Float64Array(F);
  const edited = new Float64Array(F);
  evaluateFeatures(table, viewOf(row), env, original, 0);
  evaluateFeatures(table, rebuilt.edit.view, env, edited, 0);
  const targets = new Set(plan.attacks.find((a) => a.name === wanted.attack)?.targets ?? []);
  try {
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
    // A term that is not finite on this row: the audit itself would have stopped with this message.
    if (error instanceof AuditError) return { ok: false, reason: error.message };
    throw error;
  }
}

export const isRecord = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value);

/**
 * The row as its JSON says, with the edit applied to the fields the operator changed and every
 * other field (unknown ones included) kept, so a diff against the original shows exactly the edit.
 */
export function editedRow(raw: Record<string, unknown>, pair: ComputedPair): Record<string, unknown> {
  if (pair.sameFinal) {
    const steps = raw['steps'];
    // The rows' JSON form of `isRetrievalStep` (edits/operators.ts): searches, and tool calls that logged results.
    const retrieval = (s: unknown): boolean => isRecord(s) && (s['type'] === 'search' || (s['type'] === 'tool' && Array.isArray(s['results']) && s['results'].length > 0));
    return { ...raw, steps: Array.isArray(steps) ? steps.filter((s) => !retrieval(s)) : steps };
  }
  const final = raw['final'];
  if (!isRecord(final)) return raw;
  return { ...raw, final: { ...final, citations: [...pair.edit.view.citations], text: pair.edit.view.finalText } };
}
