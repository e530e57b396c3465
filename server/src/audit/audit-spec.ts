import * as path from 'node:path';
import { loadCandidates, loadCorpus, loadPool, type LoadedCorpus } from '../pool/loaders.js';
import type { CandidateList, Loaded, RowIssue, Trajectory } from '../pool/types.js';
import type { AuditReport, Report } from '../report/schema.js';
import { analyze } from '../semantics/analyze.js';
import { probeFile } from '../semantics/file-probe.js';
import type { SpecModel } from '../semantics/check.js';
import type { AuditDecl } from '../syntax/ast.js';
import { LineIndex } from '../syntax/line-index.js';
import type { Problem } from '../syntax/problem.js';
import { heraldVersion } from '../version.js';
import { createCandidateSource } from './candidate-source.js';
import { planAudit, type AuditPlan } from './plan.js';
import { runAudit, type RunOptions } from './run-audit.js';

export interface AuditOutcome {
  /** The spec's problems; an error among them means no audit ran. */
  readonly problems: readonly Problem[];
  /** Rows skipped in pools, the corpus and candidate files, and files that could not be read. */
  readonly dataIssues: readonly RowIssue[];
  /** Undefined when the spec has errors, data could not be read, or the run was cancelled. */
  readonly report: Report | undefined;
}

export interface AuditSpecOptions extends RunOptions {
  /** Run only the audit of this name. */
  readonly only?: string | undefined;
}

/** Row issues of every file loaded, each file's listed once however many audits read it. */
class IssueLog {
  private readonly seen = new Set<Loaded<unknown>>();
  readonly issues: RowIssue[] = [];

  add(loaded: Loaded<unknown>): void {
    if (this.seen.has(loaded)) return;
    this.seen.add(loaded);
    this.issues.push(...loaded.issues);
    if (loaded.fileError !== undefined) this.issues.push({ file: '', line: 0, reason: loaded.fileError });
  }
}

/** Loads each linked file once per run, however many audits name it. */
class DataCache {
  private readonly corpora = new Map<string, Promise<LoadedCorpus>>();
  private readonly pools = new Map<string, Promise<Loaded<Trajectory>>>();
  private readonly candidates = new Map<string, Promise<Loaded<CandidateList>>>();

  corpus(file: string): Promise<LoadedCorpus> {
    return this.memo(this.corpora, file, () => loadCorpus(file));
  }

  pool(file: string, name: string): Promise<Loaded<Trajectory>> {
    return this.memo(this.pools, `${name}\u0000${file}`, () => loadPool(file, name));
  }

  candidateFile(file: string): Promise<Loaded<CandidateList>> {
    return this.memo(this.candidates, file, () => loadCandidates(file));
  }

  private memo<T>(cache: Map<string, Promise<T>>, key: string, load: () => Promise<T>): Promise<T> {
    let loaded = cache.get(key);
    if (loaded === undefined) cache.set(key, (loaded = load()));
    return loaded;
  }
}

function linkedPath(model: SpecModel, specDir: string, name: string): string {
  const decl = model.globals.get(name)?.decl;
  const link = decl?.kind === 'corpus' || decl?.kind === 'pool' ? decl.path?.value : undefined;
  return path.resolve(specDir, link ?? '');
}

async function auditOne(model: SpecModel, plan: AuditPlan, specDir: string, data: DataCache, lines: LineIndex, issues: IssueLog, options: RunOptions): Promise<AuditReport | undefined | 'unreadable'> {
  const progress = options.onProgress ?? (() => undefined);
  const corpusFile = linkedPath(model, specDir, plan.corpus);
  progress(`audit ${plan.name}: loading corpus ${path.relative(specDir, corpusFile)}`);
  const corpus = await data.corpus(corpusFile);
  const pools = await Promise.all(plan.pools.map(async (name) => {
    const file = linkedPath(model, specDir, name);
    progress(`audit ${plan.name}: loading pool ${name}`);
    return { name, file, loaded: await data.pool(file, name) };
  }));
  const candidateFiles = new Map<string, Loaded<CandidateList>>();
  for (const attack of plan.attacks) {
    for (const generator of attack.generators) {
      if (generator.kind !== 'file') continue;
      const file = path.resolve(specDir, generator.path);
      candidateFiles.set(generator.path, await data.candidateFile(file));
    }
  }
  const loads: Loaded<unknown>[] = [corpus, ...pools.map((p) => p.loaded), ...candidateFiles.values()];
  for (const l of loads) issues.add(l);
  if (loads.some((l) => l.fileError !== undefined)) return 'unreadable';
  const candidates = createCandidateSource(corpus.corpus, candidateFiles);
  // Reports name files as the spec links them, so they read the same on every machine.
  const relative = (file: string): string => path.relative(specDir, file).split(path.sep).join('/');
  const relativeIssues = (issues: readonly RowIssue[]): RowIssue[] => issues.map((i) => ({ ...i, file: relative(i.file) }));
  return runAudit(model, plan, {
    corpusName: plan.corpus,
    corpus: { ...corpus.corpus, file: relative(corpus.corpus.file) },
    corpusIssues: relativeIssues(corpus.issues),
    pools: pools.map((p) => ({ name: p.name, file: relative(p.file), rows: p.loaded.items, issues: relativeIssues(p.loaded.issues) })),
  }, candidates, lines, options);
}

/**
 * Checks a spec and runs its audits: what `herald audit` and the editor's audit share. Bad rows are
 * skipped and reported; the spec and the data files are only ever read.
 */
export async function auditSpec(text: string, specFile: string, options: AuditSpecOptions = {}): Promise<AuditOutcome> {
  const specDir = path.dirname(specFile);
  const { model, problems } = analyze(text, { specDir, probeFile });
  if (problems.some((p) => p.severity === 'error')) return { problems, dataIssues: [], report: undefined };
  const decls = model.spec.decls.filter((d): d is AuditDecl => d.kind === 'audit' && (options.only === undefined || d.name?.text === options.only));
  const lines = new LineIndex(text);
  const data = new DataCache();
  const issues = new IssueLog();
  const audits: AuditReport[] = [];
  for (const decl of decls) {
    const plan = planAudit(decl, text);
    if (plan === undefined) continue;
    const report = await auditOne(model, plan, specDir, data, lines, issues, options);
    if (report === 'unreadable' || report === undefined) return { problems, dataIssues: issues.issues, report: undefined };
    audits.push(report);
  }
  return { problems, dataIssues: issues.issues, report: { version: 1, tool: { name: 'herald', version: heraldVersion }, spec: path.basename(specFile), audits } };
}
