import type { Span } from './span.js';
import type { IssueCode } from './issue-codes.js';

export type Severity = 'error' | 'warning' | 'information' | 'hint';

export interface RelatedProblemInfo {
  readonly span: Span;
  readonly message: string;
}

/**
 * A problem found in a spec, before any editor or terminal formats it. Stages return problems as
 * values; the language server turns them into LSP diagnostics and the CLI into lines.
 */
export interface Problem {
  readonly code: IssueCode;
  readonly severity: Severity;
  readonly message: string;
  readonly span: Span;
  readonly related?: readonly RelatedProblemInfo[];
  /** Marks code that can go (rendered faded by editors). */
  readonly unnecessary?: boolean;
  /** What a quick fix needs: e.g. the suggested name for `unknown-name`. */
  readonly data?: Readonly<Record<string, unknown>>;
}
