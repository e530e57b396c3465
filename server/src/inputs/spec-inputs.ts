import * as path from 'node:path';
import { loadCorpus, loadPool } from './loaders.js';
import type { RowIssue } from '../pool/types.js';
import type { LoadedPool } from './analysis-inputs.js';
import type { AnalysisInputs } from './analysis-inputs.js';
import type { SpecModel } from '../semantics/check.js';

/** A log to read: the pool name the spec gives it and the file (absolute). */
export interface LogSource {
  readonly name: string;
  readonly file: string;
}

export type LoadedInputs =
  | { readonly ok: true; readonly inputs: AnalysisInputs; readonly issues: readonly RowIssue[] }
  | { readonly ok: false; readonly issues: readonly RowIssue[] };

/** The file a spec links to a corpus or pool name, resolved against the spec's folder. */
export function linkedFile(model: SpecModel, specDir: string, name: string): string {
  const decl = model.globals.get(name)?.decl;
  const link = decl?.kind === 'corpus' || decl?.kind === 'pool' ? decl.path?.value : undefined;
  return path.resolve(specDir, link ?? '');
}

/** A log named on the command line: named after its file (`train-R_L.jsonl` → `train-R_L`). */
export function logFromFile(file: string): LogSource {
  return { name: path.basename(file).replace(/\.jsonl$/, ''), file: path.resolve(file) };
}

/**
 * Loads a corpus and logs with the pool loaders. Reports name files relative to the spec's folder,
 * as audits do; skipped rows are issues and the analysis goes on without them.
 */
export async function loadInputs(specDir: string, corpusName: string, corpusFile: string, logs: readonly LogSource[]): Promise<LoadedInputs> {
  const relative = (file: string): string => path.relative(specDir, file).split(path.sep).join('/');
  const corpus = await loadCorpus(corpusFile);
  const loaded = await Promise.all(logs.map(async (log) => ({ log, loaded: await loadPool(log.file, log.name) })));
  const issues: RowIssue[] = [];
  for (const l of [corpus, ...loaded.map((x) => x.loaded)]) {
    issues.push(...l.issues);
    if (l.fileError !== undefined) issues.push({ file: '', line: 0, reason: l.fileError });
  }
  if (corpus.fileError !== undefined || loaded.some((x) => x.loaded.fileError !== undefined)) return { ok: false, issues };
  const relativeIssues = (list: readonly RowIssue[]): RowIssue[] => list.map((i) => ({ ...i, file: relative(i.file) }));
  const pools: LoadedPool[] = loaded.map(({ log, loaded: l }) => ({ name: log.name, file: relative(log.file), rows: l.items, issues: relativeIssues(l.issues) }));
  return {
    ok: true,
    issues,
    inputs: { corpusName, corpus: { ...corpus.corpus, file: relative(corpus.corpus.file) }, corpusIssues: relativeIssues(corpus.issues), pools },
  };
}
