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

/** Group recovery one record at a time, in record order: a record's group never depends on a later one. */
export interface GroupRecovery {
  next(record: PromptRecord): RecoveredGroup;
  /** Groups recovered so far. */
  readonly count: number;
}

/**
 * Groups for logs that do not name them (verl dumps, TRL completions): records with the same step
 * and byte-identical prompt are one group, because a GRPO group is one prompt sampled n times.
 */
export function groupRecovery(): GroupRecovery {
  const byStep = new Map<string, Map<string, { group: string; next: number }>>();
  let count = 0;
  return {
    next({ step, prompt }) {
      let prompts = byStep.get(step);
      if (prompts === undefined) byStep.set(step, (prompts = new Map()));
      let entry = prompts.get(prompt);
      if (entry === undefined) {
        entry = { group: `${step}/${prompts.size}`, next: 0 };
        prompts.set(prompt, entry);
        count++;
      }
      const sample = entry.next;
      entry.next += 1;
      return { group: entry.group, sample };
    },
    get count() {
      return count;
    },
  };
}

/** The groups of a list of records (see groupRecovery). */
export function groupsByPrompt(records: readonly PromptRecord[]): { readonly groups: readonly RecoveredGroup[]; readonly count: number } {
  const recovery = groupRecovery();
  const groups = records.map((r) => recovery.next(r));
  return { groups, count: recovery.count };
}
