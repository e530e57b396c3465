import { planAttack, type AttackPlan, type EditPlan } from '../edits/attack-plan.js';
import type { FieldReader } from '../edits/logged-field-rows.js';
import type { Span } from '../problems/span.js';
import { optionNames, optionNumber, optionWord, resampling } from '../semantics/block-options.js';
import type { ComparisonDecl } from '../syntax/ast.js';

export interface ComparisonPlan {
  readonly name: string;
  readonly span: Span | undefined;
  /** The fixed reward that scores the targeted attacks in both arms. */
  readonly reward: string;
  readonly corpus: string;
  readonly attacks: readonly AttackPlan[];
  readonly base: readonly string[];
  readonly treatment: readonly string[];
  /** Detectors whose natural incidence is compared. */
  readonly detectors: readonly string[];
  /** EM non-inferiority margin, in points. */
  readonly margin: number;
  /** The smallest rate reduction a claim would state, in points. */
  readonly claim: number;
  /** `one`: each arm is one run (its logs together); `logs`: each log an arm names is one run (seed). */
  readonly runs: 'one' | 'logs';
  /** How rows split into greedy and sampled (`greedy`): meta.sample 0, or a boolean logged field by name; undefined: no split. */
  readonly greedy: { readonly kind: 'sample0' } | { readonly kind: 'field'; readonly name: string } | undefined;
  readonly seed: number;
  readonly bootstrap: number;
}

export const defaultMargin = 2;
export const defaultClaim = 1;

function greedyOf(word: string | undefined): ComparisonPlan['greedy'] {
  if (word === undefined) return undefined;
  return word === 'sample0' ? { kind: 'sample0' } : { kind: 'field', name: word };
}

/** Reads a checked comparison block; undefined when it is incomplete (the checker said why). */
export function planComparison(decl: ComparisonDecl): ComparisonPlan | undefined {
  const reward = decl.items.find((i) => i.kind === 'audit-reward')?.reward?.text;
  const corpus = decl.items.find((i) => i.kind === 'audit-corpus')?.corpus?.text;
  if (decl.name === undefined || reward === undefined || corpus === undefined) return undefined;
  const attacks: AttackPlan[] = [];
  for (const item of decl.items) {
    if (item.kind !== 'attack') continue;
    const attack = planAttack(item);
    if (attack === undefined) return undefined;
    attacks.push(attack);
  }
  const named = optionNames(decl.items, 'detectors');
  const detectors = [...new Set(named.length > 0 ? named : attacks.flatMap((a) => a.targets))];
  return {
    name: decl.name.text, span: decl.name.span, reward, corpus, attacks,
    base: optionNames(decl.items, 'base'),
    treatment: optionNames(decl.items, 'treatment'),
    detectors,
    margin: optionNumber(decl.items, 'margin') ?? defaultMargin,
    claim: optionNumber(decl.items, 'claim') ?? defaultClaim,
    runs: optionWord(decl.items, 'runs') === 'logs' ? 'logs' : 'one',
    greedy: greedyOf(optionWord(decl.items, 'greedy')),
    ...resampling(decl.items),
  };
}

/**
 * What each arm's edits are: the scorer's terms, and every detector the comparison reads kept
 * isolated, so a targeted edit never changes a compared detector's incidence.
 */
export function comparisonEditPlan(plan: ComparisonPlan): EditPlan {
  return { rewards: [plan.reward], detectors: [...new Set([...plan.detectors, ...plan.attacks.flatMap((a) => a.targets)])], attacks: plan.attacks };
}

/** What a comparison reads of each row's logged fields: its edits' and, with `greedy FIELD`, that field. */
export function comparisonFieldReader(plan: ComparisonPlan): FieldReader {
  return { ...comparisonEditPlan(plan), fields: plan.greedy?.kind === 'field' ? [plan.greedy.name] : [] };
}
