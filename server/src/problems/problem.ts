import type { Span } from './span.js';
import type { IssueCode } from './issue-codes.js';

export type Severity = 'error' | 'warning' | 'information' | 'hint';

export interface RelatedProblemInfo {
  readonly span: Span;
  readonly message: string;
}

/** The edit of a worked pair: with the spec, enough to rebuild the pair and show it side by side. */
export interface RowPair {
  readonly audit: string;
  readonly trajectory: string;
  /** The pool's name in the spec. */
  readonly pool: string;
  readonly attack: string;
  readonly position: number | null;
  readonly replacement: string | null;
  /** What the edit did when position and replacement do not say it (report.md: `workedPair.change`). */
  readonly change?: string;
}

/** A row of a data file a finding is about (a skipped row, a worked pair's trajectory). */
export interface RowLocation {
  /** Absolute, as the file was opened. */
  readonly file: string;
  /** One-based line in the JSONL file; 0 for the file as a whole. */
  readonly line: number;
  readonly message: string;
  /** Set when the row is the original of a worked pair. */
  readonly pair?: RowPair;
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
  /** Rows of data files the problem is about; editors link them, SARIF lists them as related locations. */
  readonly rows?: readonly RowLocation[];
  /** Rows past `rows` the problem is also about, counted, not listed (at most `maxListedRows` are). */
  readonly moreRows?: number;
  /**
   * What identifies an audit finding across runs (SARIF's fingerprint): names and spec text only,
   * never a figure that a new seed or data could move.
   */
  readonly key?: readonly string[];
}
