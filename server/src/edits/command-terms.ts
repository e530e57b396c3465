// Fields and rewards computed by the user's program (docs/reward-commands.md), run before an
// analysis evaluates anything: a first pass over the analysis's plan records the request of every
// trajectory a command term would be evaluated on (originals, and each edit that writes a part the
// term reads, rendered back into its log's format), each program runs once over its requests that
// the cache does not hold, and the analysis's real pass reads the answers (`AnsweredTerms`).
import type { AnalysisInputs } from '../inputs/analysis-inputs.js';
import type { CommandConsent } from '../inputs/trust.js';
import { runCommand } from '../inputs/command-runner.js';
import { cachedTermValues, keepTermValues, namedFiles, type TermCacheKey, type TermValue } from '../inputs/term-cache.js';
import { cacheWarning } from '../inputs/cache-folder.js';
import type { Trajectory } from '../pool/types.js';
import type { SpecModel } from '../semantics/check.js';
import type { CommandDecl } from '../semantics/read-set.js';
import type { EditPlan } from './attack-plan.js';
import { prepareEdits, type CandidateSource, type RunOptions } from './prepare.js';
import { AnsweredTerms, CollectingTerms, parseTermAnswers, requestLine, type CommandTermSpec } from './term-requests.js';

/** A command term as the report records it: how many requests it had, and how many its program ran. */
export interface CommandTermRecord {
  readonly term: string;
  readonly command: string;
  /** Distinct trajectories (originals and edits) it was evaluated on. */
  readonly requests: number;
  /** Of them, answered by the program in this run (the rest by the cache). */
  readonly ran: number;
}

export interface CommandTermContext {
  /** The spec's folder: the programs run there. */
  readonly cwd: string;
  readonly timeoutSeconds: number;
  /** The cache folder, or false for none. */
  readonly cacheDir: string | false;
  readonly isCancelled?: (() => boolean) | undefined;
  readonly onProgress?: ((message: string) => void) | undefined;
}

export type CommandTermsOutcome =
  | { readonly kind: 'done'; readonly terms: AnsweredTerms | undefined; readonly records: readonly CommandTermRecord[] }
  | { readonly kind: 'failed'; readonly error: string; readonly command: string; readonly term: string }
  | { readonly kind: 'cancelled' };

/** The command declarations the plan evaluates: through its rewards, detectors, attack targets and values. */
function commandDeclsOf(model: SpecModel, plan: EditPlan): CommandDecl[] {
  const read = new Set<CommandDecl>();
  for (const name of [...plan.rewards, ...plan.detectors, ...plan.attacks.flatMap((a) => a.targets), ...(plan.values ?? [])]) {
    const decl = model.globals.get(name)?.decl;
    if (decl !== undefined) for (const c of model.readSets.commandsOfDecl(decl)) read.add(c);
  }
  return model.spec.decls.filter((d): d is CommandDecl => (d.kind === 'logged' || d.kind === 'reward') && read.has(d));
}

/** The plan's command terms, in declaration order. */
export function commandTermSpecs(model: SpecModel, plan: EditPlan): CommandTermSpec[] {
  return commandDeclsOf(model, plan).flatMap((decl): CommandTermSpec[] => {
    if (decl.name === undefined || decl.command === undefined) return [];
    const command = decl.command.program.value;
    if (decl.kind === 'reward') return [{ name: decl.name.text, command, type: 'number', oracle: true }];
    return [{ name: decl.name.text, command, type: decl.fieldType?.text === 'boolean' ? 'boolean' : 'number', oracle: decl.modifier?.text === 'oracle' }];
  });
}

/**
 * Why the plan's command terms may not run (a spec's programs run only with consent: a trusted
 * workspace, `--allow-commands`), naming the first; undefined when it reads none or may run them.
 */
export function commandTermsRefused(model: SpecModel, plan: EditPlan, consent: CommandConsent): { readonly reason: string; readonly command: string } | undefined {
  if (consent.allowed) return undefined;
  const term = commandTermSpecs(model, plan)[0];
  if (term === undefined) return undefined;
  return { command: term.command, reason: `'${term.name}' command ${JSON.stringify(term.command)} was not run: a spec's programs run only with consent; ${consent.howToAllow}` };
}

/** The cache key of a term's answers: its program, where it runs, and the files it names. */
function cacheKeyOf(spec: CommandTermSpec, cwd: string): TermCacheKey {
  return { command: spec.command, cwd, oracle: spec.oracle, files: namedFiles(spec.command, cwd) };
}

/**
 * The answers the cache holds for the plan's command terms, for what runs no program (a worked
 * pair in the editor: the audit that listed the pair ran the program and kept its answers).
 * Undefined when the plan reads no command term.
 */
export function cachedCommandTerms(model: SpecModel, plan: EditPlan, cwd: string, cacheDir: string | false): AnsweredTerms | undefined {
  const specs = commandTermSpecs(model, plan);
  if (specs.length === 0) return undefined;
  const answers = new Map(specs.map((spec) => [spec.name, cacheDir === false ? new Map<string, TermValue>() : cachedTermValues(cacheDir, cacheKeyOf(spec, cwd))]));
  return new AnsweredTerms(new Map(specs.map((s) => [s.name, s])), answers,
    'its program\'s answer for this trajectory is not in the cache: run the audit again (the editor keeps answers only in a trusted workspace)');
}

/** The pool row a request names, as `file:line`, for an error about it. */
function rowAt(rows: readonly Trajectory[], content: string): string {
  const id: unknown = (JSON.parse(content) as Record<string, unknown>)['trajectory_id'];
  const row = rows.find((r) => r.id === id);
  return `trajectory ${String(id)}${row === undefined ? '' : ` (${row.source.file}:${row.source.line})`}`;
}

/**
 * Runs (or finds in the cache) every command term the plan reads, over every trajectory the plan
 * evaluates it on. `candidates` and `options` are the ones the analysis prepares with, so the
 * collecting pass builds the same edits.
 */
export async function runCommandTerms(model: SpecModel, plan: EditPlan, inputs: AnalysisInputs, candidates: CandidateSource, ctx: CommandTermContext, options: RunOptions = {}): Promise<CommandTermsOutcome> {
  const specs = commandTermSpecs(model, plan);
  if (specs.length === 0) return { kind: 'done', terms: undefined, records: [] };
  const bySpec = new Map(specs.map((s) => [s.name, s]));
  const collector = new CollectingTerms(bySpec);
  ctx.onProgress?.(`collecting the trajectories ${specs.map((s) => `'${s.name}'`).join(', ')} ${specs.length === 1 ? 'is' : 'are'} evaluated on`);
  const collected = prepareEdits(model, plan, inputs, candidates, { ...options, commandTerms: collector });
  if (collected === undefined) return { kind: 'cancelled' };
  const rows = inputs.pools.flatMap((p) => p.rows);
  const answers = new Map<string, Map<string, TermValue>>();
  const records: CommandTermRecord[] = [];
  for (const spec of specs) {
    const requests = collector.requests.get(spec.name) ?? new Map<string, string>();
    const progress = (message: string): void => ctx.onProgress?.(`'${spec.name}' command ${JSON.stringify(spec.command)}: ${message}`);
    const key = cacheKeyOf(spec, ctx.cwd);
    const kept = ctx.cacheDir === false ? new Map<string, TermValue>() : cachedTermValues(ctx.cacheDir, key, (reason) => ctx.onProgress?.(cacheWarning('entry', reason)));
    const values = new Map<string, TermValue>();
    const missing: [string, string][] = [];
    for (const [requestKey, content] of requests) {
      const value = kept.get(requestKey);
      if (value === undefined) missing.push([requestKey, content]);
      else values.set(requestKey, value);
    }
    if (missing.length > 0) {
      progress(`running over ${missing.length} of ${requests.size} trajectories (${requests.size - missing.length} answered from the cache)`);
      const stdin = missing.map(([, content], i) => requestLine(i, content)).join('');
      const outcome = await runCommand({ command: spec.command, cwd: ctx.cwd, stdin, timeoutSeconds: ctx.timeoutSeconds, isCancelled: ctx.isCancelled, onProgress: progress, adapters: true });
      if (outcome.kind === 'cancelled') return outcome;
      const failed = (error: string): CommandTermsOutcome => ({ kind: 'failed', error: `'${spec.name}' command ${JSON.stringify(spec.command)}: ${error}`, command: spec.command, term: spec.name });
      if (outcome.kind === 'failed') return failed(outcome.error);
      const parsed = parseTermAnswers(outcome.stdout, missing.length, spec.type);
      if (!parsed.ok) {
        const about = parsed.request === undefined ? '' : ` (request ${parsed.request}: ${rowAt(rows, missing[parsed.request]![1])})`;
        return failed(`${parsed.error}${about}`);
      }
      parsed.values.forEach((value, i) => values.set(missing[i]![0], value));
      // Only answers that read as answers are kept; the old ones stay with them (another audit's).
      if (ctx.cacheDir !== false) keepTermValues(ctx.cacheDir, key, new Map([...kept, ...values]));
    } else {
      progress(`${requests.size} trajectories answered from the cache`);
    }
    answers.set(spec.name, values);
    records.push({ term: spec.name, command: spec.command, requests: requests.size, ran: missing.length });
  }
  return { kind: 'done', terms: new AnsweredTerms(bySpec, answers), records };
}
