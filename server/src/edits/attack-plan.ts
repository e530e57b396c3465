import type { Span } from '../problems/span.js';
import type { AttackItem } from '../syntax/ast.js';

// What the edit engine is asked to do, as plain data read from a checked spec: which rewards and
// detectors to evaluate, which attacks to build. Audits, comparisons and training-signal audits all
// describe their work this way.

export type Selection = 'first_visible' | 'oracle_worst';
export const selections: readonly Selection[] = ['first_visible', 'oracle_worst'];

export type GeneratorPlan =
  | { readonly kind: 'lexical' | 'bm25'; readonly budget: number; readonly label: string }
  | { readonly kind: 'file'; readonly path: string; readonly label: string }
  | { readonly kind: 'command'; readonly command: string; readonly label: string };

export interface AttackPlan {
  readonly name: string;
  /** The edit it applies: a built-in edit of the prelude or one the spec declares (`model.edits`). */
  readonly kind: string;
  readonly targets: readonly string[];
  readonly generators: readonly GeneratorPlan[];
  readonly span: Span;
}

/**
 * The features to evaluate and the edits to build. `rewards` are scored (their terms become
 * features, in order); `detectors` are the ones isolation keeps unchanged besides each attack's
 * targets (they come first in the feature table).
 */
export interface EditPlan {
  readonly rewards: readonly string[];
  readonly detectors: readonly string[];
  readonly attacks: readonly AttackPlan[];
  /**
   * Rewards, signals, detectors and fields evaluated on the originals only, each as the feature
   * `value:NAME` (an audit's `conforms` lines: audit/conformance.ts). They weigh in no reward.
   */
  readonly values?: readonly string[];
}

/** Reads a checked `attack` item; undefined when the parser could not read its name or kind. */
export function planAttack(item: AttackItem): AttackPlan | undefined {
  if (item.name === undefined || item.attackKind === undefined) return undefined;
  return {
    name: item.name.text,
    kind: item.attackKind.text,
    targets: item.targets.map((t) => t.text),
    generators: item.generators.map((g): GeneratorPlan =>
      g.kind === 'candidates-command'
        ? { kind: 'command', command: g.command?.value ?? '', label: `candidates command ${JSON.stringify(g.command?.value ?? '')}` }
        : g.kind === 'candidates-file'
          ? { kind: 'file', path: g.path?.value ?? '', label: `candidates "${g.path?.value ?? ''}"` }
          : { kind: g.generator.text as 'lexical' | 'bm25', budget: g.budget?.value ?? 0, label: `${g.generator.text}(${g.budget?.value ?? ''})` }),
    span: item.span,
  };
}

/** The candidate files the attacks link, as written, in attack and generator order. */
export function candidateLinks(attacks: readonly AttackPlan[]): string[] {
  return attacks.flatMap((a) => a.generators.flatMap((g) => (g.kind === 'file' ? [g.path] : [])));
}
