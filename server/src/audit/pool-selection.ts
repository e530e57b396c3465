import { createHash } from 'node:crypto';
import { pairedMargin, type Scorer } from '../edits/features.js';
import type { PreparedEdits } from '../edits/prepare.js';
import type { PoolSelection } from '../semantics/audit-options.js';
import { rowMetrics } from './utility.js';

// Pool selection: which samples of each question an audit attacks (the paper's robustness check
// reruns the audit under stored, first, hash-random, all, R0-best and gold-informed selection).
// The rules are written exactly in docs/language.md ("Pool selection"), so that an independent
// implementation picks the same rows.

/** How a selection is written in a spec and in the report: `first`, `best(R0)`. */
export function selectionText(selection: PoolSelection): string {
  return selection.reward === undefined ? selection.rule : `${selection.rule}(${selection.reward})`;
}

export interface SelectedRows {
  /** keep[r] is 1 when row r is one of the selected samples. */
  readonly keep: Uint8Array;
  /** Sample groups (one pool's rows of one question) that the rule picked from. */
  readonly groups: number;
  /** Groups for which the rule names no sample (`stored` on a group with none or several marked). */
  readonly unselected: number;
  readonly rows: number;
}

/** The rows of one pool that answer one question, in `first` order: meta.sample ascending, then file order. */
export function sampleGroups(prepared: Pick<PreparedEdits, 'rows' | 'poolOfRow'>): number[][] {
  const byKey = new Map<string, number[]>();
  prepared.rows.forEach((row, r) => {
    const key = `${prepared.poolOfRow[r]}\u0000${row.question_id}`;
    const group = byKey.get(key);
    if (group === undefined) byKey.set(key, [r]);
    else group.push(r);
  });
  const sampleOf = (r: number): number => prepared.rows[r]!.meta.sample ?? Infinity;
  // A stable sort keeps file order among equal and unnumbered samples.
  return [...byKey.values()].map((group) => group.sort((a, b) => (sampleOf(a) === sampleOf(b) ? a - b : sampleOf(a) - sampleOf(b))));
}

/** The position SHA-256 picks among n samples: the digest's first four bytes, big-endian, mod n. */
export function hashIndex(questionId: string, n: number): number {
  return createHash('sha256').update(questionId, 'utf8').digest().readUInt32BE(0) % n;
}

/** The first row of a group with the largest score; `better(a, b)` is true when a beats b outright. */
function bestOf(group: readonly number[], better: (a: number, b: number) => boolean): number {
  let best = group[0]!;
  for (const row of group.slice(1)) if (better(row, best)) best = row;
  return best;
}

/**
 * The rows a selection keeps. `scorers` are the audit's rewards (best(R) names one of them, so the
 * reward's values are the ones the audit already computed).
 */
export function selectRows(prepared: PreparedEdits, selection: PoolSelection, scorers: readonly Scorer[]): SelectedRows {
  const keep = new Uint8Array(prepared.rows.length);
  const groups = sampleGroups(prepared);
  const F = prepared.table.keys.length;
  let unselected = 0;
  let rows = 0;
  const pick = pickerFor(prepared, selection, scorers, F);
  for (const group of groups) {
    const picked = pick(group);
    if (picked.length === 0) unselected++;
    for (const r of picked) keep[r] = 1;
    rows += picked.length;
  }
  return { keep, groups: groups.length, unselected, rows };
}

function pickerFor(prepared: PreparedEdits, selection: PoolSelection, scorers: readonly Scorer[], F: number): (group: readonly number[]) => readonly number[] {
  switch (selection.rule) {
    case 'all':
      return (group) => group;
    case 'first':
      return (group) => [group[0]!];
    case 'hash_random':
      return (group) => [group[hashIndex(prepared.rows[group[0]!]!.question_id, group.length)]!];
    case 'stored':
      return (group) => {
        if (group.length === 1) return group;
        const marked = group.filter((r) => prepared.rows[r]!.meta['stored'] === true);
        return marked.length === 1 ? marked : [];
      };
    case 'best': {
      const scorer = scorers.find((s) => s.name === selection.reward);
      if (scorer === undefined) throw new Error(`best(${selection.reward}) names a reward the audit does not score`);
      const values = prepared.originalValues;
      // Ties (within the tie tolerance, as margins are judged) go to the earlier sample.
      return (group) => [bestOf(group, (a, b) => pairedMargin(scorer.weights, values, a * F, values, b * F) > 0)];
    }
    case 'gold_informed': {
      const metrics = rowMetrics(prepared);
      const key = (r: number): readonly number[] => [metrics.exactMatch[r]!, metrics.recall[r]!, metrics.precision[r]!];
      return (group) => [bestOf(group, (a, b) => beats(key(a), key(b)))];
    }
  }
}

/** Lexicographic comparison: true when `a` is larger at the first place the two differ. */
function beats(a: readonly number[], b: readonly number[]): boolean {
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return a[i]! > b[i]!;
  return false;
}

/** A selection reads gold when it is gold-informed, or best(R) of a reward R that reads gold (by taint, never by name). */
export function selectionVisibility(selection: PoolSelection, scorers: readonly Scorer[]): 'visible' | 'oracle' {
  if (selection.rule === 'gold_informed') return 'oracle';
  if (selection.rule !== 'best') return 'visible';
  return scorers.find((s) => s.name === selection.reward)?.visibility === 'oracle' ? 'oracle' : 'visible';
}
