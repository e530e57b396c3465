// The editor's imports, as the worker runs them: an imported pool's file open in the editor (its rows
// checked as the spec reads them) and a worked pair's row. The pool is imported through
// `loadPoolLink` and the worker's cache, like an analysis's, so no import and no check of its rows
// runs on the server thread, and the server thread gets only what it shows (row-text.ts).
import type { AuditCaches } from '../audit/audit-spec.js';
import type { NamedFile } from '../inputs/load-inputs.js';
import { loadPoolLink } from '../inputs/pool-link.js';
import { specFiles } from '../inputs/spec-inputs.js';
import { profilePool, type PoolProfile } from '../pool/profile.js';
import type { Trajectory } from '../pool/types.js';
import { checkedOfBound, type BoundSpec } from '../semantics/bound-model.js';
import { delivered, settle, trustOf, type AnalysisRequest, type Outcome, type WorkerReply } from './analysis-run.js';
import { corpusOfPool, importedRows } from '../ide/pool-rows.js';
import { shownRows, type ShownRow } from '../ide/row-text.js';

export interface ImportRequest extends Pick<AnalysisRequest, 'untrustedFolders' | 'maxInputMiB'> {
  readonly pool: NamedFile;
  /** The pool's files (`poolLinkFiles`), in order. */
  readonly files: readonly string[];
  readonly specDir: string;
  /**
   * What to answer: the rows made from one file's records, checked as the spec (its text as the
   * editor holds it) reads the pool (a data file); or the first row with an id (a worked pair).
   */
  readonly select:
    | { readonly kind: 'file'; readonly file: string; readonly spec: BoundSpec }
    | { readonly kind: 'id'; readonly id: string }
    // What the rows hold, counted (a new spec's starter is fitted to it); no row crosses to the server thread.
    | { readonly kind: 'profile' };
  /** The `load` the server thread already holds rows of (for the same spec text): when it is still this one, no rows are sent again. */
  readonly known?: string;
}

export interface ImportedRows {
  /** Names what the rows were made from (the import, and the corpus they resolve against), across worker threads. */
  readonly load: string;
  /** A file's rows, checked; absent when `known` is still the load (or for an id). */
  readonly checked?: readonly ShownRow[];
  /** The row with the id, if a row has it. */
  readonly row?: Trajectory;
  /** The profile of every row (`select` kind `profile`). */
  readonly profile?: PoolProfile;
  /** The pool could not be imported at all. */
  readonly fileError?: string;
}

async function answer(request: ImportRequest, cache: AuditCaches, loadName: (loaded: object) => string): Promise<Outcome<ImportedRows>> {
  const trust = trustOf(request);
  const loaded = await loadPoolLink(request.pool, request.files, request.specDir, cache.inputs, trust);
  const { select } = request;
  const fileError = loaded.fileError === undefined ? {} : { fileError: loaded.fileError };
  if (select.kind === 'profile') return { state: 'done', results: { load: loadName(loaded), profile: profilePool(loaded.items), ...fileError } };
  if (select.kind === 'id') {
    const row = loaded.items.find((r) => r.id === select.id);
    return { state: 'done', results: { load: loadName(loaded), ...(row === undefined ? {} : { row }), ...fileError } };
  }
  // The spec says which corpus the rows resolve against and which logged fields it declares.
  const { model } = checkedOfBound(select.spec);
  const corpusName = corpusOfPool(model, request.pool.name);
  const corpus = corpusName === undefined ? undefined : await cache.inputs.corpus(specFiles(model.spec, select.spec.specFile).named(corpusName).file, trust);
  const load = `${loadName(loaded)}+${corpus === undefined ? 'no corpus' : loadName(corpus)}`;
  if (load === request.known) return { state: 'done', results: { load } };
  const reading = { model, ...(corpus === undefined || corpus.fileError !== undefined ? {} : { corpus: corpus.corpus }) };
  return { state: 'done', results: { load, checked: shownRows(importedRows(loaded, select.file, request.pool.name, reading)) } };
}

/** Answers the request with one `imported` reply; a throw is a failed import, so this never rejects. */
export async function runImport(id: number, request: ImportRequest, cache: AuditCaches, loadName: (loaded: object) => string, send: (reply: WorkerReply) => void): Promise<void> {
  delivered(send, { kind: 'imported', id, outcome: await settle(() => answer(request, cache, loadName)) });
}
