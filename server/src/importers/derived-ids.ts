// The ids a log does not carry, derived the same way by every importer (docs/import.md): a question
// id from the question's text, and groups from identical prompts within one training step.
import { createHash } from 'node:crypto';
import { titleKey } from '../pool/resolve-ids.js';

/**
 * `q-` and the first 16 hex digits of SHA-256 over the question, NFKC-normalised, case-folded and
 * whitespace-collapsed: the same question asked twice gets one id, in every run and every importer.
 */
export function derivedQuestionId(question: string): string {
  return `q-${createHash('sha256').update(titleKey(question)).digest('hex').slice(0, 16)}`;
}

export interface PromptRecord {
  /** The training step (or any batch key) the record belongs to; groups never span two. */
  readonly step: string;
  readonly prompt: string;
}

export interface RecoveredGroup {
  /** `step/k`: the k-th distinct prompt of the step, counted from 0 in record order. */
  readonly group: string;
  /** The record's index among those that share its prompt, from 0 in record order. */
  readonly sample: number;
}

/**
 * Groups for logs that do not name them (verl dumps, TRL completions): records with the same step
 * and byte-identical prompt are one group, because a GRPO group is one prompt sampled n times.
 */
export function groupsByPrompt(records: readonly PromptRecord[]): { readonly groups: readonly RecoveredGroup[]; readonly count: number } {
  const firstSeen = new Map<string, { group: string; next: number }>();
  const perStep = new Map<string, number>();
  const groups = records.map(({ step, prompt }) => {
    const key = JSON.stringify([step, prompt]);
    let entry = firstSeen.get(key);
    if (entry === undefined) {
      const k = perStep.get(step) ?? 0;
      perStep.set(step, k + 1);
      entry = { group: `${step}/${k}`, next: 0 };
      firstSeen.set(key, entry);
    }
    const sample = entry.next;
    entry.next += 1;
    return { group: entry.group, sample };
  });
  return { groups, count: firstSeen.size };
}
