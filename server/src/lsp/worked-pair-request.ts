import * as path from 'node:path';
import { planAudit } from '../audit/plan.js';
import type { InputCache } from '../inputs/input-cache.js';
import { describeFileError, streamJsonlLines } from '../inputs/jsonl.js';
import { linkedFileAccess } from '../inputs/open-input.js';
import type { WorkspaceTrust } from '../inputs/trust.js';
import { specRelative } from '../inputs/paths.js';
import { resolveRows } from '../inputs/resolve-rows.js';
import { specFiles } from '../inputs/spec-inputs.js';
import { parsePoolRow } from '../pool/schemas.js';
import type { Trajectory } from '../pool/types.js';
import { specFileOf } from './document-analysis.js';
import type { WorkedPairParams, WorkedPairResult } from './protocol.js';
import type { Session } from './session.js';
import { computeWorkedPair, editedRow, isRecord } from './worked-pair.js';
import { editedText, rowText } from './worked-pair-text.js';

// `herald/workedPair`: the pair rebuilt from the spec as the editor holds it, the row read from its
// pool file with its ids resolved against the audit's corpus (kept in `corpora` between requests;
// reloaded when it changes), as the audit read it.

interface PoolRow {
  readonly raw: Record<string, unknown>;
  readonly row: Trajectory;
  readonly line: number;
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
      if (parsed.ok && parsed.value.id === id && isRecord(raw)) return { raw, row: parsed.value, line };
    }
  } catch (error) {
    return describeFileError(file, error);
  }
  return undefined;
}

export async function workedPairAnswer(session: Session, corpora: InputCache, params: WorkedPairParams): Promise<WorkedPairResult> {
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
  const poolFile = files.named(params.pool).file;
  const found = await readRow(poolFile, params.pool, params.trajectory, session.trust);
  if (typeof found === 'string') return unavailable(found);
  if (found === undefined) return unavailable(`no valid row of ${specRelative(path.dirname(specFile), poolFile)} has the id ${params.trajectory}`);
  const corpus = await corpora.corpus(files.named(plan.corpus).file, session.trust);
  if (corpus.fileError !== undefined) return unavailable(corpus.fileError);
  // The ids the row does not log (result objects, citation markers) resolve as the audit resolved them.
  const resolved = resolveRows([found.row], corpus.corpus);
  const row = resolved.rows[0];
  if (row === undefined) return unavailable(`the audits skip line ${found.line}: ${resolved.skipped[0]?.reason ?? 'its ids do not resolve against the corpus'}`);

  const computed = computeWorkedPair(model, plan, corpus.corpus, row, params);
  if (!computed.ok) return unavailable(computed.reason);
  const { pair } = computed;
  const heading = {
    audit: params.audit, attack: params.attack, trajectory: params.trajectory, pool: params.pool,
    file: specRelative(path.dirname(specFile), poolFile), line: found.line, edit: pair.description,
  };
  return {
    kind: 'pair', trajectory: params.trajectory, file: poolFile, line: found.line, edit: pair.description,
    original: rowText(found.raw), edited: editedText(heading, pair.rewards, pair.detectors, editedRow(found.raw, pair)),
    rewards: pair.rewards, detectors: pair.detectors,
  };
}
