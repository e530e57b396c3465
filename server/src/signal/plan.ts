import type { BlockItem, Span, TrainingDecl } from '../syntax/ast.js';
import type { Normalization } from './group-advantages.js';

export interface TrainingPlan {
  readonly name: string;
  /** The block's name in the spec; undefined when the command line described the analysis. */
  readonly span: Span | undefined;
  readonly reward: string;
  readonly corpus: string;
  /** Pool names of the training logs. */
  readonly logs: readonly string[];
  readonly normalization: Normalization;
  readonly minGroups: number;
}

export const defaultMinGroups = 5;

/** The names an option lists (`log a, b`), or its first number. Options the checker rejected are never read. */
export function optionNames(items: readonly BlockItem[], key: string): string[] {
  return items.flatMap((i) => (i.kind === 'option' && i.key.text === key ? i.values.flatMap((v) => (v.kind === 'name' ? [v.name.text] : [])) : []));
}

export function optionNumber(items: readonly BlockItem[], key: string): number | undefined {
  for (const item of items) {
    if (item.kind !== 'option' || item.key.text !== key) continue;
    const value = item.values[0];
    if (value?.kind === 'number') return value.value;
  }
  return undefined;
}

/** Reads a checked training block; undefined when it is incomplete (the checker said why). */
export function planTraining(decl: TrainingDecl): TrainingPlan | undefined {
  const reward = decl.items.find((i) => i.kind === 'audit-reward')?.reward?.text;
  const corpus = decl.items.find((i) => i.kind === 'audit-corpus')?.corpus?.text;
  if (decl.name === undefined || reward === undefined || corpus === undefined) return undefined;
  const normalization = optionNames(decl.items, 'normalize')[0] === 'mean' ? 'mean' : 'std';
  return {
    name: decl.name.text, span: decl.name.span, reward, corpus, logs: optionNames(decl.items, 'log'), normalization,
    minGroups: optionNumber(decl.items, 'min_groups') ?? defaultMinGroups,
  };
}
