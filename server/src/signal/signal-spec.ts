import * as path from 'node:path';
import { withLoggedFields } from '../edits/logged-field-rows.js';
import { AuditError } from '../edits/audit-error.js';
import type { RowIssue } from '../pool/types.js';
import type { SignalReport } from '../report/training-schema.js';
import { checkSpec, type CheckedSpec } from '../semantics/analyze.js';
import type { SpecModel } from '../semantics/check.js';
import { probeFileUnder } from '../inputs/file-probe.js';
import type { TrainingDecl } from '../syntax/ast.js';
import { LineIndex } from '../problems/line-index.js';
import type { Problem } from '../problems/problem.js';
import { planTraining, trainingFieldReader, type TrainingPlan } from './plan.js';
import { runSignal, signalEditPlan } from './run-signal.js';
import { commandTermsRefused, runCommandTerms } from '../edits/command-terms.js';
import { noCandidates } from '../edits/prepare.js';
import { defaultCacheDir, lazyCacheFolder } from '../inputs/cache-folder.js';
import { defaultCommandTimeoutSeconds } from '../inputs/command-runner.js';
import { InputCache } from '../inputs/input-cache.js';
import { IssueLog, loadInputs, logFromFile } from '../inputs/load-inputs.js';
import { specFiles } from '../inputs/spec-inputs.js';
import { WorkspaceTrust } from '../inputs/trust.js';

export interface SignalOutcome {
  readonly problems: readonly Problem[];
  readonly dataIssues: readonly RowIssue[];
  /** Undefined when the spec has errors, a file could not be read, the request made no sense or a figure was not finite (see `runError`). */
  readonly reports: readonly SignalReport[] | undefined;
  readonly runError?: string;
  readonly model: SpecModel;
}

export interface SignalRequest {
  /** Run only the training block of this name. */
  readonly only?: string | undefined;
  /** Training logs given on the command line: they replace the block's `log`. */
  readonly logFiles?: readonly string[] | undefined;
  /** Without a training block: the reward (and corpus, when the spec declares several) to analyse. */
  readonly reward?: string | undefined;
  readonly corpus?: string | undefined;
  readonly normalization?: 'std' | 'mean' | undefined;
  readonly minGroups?: number | undefined;
  /** Loaded files kept from earlier runs (the editor's worker keeps one); a fresh one otherwise. */
  readonly cache?: InputCache | undefined;
  /** The rule the linked files are checked and opened under; default: everything (the CLI). */
  readonly trust?: WorkspaceTrust | undefined;
  /** Where command terms' answers are kept (inputs/term-cache.ts); false keeps none. Default: `defaultCacheDir()`, none in an untrusted workspace. */
  readonly cacheDir?: string | false | undefined;
  readonly onProgress?: ((message: string) => void) | undefined;
  readonly isCancelled?: (() => boolean) | undefined;
}

/** The plans to run: the spec's training blocks, or one described by the request. */
function plansOf(model: SpecModel, request: SignalRequest): TrainingPlan[] | string {
  const blocks = model.spec.decls.filter((d): d is TrainingDecl => d.kind === 'training' && (request.only === undefined || d.name?.text === request.only));
  if (request.only !== undefined && blocks.length === 0) return `the spec has no training block '${request.only}'`;
  const overrides = (plan: TrainingPlan): TrainingPlan => ({
    ...plan,
    normalization: request.normalization ?? plan.normalization,
    minGroups: request.minGroups ?? plan.minGroups,
  });
  if (blocks.length > 0 && request.reward === undefined) {
    if (request.logFiles !== undefined && request.logFiles.length > 0 && blocks.length > 1) return '--log replaces one block\'s log: name it with --training';
    return blocks.flatMap((b) => {
      const plan = planTraining(b);
      return plan === undefined ? [] : [overrides(plan)];
    });
  }
  if (request.reward === undefined) return 'the spec has no training block: name the reward with --reward';
  if (model.globals.get(request.reward)?.kind !== 'reward') return `'${request.reward}' is not a reward of the spec`;
  const corpora = [...model.globals.values()].filter((s) => s.kind === 'corpus').map((s) => s.name);
  const corpus = request.corpus ?? (corpora.length === 1 ? corpora[0] : undefined);
  if (corpus === undefined || !corpora.includes(corpus)) return `name the corpus with --corpus (${corpora.join(', ') || 'the spec declares none'})`;
  if (request.logFiles === undefined || request.logFiles.length === 0) return 'give the training log with --log';
  return [overrides({ name: `signal-${request.reward}`, span: undefined, reward: request.reward, corpus, logs: [], normalization: 'std', minGroups: 5 })];
}

/** Checks a spec's text and runs its training-signal audits (`signalChecked`). */
export async function signalSpec(text: string, specFile: string, request: SignalRequest = {}): Promise<SignalOutcome> {
  return signalChecked(checkSpec(text, specFile, { probeFile: probeFileUnder(request.trust ?? WorkspaceTrust.everything) }), request);
}

/** Runs a checked spec's training-signal audits: what `herald signal` and the editor share. */
export async function signalChecked(spec: CheckedSpec, request: SignalRequest = {}): Promise<SignalOutcome> {
  const { text, specFile, model, problems } = spec;
  const specDir = path.dirname(specFile);
  const trust = request.trust ?? WorkspaceTrust.everything;
  if (problems.some((p) => p.severity === 'error')) return { problems, dataIssues: [], reports: undefined, model };
  const plans = plansOf(model, request);
  if (typeof plans === 'string') return { problems, dataIssues: [], reports: undefined, runError: plans, model };
  const lines = new LineIndex(text);
  const { named } = specFiles(model.spec, specFile);
  const cache = request.cache ?? new InputCache();
  const issues = new IssueLog();
  const reports: SignalReport[] = [];
  const cacheDir = lazyCacheFolder(trust.trusted ? request.cacheDir ?? defaultCacheDir() : false, request.onProgress);
  for (const plan of plans) {
    const logs = request.logFiles !== undefined && request.logFiles.length > 0 ? request.logFiles.map(logFromFile) : plan.logs.map(named);
    const loaded = await loadInputs(specDir, { corpus: named(plan.corpus), pools: logs }, { cache, trust, issues });
    if (!loaded.ok) return { problems, dataIssues: issues.issues, reports: undefined, model };
    const inputs = withLoggedFields(model, loaded.inputs, issues, trainingFieldReader(plan));
    // A reward computed by the user's program runs over the logged rows first (edits/command-terms.ts).
    const refused = commandTermsRefused(model, signalEditPlan(plan), trust.commands);
    if (refused !== undefined) return { problems, dataIssues: issues.issues, reports: undefined, runError: `training block '${plan.name}' could not run: ${refused.reason}`, model };
    const terms = await runCommandTerms(model, signalEditPlan(plan), inputs, noCandidates, {
      cwd: specDir, timeoutSeconds: defaultCommandTimeoutSeconds, cacheDir: cacheDir(), isCancelled: request.isCancelled, onProgress: request.onProgress,
    }, { isCancelled: request.isCancelled });
    if (terms.kind === 'cancelled') return { problems, dataIssues: issues.issues, reports: undefined, model };
    if (terms.kind === 'failed') return { problems, dataIssues: issues.issues, reports: undefined, runError: `training block '${plan.name}' could not run: ${terms.error}`, model };
    try {
      reports.push(runSignal(model, { ...plan, logs: logs.map((l) => l.name) }, inputs, lines, terms.terms));
    } catch (error) {
      if (!(error instanceof AuditError)) throw error;
      return { problems, dataIssues: issues.issues, reports: undefined, runError: `training block '${plan.name}' could not run: ${error.message}`, model };
    }
  }
  return { problems, dataIssues: issues.issues, reports, model };
}
