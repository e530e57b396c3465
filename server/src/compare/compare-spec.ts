import * as path from 'node:path';
import { commandTermsRefused, runCommandTerms } from '../edits/command-terms.js';
import { defaultCacheDir, lazyCacheFolder } from '../inputs/cache-folder.js';
import { defaultCommandTimeoutSeconds } from '../inputs/command-runner.js';
import type { CommandTerms } from '../language/command-terms.js';
import { withLoggedFields } from '../edits/logged-field-rows.js';
import { candidateLinks } from '../edits/attack-plan.js';
import { AuditError } from '../edits/audit-error.js';
import { createCandidateSource } from '../candidates/candidate-source.js';
import type { RowIssue } from '../pool/types.js';
import type { ComparisonReport } from '../report/training-schema.js';
import { checkSpec, type CheckedSpec } from '../semantics/analyze.js';
import type { SpecModel } from '../semantics/check.js';
import { probeFileUnder } from '../inputs/file-probe.js';
import type { ComparisonDecl } from '../syntax/ast.js';
import { LineIndex } from '../problems/line-index.js';
import type { Problem } from '../problems/problem.js';
import { InputCache } from '../inputs/input-cache.js';
import { IssueLog, loadInputs, logFromFile, type NamedFile } from '../inputs/load-inputs.js';
import { specFiles } from '../inputs/spec-inputs.js';
import { WorkspaceTrust } from '../inputs/trust.js';
import { comparisonEditPlan, comparisonFieldReader, planComparison } from './plan.js';
import { runComparison } from './run-compare.js';

export interface CompareOutcome {
  readonly problems: readonly Problem[];
  readonly dataIssues: readonly RowIssue[];
  readonly reports: readonly ComparisonReport[] | undefined;
  readonly runError?: string;
  readonly model: SpecModel;
}

export interface CompareRequest {
  readonly only?: string | undefined;
  /** Evaluation logs given on the command line: they replace the block's `base` and `treatment`. */
  readonly baseFiles?: readonly string[] | undefined;
  readonly treatmentFiles?: readonly string[] | undefined;
  /** Loaded files kept from earlier runs (the editor's worker keeps one); a fresh one otherwise. */
  readonly cache?: InputCache | undefined;
  /** The rule the linked files are checked and opened under; default: everything (the CLI). */
  readonly trust?: WorkspaceTrust | undefined;
  /** Where command terms' answers are kept (inputs/term-cache.ts); false keeps none. Default: `defaultCacheDir()`, none in an untrusted workspace. */
  readonly cacheDir?: string | false | undefined;
  readonly onProgress?: ((message: string) => void) | undefined;
  readonly isCancelled?: (() => boolean) | undefined;
}

function blocksOf(model: SpecModel, request: CompareRequest): ComparisonDecl[] | string {
  const blocks = model.spec.decls.filter((d): d is ComparisonDecl => d.kind === 'comparison' && (request.only === undefined || d.name?.text === request.only));
  if (blocks.length === 0) return request.only === undefined ? 'the spec has no comparison block (it names the scorer, corpus, detectors and attacks)' : `the spec has no comparison block '${request.only}'`;
  const overridden = (request.baseFiles?.length ?? 0) > 0 || (request.treatmentFiles?.length ?? 0) > 0;
  if (overridden && blocks.length > 1) return '--base and --treatment replace one block\'s logs: name it with --comparison';
  return blocks;
}

/** Checks a spec's text and runs its paired policy comparisons (`compareChecked`). */
export async function compareSpec(text: string, specFile: string, request: CompareRequest = {}): Promise<CompareOutcome> {
  return compareChecked(checkSpec(text, specFile, { probeFile: probeFileUnder(request.trust ?? WorkspaceTrust.everything) }), request);
}

/** Runs a checked spec's paired policy comparisons: what `herald compare` and the editor share. */
export async function compareChecked(spec: CheckedSpec, request: CompareRequest = {}): Promise<CompareOutcome> {
  const { text, specFile, model, problems } = spec;
  const specDir = path.dirname(specFile);
  const trust = request.trust ?? WorkspaceTrust.everything;
  if (problems.some((p) => p.severity === 'error')) return { problems, dataIssues: [], reports: undefined, model };
  const blocks = blocksOf(model, request);
  if (typeof blocks === 'string') return { problems, dataIssues: [], reports: undefined, runError: blocks, model };
  const lines = new LineIndex(text);
  const { named, linked } = specFiles(model.spec, specFile);
  const cache = request.cache ?? new InputCache();
  const issues = new IssueLog();
  const reports: ComparisonReport[] = [];
  const cacheDir = lazyCacheFolder(trust.trusted ? request.cacheDir ?? defaultCacheDir() : false, request.onProgress);
  for (const block of blocks) {
    const plan = planComparison(block);
    if (plan === undefined) continue;
    const arm = (files: readonly string[] | undefined, names: readonly string[]): NamedFile[] => (files !== undefined && files.length > 0 ? files.map(logFromFile) : names.map(named));
    const candidates = candidateLinks(plan.attacks).map(linked);
    const base = await loadInputs(specDir, { corpus: named(plan.corpus), pools: arm(request.baseFiles, plan.base), candidates }, { cache, trust, issues });
    const treatment = await loadInputs(specDir, { corpus: named(plan.corpus), pools: arm(request.treatmentFiles, plan.treatment) }, { cache, trust, issues });
    if (!base.ok || !treatment.ok) return { problems, dataIssues: issues.issues, reports: undefined, model };
    const source = createCandidateSource(base.inputs.corpus, base.candidateFiles);
    const baseInputs = withLoggedFields(model, base.inputs, issues, comparisonFieldReader(plan));
    const treatmentInputs = withLoggedFields(model, treatment.inputs, issues, comparisonFieldReader(plan));
    // A reward computed by the user's program runs over each arm's rows and edits first (edits/command-terms.ts).
    const failed = (why: string): CompareOutcome => ({ problems, dataIssues: issues.issues, reports: undefined, runError: `comparison '${plan.name}' could not run: ${why}`, model });
    const refused = commandTermsRefused(model, comparisonEditPlan(plan), trust.commands);
    if (refused !== undefined) return failed(refused.reason);
    const terms: { base?: CommandTerms; treatment?: CommandTerms } = {};
    for (const [arm, inputs] of [['base', baseInputs], ['treatment', treatmentInputs]] as const) {
      const ran = await runCommandTerms(model, comparisonEditPlan(plan), inputs, source, {
        cwd: specDir, timeoutSeconds: defaultCommandTimeoutSeconds, cacheDir: cacheDir(), isCancelled: request.isCancelled, onProgress: (m) => request.onProgress?.(`${arm} arm: ${m}`),
      }, { isCancelled: request.isCancelled });
      if (ran.kind === 'cancelled') return { problems, dataIssues: issues.issues, reports: undefined, model };
      if (ran.kind === 'failed') return failed(`${arm} arm: ${ran.error}`);
      if (ran.terms !== undefined) terms[arm] = ran.terms;
    }
    try {
      const report = runComparison(model, plan, baseInputs, treatmentInputs, source, lines, terms);
      if (report !== undefined) reports.push(report);
    } catch (error) {
      if (!(error instanceof AuditError)) throw error;
      return { problems, dataIssues: issues.issues, reports: undefined, runError: `comparison '${plan.name}' could not run: ${error.message}`, model };
    }
  }
  return { problems, dataIssues: issues.issues, reports, model };
}
