import * as path from 'node:path';
import { auditEditPlan, planAudit } from '../audit/plan.js';
import { cachedCommandTerms } from '../edits/command-terms.js';
import { defaultCacheDir } from '../inputs/cache-folder.js';
import type { InputCache } from '../inputs/input-cache.js';
import { describeFileError, streamJsonlLines } from '../inputs/jsonl.js';
import type { NamedFile } from '../inputs/load-inputs.js';
import { linkedFileAccess } from '../inputs/open-input.js';
import { specRelative } from '../inputs/paths.js';
import { poolLinkFiles } from '../inputs/pool-link.js';
import { resolveRows } from '../inputs/resolve-rows.js';
import { specFiles } from '../inputs/spec-inputs.js';
import type { WorkspaceTrust } from '../inputs/trust.js';
import { parsePoolRow } from '../pool/schemas.js';
import type { Trajectory } from '../pool/types.js';
import { trustOnWire } from './analysis-runner.js';
import { specFileOf } from './document-analysis.js';
import { poolRowJson } from '../ide/imported-row.js';
import { importFailure, type PoolImports } from './pool-documents.js';
import type { WorkedPairParams, WorkedPairResult } from '../contract/protocol.js';
import type { Session } from './session.js';
import { computeWorkedPair, editedRow, isRecord } from './worked-pair.js';
import { editedText, importedRowText, rowText } from './worked-pair-text.js';

// `herald/workedPair`: the pair rebuilt from the spec as the editor holds it, the row read as the
// audit read it: from its pool file, from the first file of a glob that holds it (the pair's own
// file, report/pair-file.ts), or from the rows an importer made of the pool's files (through the
// audit's own load, `loadPoolLink`, in a worker thread); its ids resolved against the audit's
// corpus. Corpora are kept in `corpora` between requests, imported pools in the worker, each
// reloaded when a file changes.

interface PoolRow {
  /** The row's JSON line; none for an imported row (the log's line is the framework's record, not a row). */
  readonly raw?: Record<string, unknown>;
  readonly row: Trajectory;
  /** Absolute; for an imported row, the log file the record is in, and `line` the record's. */
  readonly file: string;
  readonly line: number;
  /** The importer that made the row, for an imported pool. */
  readonly importer?: string;
}

const unavailable = (reason: string): WorkedPairResult => ({ kind: 'unavailable', reason });

/**
 * The first valid row with the trajectory's id, as the loader keeps it (a later duplicate is a
 * skipped row). Lines are parsed only when they can hold the id, so a long pool is mostly skimmed.
 */
async function readRow(file: string, pool: string, id: string, trust: WorkspaceTrust): Promise<PoolRow | string | undefined> {
  const needle = JSON.stringify(id).slice(1, -1);
  try {
    for await (const { line, text } of streamJsonlLines(file, linkedFileAccess(trust))) {
      if (!text.includes(needle)) continue;
      let raw: unknown;
      try {
        raw = JSON.parse(text);
      } catch {
        continue;
      }
      const parsed = parsePoolRow(raw, { pool, file, line });
      if (parsed.ok && parsed.value.id === id && isRecord(raw)) return { raw, row: parsed.value, file, line };
    }
  } catch (error) {
    return describeFileError(file, error);
  }
  return undefined;
}

/**
 * The pool's row with the trajectory's id, as the audit kept it: a glob's files in their order (a
 * later file's row with a taken id is a skipped duplicate), an imported pool's rows as its load made them.
 */
async function findRow(pool: NamedFile, id: string, specDir: string, imports: PoolImports, trust: WorkspaceTrust, maxInputMiB: number | undefined): Promise<PoolRow | string | undefined> {
  const files = poolLinkFiles(pool, trust);
  if (!files.ok) return `${specRelative(specDir, pool.file)}: ${files.reason}`;
  if (pool.importer !== undefined) {
    const imported = await imports.importRows({ pool, files: files.files, specDir, select: { kind: 'id', id }, ...trustOnWire(trust, maxInputMiB) });
    if (imported.state !== 'done') return importFailure(imported);
    if (imported.results.fileError !== undefined) return imported.results.fileError;
    const row = imported.results.row;
    return row === undefined ? undefined : { row, file: row.source.file, line: row.source.line, importer: pool.importer.format };
  }
  for (const file of files.files) {
    const found = await readRow(file, pool.name, id, trust);
    if (found !== undefined) return found;
  }
  return undefined;
}

export async function workedPairAnswer(session: Session, corpora: InputCache, imports: PoolImports, params: WorkedPairParams): Promise<WorkedPairResult> {
  const analysis = await session.analysisFor(params.uri);
  const specFile = specFileOf(params.uri);
  if (analysis === undefined || specFile === undefined) return unavailable('open the spec (saved to a file) to rebuild its worked pairs');
  if (analysis.analyzed.problems.some((p) => p.severity === 'error')) return unavailable('the spec has errors: fix them to rebuild its worked pairs');
  if (session.untrustedLinks(analysis).length > 0) return unavailable('the spec links files outside this untrusted workspace: they are not read');
  const { model } = analysis.analyzed;
  const decl = model.globals.get(params.audit)?.decl;
  const plan = decl?.kind === 'audit' ? planAudit(decl, analysis.text) : undefined;
  if (plan === undefined) return unavailable(`the spec has no audit ${params.audit}`);
  if (!plan.pools.includes(params.pool)) return unavailable(`audit ${params.audit} reads no pool ${params.pool}`);

  const files = specFiles(model.spec, specFile);
  const specDir = path.dirname(specFile);
  const pool = files.named(params.pool);
  const trust = await session.trustFor(analysis.uri);
  const found = await findRow(pool, params.trajectory, specDir, imports, trust, (await session.settings.for(analysis.uri)).maxInputMiB);
  if (typeof found === 'string') return unavailable(found);
  if (found === undefined) return unavailable(`no valid row of ${specRelative(specDir, pool.file)} has the id ${params.trajectory}`);
  const corpus = await corpora.corpus(files.named(plan.corpus).file, trust);
  if (corpus.fileError !== undefined) return unavailable(corpus.fileError);
  // The ids the row does not log (result objects, citation markers) resolve as the audit resolved them.
  const resolved = resolveRows([found.row], corpus.corpus);
  const row = resolved.rows[0];
  if (row === undefined) return unavailable(`the audits skip line ${found.line} of ${specRelative(specDir, found.file)}: ${resolved.skipped[0]?.reason ?? 'its ids do not resolve against the corpus'}`);

  // A field or reward computed by a program is read from the answers the audit kept: nothing runs here.
  const terms = cachedCommandTerms(model, auditEditPlan(plan), specDir, trust.trusted ? defaultCacheDir() : false);
  const computed = computeWorkedPair(model, plan, corpus.corpus, row, params, terms);
  if (!computed.ok) return unavailable(computed.reason);
  const { pair } = computed;
  // An imported row is shown as the row the importer made, as the audit read it (resolved ids included).
  const raw = found.raw ?? poolRowJson(row);
  const heading = {
    audit: params.audit, attack: params.attack, trajectory: params.trajectory, pool: params.pool,
    file: specRelative(specDir, found.file), line: found.line, edit: pair.description, ...(found.importer === undefined ? {} : { importer: found.importer }),
  };
  return {
    kind: 'pair', trajectory: params.trajectory, file: found.file, line: found.line, edit: pair.description,
    original: found.raw === undefined ? importedRowText(heading, raw) : rowText(raw), edited: editedText(heading, pair.rewards, pair.detectors, editedRow(raw, pair)),
    rewards: pair.rewards, detectors: pair.detectors,
  };
}
