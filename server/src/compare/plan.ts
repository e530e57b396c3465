import { planAudit, type AuditPlan } from '../audit/plan.js';
import { optionNames, optionNumber } from '../signal/plan.js';
import type { AuditItem, ComparisonDecl, Span } from '../syntax/ast.js';

export interface ComparisonPlan {
  readonly name: string;
  readonly span: Span | undefined;
  /** The audit the targeted attacks run as in each arm: the scorer as its reward, the detectors as its lattice. */
  readonly audit: AuditPlan;
  readonly base: readonly string[];
  readonly treatment: readonly string[];
  /** Detectors whose natural incidence is compared. */
  readonly detectors: readonly string[];
  /** EM non-inferiority margin, in points. */
  readonly margin: number;
  /** The smallest rate reduction a claim would state, in points. */
  readonly claim: number;
}

export const defaultMargin = 2;
export const defaultClaim = 1;

/**
 * Reads a checked comparison block. Its reward, corpus, attacks, seed and bootstrap are an audit's
 * items, so the audit planner reads them; the options say which logs are paired.
 */
export function planComparison(decl: ComparisonDecl, text: string): ComparisonPlan | undefined {
  if (decl.name === undefined) return undefined;
  const items = decl.items.filter((i): i is AuditItem => i.kind !== 'option');
  const attackTargets = items.flatMap((i) => (i.kind === 'attack' ? i.targets.map((t) => t.text) : []));
  const named = optionNames(decl.items, 'detectors');
  const detectors = [...new Set(named.length > 0 ? named : attackTargets)];
  const audit = planAudit({ kind: 'audit', name: decl.name, doc: decl.doc, items, span: decl.span }, text);
  if (audit === undefined) return undefined;
  return {
    name: decl.name.text,
    span: decl.name.span,
    // Every detector the comparison reads is a lattice detector, so the targeted edits stay isolated from them.
    audit: { ...audit, lattice: [...new Set([...detectors, ...attackTargets])].map((name) => ({ name, lambda: 1 })) },
    base: optionNames(decl.items, 'base'),
    treatment: optionNames(decl.items, 'treatment'),
    detectors,
    margin: optionNumber(decl.items, 'margin') ?? defaultMargin,
    claim: optionNumber(decl.items, 'claim') ?? defaultClaim,
  };
}
