import type { ImportCounts } from '../importers/importer.js';
import type { PoolResolution } from '../pool/resolve-ids.js';
import type { Corpus, RowIssue, Trajectory } from '../pool/types.js';

/** One loaded pool (or training or evaluation log): its rows and the rows it skipped, named as the spec links it. */
/** A logged field an analysis reads that `rows` rows of a pool lack or log with another type. */
export interface MissingField {
  readonly field: string;
  /** `meta.judge.score`. */
  readonly path: string;
  readonly rows: number;
}

export interface LoadedPool {
  readonly name: string;
  /** Relative to the spec's folder, as linked. */
  readonly file: string;
  readonly rows: readonly Trajectory[];
  readonly issues: readonly RowIssue[];
  /** How its result objects and citation markers were resolved against the corpus; absent when it logs none (every v1 pool). */
  readonly resolution?: PoolResolution;
  /** A pool linked `from FORMAT(...)`: what its importer counted and noted; absent for a pool in our format. */
  readonly imported?: { readonly format: string; readonly counts: ImportCounts; readonly notes: readonly string[] };
  /** The logged fields the analysis reads that some rows lack (or log with another type), with how many rows: those rows are skipped. */
  readonly missingFields?: readonly MissingField[];
  /** A pool linked by a glob: each matched file (absolute, as in a row's source) → relative to the spec's folder. */
  readonly rowFiles?: ReadonlyMap<string, string>;
}

/** The data one analysis reads: a corpus and the pools or logs it runs over, loaded and validated. */
export interface AnalysisInputs {
  readonly corpusName: string;
  readonly corpus: Corpus;
  readonly corpusIssues: readonly RowIssue[];
  readonly pools: readonly LoadedPool[];
}
