import type { Decl, RewardDecl, Spec, Term } from '../syntax/ast.js';
import type { Span } from '../problems/span.js';
import type { IssueCode } from '../problems/issue-codes.js';
import type { Problem, RelatedProblemInfo, Severity } from '../problems/problem.js';
import { suggestionBudget, suggestName, type SuggestionBudget } from './did-you-mean.js';
import type { EditInfo } from './check-edit.js';
import { ReadSets } from './read-set.js';
import type { DeclInfo, DeclSymbol, Occurrence } from './symbols.js';

/** What the checks build up while they walk a spec; frozen into a SpecModel at the end. */
export interface Analysis {
  readonly spec: Spec;
  /** The first declaration of each name (later duplicates are reported and left out). */
  readonly globals: Map<string, DeclSymbol>;
  readonly occurrences: Occurrence[];
  readonly declInfo: Map<Decl, DeclInfo>;
  /** The type and visibility of each reward term's expression. */
  readonly termInfo: Map<Term, DeclInfo>;
  readonly problems: Problem[];
  /** What is left for did-you-mean suggestions in this check. */
  readonly suggestions: SuggestionBudget;
  /** Each reward's Σ |w| with its base's terms (see weights.ts), worked out once. */
  readonly weightMasses: Map<RewardDecl, number>;
  /** The edits an attack may name: the prelude's and the spec's own. */
  readonly edits: Map<string, EditInfo>;
  /** What each declaration reads (never-eligible attacks; later, incremental evaluation). */
  readonly readSets: ReadSets;
}

/** A fresh analysis of `spec`. */
export function analysisOf(spec: Spec): Analysis {
  const globals = new Map<string, DeclSymbol>();
  return {
    spec, globals, occurrences: [], declInfo: new Map(), termInfo: new Map(), problems: [],
    suggestions: suggestionBudget(), weightMasses: new Map(), edits: new Map(), readSets: new ReadSets(globals),
  };
}

/**
 * The closest of the candidates to a misspelt name, within the check's budget; the candidates are
 * listed only while the budget lasts, so a spec full of unknown names stays linear.
 */
export function suggest(a: Analysis, name: string, candidates: () => Iterable<string>): string | undefined {
  return a.suggestions.remaining > 0 ? suggestName(name, candidates(), a.suggestions) : undefined;
}

export interface ReportExtras {
  readonly related?: readonly RelatedProblemInfo[];
  readonly unnecessary?: boolean;
  readonly data?: Readonly<Record<string, unknown>>;
}

export function report(a: Analysis, code: IssueCode, severity: Severity, span: Span, message: string, extras: ReportExtras = {}): void {
  a.problems.push({ code, severity, message, span, ...extras });
}
