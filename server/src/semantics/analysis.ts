import type { Decl, Spec, Term } from '../syntax/ast.js';
import type { Span } from '../problems/span.js';
import type { IssueCode } from '../problems/issue-codes.js';
import type { Problem, RelatedProblemInfo, Severity } from '../problems/problem.js';
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
}

export interface ReportExtras {
  readonly related?: readonly RelatedProblemInfo[];
  readonly unnecessary?: boolean;
  readonly data?: Readonly<Record<string, unknown>>;
}

export function report(a: Analysis, code: IssueCode, severity: Severity, span: Span, message: string, extras: ReportExtras = {}): void {
  a.problems.push({ code, severity, message, span, ...extras });
}
