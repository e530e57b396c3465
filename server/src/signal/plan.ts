import { optionNames, optionNumber } from '../semantics/block-options.js';
import type { FieldReader } from '../edits/logged-field-rows.js';
import type { TrainingDecl } from '../syntax/ast.js';
import type { Span } from '../problems/span.js';
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

/** What a training block reads of each row's logged fields: its reward's (its detector terms among them). */
export function trainingFieldReader(plan: TrainingPlan): FieldReader {
  return { rewards: [plan.reward], detectors: [], attacks: [] };
}
