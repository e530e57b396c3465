// What every importer is: a pure function from one framework's log files to pool rows in format v2
// (docs/pools.md). It never opens a file: whoever read the bytes (inputs/ for a pool a spec links
// `from FORMAT(...)`, cli/ for `herald import`) hands them over, so both paths run the same code and
// the result can be cached by the files' stamps.
import type { z } from 'zod';
import type { FormatRenderer } from './render.js';

/** One input file as read: `path` is how reasons name it (as given on the command line, or spec-relative). */
export interface ImportFile {
  readonly path: string;
  readonly bytes: Uint8Array;
}

/**
 * Where a record came from: the file and its 1-based record number (the JSONL line, the Parquet row
 * + 1, or 1 for a file that is one JSON document). Every reason and every imported row carries it.
 */
export interface RecordAt {
  readonly file: string;
  readonly line: number;
}

/** One pool row in format v2, as plain JSON (what `herald import` writes, one per line). */
export type PoolRowJson = Readonly<Record<string, unknown>>;

export interface ImportedRow {
  readonly row: PoolRowJson;
  readonly at: RecordAt;
}

/** A record that was read and not imported, with why (never quoting the record's text). */
export interface ImportIssue {
  readonly at: RecordAt;
  readonly reason: string;
}

/** The counts every importer states; the CLI prints them and a spec-linked pool reports them. */
export interface ImportCounts {
  /** Records read (lines, Parquet rows, episodes, run files). */
  readonly read: number;
  readonly imported: number;
  readonly skipped: number;
  /** Rows whose question id the log did not carry, derived with `derivedQuestionId`. */
  readonly questionIdsDerived: number;
  /** Groups (same question within one step) recovered from identical prompts; null when the log names its groups. */
  readonly groupsRecovered: number | null;
}

/**
 * Where an importer hands each row the moment it is made. The registry checks it at once, so of a
 * record nothing outlives its checked row: a dump of a million rollouts never holds two copies.
 */
export type RowSink = (row: ImportedRow) => void;

/** What an importer states once every row is handed over. */
export interface ImportSummary {
  readonly skipped: readonly ImportIssue[];
  readonly counts: ImportCounts;
  /** What the importer derived or assumed, one sentence each (never silent): "question ids derived from …". */
  readonly notes: readonly string[];
}

export interface ImportResult extends ImportSummary {
  readonly rows: readonly ImportedRow[];
}

/** Option values as written in a spec (`from verl(dialect: search_r1)`) or on the command line (`--option dialect=search_r1`). */
export type RawOptions = Readonly<Record<string, string>>;

/** One value of an option whose values are a closed list, with what it means (completion offers it after `name:`). */
export interface OptionValue {
  readonly value: string;
  readonly doc: string;
}

export interface Importer<Options = unknown> {
  /** The name after `--from` and `from` in a spec: lower-case, `_` between words. */
  readonly format: string;
  /** One line for `herald import --help`, completion and hover. */
  readonly summary: string;
  /** The options, with what each means; the schema must be strict so an unknown option is an error. */
  readonly options: z.ZodType<Options, RawOptions>;
  readonly optionDocs: Readonly<Record<string, string>>;
  /** The values of the options that take one of a closed list (a dialect, an answer rule); free-text options have none. */
  readonly optionValues?: Readonly<Record<string, readonly OptionValue[]>>;
  run(files: readonly ImportFile[], options: Options, emit: RowSink): Promise<ImportSummary>;
  /** The other direction: a row (edited or not) written back as the framework logs it (./render.ts). */
  readonly renderer?: FormatRenderer;
}
