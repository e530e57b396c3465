import * as path from 'node:path';
import type { CandidateList, Loaded, RowIssue } from '../pool/types.js';
import { newReport, type AuditReport, type Report } from '../report/schema.js';
import { analyze } from '../semantics/analyze.js';
import { probeFile } from '../inputs/file-probe.js';
import type { SpecModel } from '../semantics/check.js';
import type { AuditDecl } from '../syntax/ast.js';
import type { Span } from '../problems/span.js';
import { LineIndex } from '../problems/line-index.js';
import type { Problem } from '../problems/problem.js';
import { AuditError } from '../edits/audit-error.js';
import { AuditCache, structuralFingerprint } from '../inputs/input-cache.js';
import { defaultCacheDir } from '../inputs/ranking-cache.js';
import { createCandidateSource } from '../edits/candidate-source.js';
import { auditEditPlan, planAudit, type AuditPlan } from './plan.js';
import { scoreAudit } from './run-audit.js';
import { prepareEdits } from '../edits/prepare.js';
import type { RunOptions } from '../edits/prepare.js';

export interface AuditOutcome {
  /** The spec's problems; an error among them means no audit ran. */
  readonly problems: readonly Problem[];
  /** Rows skipped in pools, the corpus and candidate files, and files that could not be read. */
  readonly dataIssues: readonly RowIssue[];
  /** Undefined when the spec has errors, data could not be read, or the run was cancelled. */
  readonly report: Report | undefined;
  /** The checked spec the audit ran on. */
  readonly model: SpecModel;
  /** Audits that could not produce honest figures (a term or margin that is not finite): no report. */
  readonly failures: readonly AuditFailure[];
}

export interface AuditFailure {
  readonly audit: string;
  readonly reason: string;
}

export interface AuditSpecOptions extends RunOptions {
  /** Run only the audit of this name. */
  readonly only?: string | undefined;
  /** Data and prepared audits kept from earlier runs (the editor keeps one); a fresh one otherwise. */
  readonly cache?: AuditCache | undefined;
  /**
   * Where candidate rankings are kept between runs (see candidate-cache.ts); false keeps none.
   * Default: `defaultCacheDir()`, never the workspace.
   */
  readonly candidateCache?: string | false | undefined;
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

function linkedPath(model: SpecModel, specDir: string, name: string): string {
  const decl = model.globals.get(name)?.decl;
  const link = decl?.kind === 'corpus' || decl?.kind === 'pool' ? decl.path?.value : undefined;
  return path.resolve(specDir, link ?? '');
}

interface AuditContext {
  readonly candidateCache: string | false;
  readonly model: SpecModel;
  readonly text: string;
  readonly specDir: string;
  readonly data: AuditCache;
  readonly lines: LineIndex;
  readonly issues: IssueLog;
  readonly weightSpans: readonly Span[];
}

async function auditOne(ctx: AuditContext, decl: AuditDecl, plan: AuditPlan, options: RunOptions): Promise<AuditReport | undefined | 'unreadable'> {
  const { model, specDir, data, issues } = ctx;
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
  const dataFiles = [corpusFile, ...pools.map((p) => p.file)];
  for (const attack of plan.attacks) {
    for (const generator of attack.generators) {
      if (generator.kind !== 'file') continue;
      const file = path.resolve(specDir, generator.path);
      dataFiles.push(file);
      candidateFiles.set(generator.path, await data.candidateFile(file));
    }
  }
  const loads: Loaded<unknown>[] = [corpus, ...pools.map((p) => p.loaded), ...candidateFiles.values()];
  for (const l of loads) issues.add(l);
  if (loads.some((l) => l.fileError !== undefined)) return 'unreadable';
  const key = `${plan.name}\u0000${structuralFingerprint(ctx.text, decl, ctx.weightSpans)}\u0000${data.stamps(dataFiles)}`;
  const known = data.preparedAudit(key);
  if (known !== undefined) {
    progress(`audit ${plan.name}: data and edits unchanged, re-scoring`);
    return scoreAudit(model, plan, known, ctx.lines, options);
  }
  const rankings = ctx.candidateCache === false ? undefined : await data.rankings(ctx.candidateCache, corpusFile, corpus.corpus);
  const candidates = createCandidateSource(corpus.corpus, candidateFiles, rankings === undefined ? {} : { store: rankings });
  // Reports name files as the spec links them, so they read the same on every machine.
  const relative = (file: string): string => path.relative(specDir, file).split(path.sep).join('/');
  const relativeIssues = (issues: readonly RowIssue[]): RowIssue[] => issues.map((i) => ({ ...i, file: relative(i.file) }));
  const prepared = prepareEdits(model, auditEditPlan(plan), {
    corpusName: plan.corpus,
    corpus: { ...corpus.corpus, file: relative(corpus.corpus.file) },
    corpusIssues: relativeIssues(corpus.issues),
    pools: pools.map((p) => ({ name: p.name, file: relative(p.file), rows: p.loaded.items, issues: relativeIssues(p.loaded.issues) })),
  }, candidates, options);
  // Rankings computed before a cancellation are as valid as any: keep them too.
  data.flushRankings();
  if (prepared === undefined) return undefined;
  data.keepPrepared(key, prepared);
  return scoreAudit(model, plan, prepared, ctx.lines, options);
}

/**
 * Checks a spec and runs its audits: what `herald audit` and the editor's audit share. Bad rows are
 * skipped and reported; the spec and the data files are only ever read.
 */
export async function auditSpec(text: string, specFile: string, options: AuditSpecOptions = {}): Promise<AuditOutcome> {
  const specDir = path.dirname(specFile);
  const { model, problems } = analyze(text, { specDir, probeFile });
  if (problems.some((p) => p.severity === 'error')) return { problems, dataIssues: [], report: undefined, model, failures: [] };
  const decls = model.spec.decls.filter((d): d is AuditDecl => d.kind === 'audit' && (options.only === undefined || d.name?.text === options.only));
  const issues = new IssueLog();
  const weightSpans = model.spec.decls.flatMap((d) => (d.kind === 'reward' ? d.terms.flatMap((t) => (t.weightSpan === undefined ? [] : [t.weightSpan])) : []));
  const ctx: AuditContext = {
    model, text, specDir, data: options.cache ?? new AuditCache(), lines: new LineIndex(text), issues, weightSpans,
    candidateCache: options.candidateCache ?? defaultCacheDir(),
  };
  const audits: AuditReport[] = [];
  for (const decl of decls) {
    const plan = planAudit(decl, text);
    if (plan === undefined) continue;
    let report: Awaited<ReturnType<typeof auditOne>>;
    try {
      report = await auditOne(ctx, decl, plan, options);
    } catch (error) {
      if (!(error instanceof AuditError)) throw error;
      return { problems, dataIssues: issues.issues, report: undefined, model, failures: [{ audit: plan.name, reason: error.message }] };
    }
    if (report === 'unreadable' || report === undefined) return { problems, dataIssues: issues.issues, report: undefined, model, failures: [] };
    audits.push(report);
  }
  return { problems, dataIssues: issues.issues, report: newReport(path.basename(specFile), { audits }), model, failures: [] };
}
