import * as path from 'node:path';
import { fieldsReadBy, withLoggedFields } from '../edits/logged-field-rows.js';
import { AuditError } from '../edits/audit-error.js';
import { createCandidateSource, type CommandAnswers } from '../candidates/candidate-source.js';
import { candidateLinks } from '../edits/attack-plan.js';
import { assemblePrepared, compileSetup, prepareEdits, rangePreparer, setupRows, type CandidateSource, type PreparedEdits, type RunOptions } from '../edits/prepare.js';
import { corpusEnv } from '../language/eval-env.js';
import { bm25IndexOf, type Bm25Index } from '../candidates/bm25.js';
import type { StoredBm25Bytes } from '../threads/parallel-prepare.js';
import { mergedParts, partProblem, shardRanges, type PartialFile, type Shard, type ShardAudit } from './shards.js';
import type { EditPlan } from '../edits/attack-plan.js';
import { defaultWorkers, minRowsPerWorker, partFromWire, partOnWire, prepareInParallel, threadsFor } from '../threads/parallel-prepare.js';
import { probeFileUnder } from '../inputs/file-probe.js';
import { namedFiles } from '../inputs/term-cache.js';
import { InputCache } from '../inputs/input-cache.js';
import { IssueLog, loadInputs, type FileOwner, type InputLoad } from '../inputs/load-inputs.js';
import type { PersistentStore, RankedGenerator } from '../inputs/ranking-cache.js';
import { cacheWarning, defaultCacheDir, lazyCacheFolder } from '../inputs/cache-folder.js';
import { specFiles, type SpecFiles } from '../inputs/spec-inputs.js';
import { WorkspaceTrust } from '../inputs/trust.js';
import { LineIndex } from '../problems/line-index.js';
import type { Problem } from '../problems/problem.js';
import type { RowIssue } from '../pool/types.js';
import { newReport, type AuditReport, type Report } from '../report/schema.js';
import { checkSpec, type CheckedSpec } from '../semantics/analyze.js';
import type { SpecModel } from '../semantics/check.js';
import type { AuditDecl } from '../syntax/ast.js';
import { auditEditPlan, planAudit, type AuditPlan } from './plan.js';
import { commandTermSpecs, commandTermsRefused, runCommandTerms } from '../edits/command-terms.js';
import { CommandError, commandsOf, runCommandGenerators } from './command-candidates.js';
import { featureHash, nothingRun, placedReport, preparationKey, PreparedAudits, reportKey, type KeptAudit } from './prepared-audits.js';
import { patchFeatures } from '../edits/patch-features.js';
import type { SpecHashes } from '../semantics/decl-hashes.js';
import { scoreAudit } from './run-audit.js';

export interface AuditOutcome {
  /** The spec's problems; an error among them means no audit ran. */
  readonly problems: readonly Problem[];
  /** Rows skipped in pools, the corpus and candidate files, and files that could not be read. */
  readonly dataIssues: readonly RowIssue[];
  /** The declaration each file was read for (`IssueLog.owners`): where its skipped rows are reported. */
  readonly dataOwners: ReadonlyMap<string, FileOwner>;
  /** Undefined when the spec has errors, data could not be read, or the run was cancelled. */
  readonly report: Report | undefined;
  /** The checked spec the audit ran on. */
  readonly model: SpecModel;
  /** Audits that could not produce honest figures (a term or margin that is not finite): no report. */
  readonly failures: readonly AuditFailure[];
  /** With `shards: { write }`: each audit's share of the shard, when every audit prepared it. */
  readonly shards?: readonly ShardAudit[];
}

export interface AuditFailure {
  readonly audit: string;
  readonly reason: string;
  /** The command generator the failure is about (shown on it), when it is one. */
  readonly command?: string;
}

/** A program named by a spec runs only with consent (a trusted workspace; `--allow-commands`): else the audit stops on it. */
function commandWithoutConsent(model: SpecModel, plan: AuditPlan, trust: WorkspaceTrust): AuditFailure | undefined {
  const consent = trust.commands;
  if (consent.allowed) return undefined;
  const command = commandsOf(plan.attacks)[0];
  if (command !== undefined) {
    return { audit: plan.name, command, reason: `candidates command ${JSON.stringify(command)} was not run: a spec's programs run only with consent; ${consent.howToAllow}` };
  }
  const refused = commandTermsRefused(model, auditEditPlan(plan), consent);
  return refused === undefined ? undefined : { audit: plan.name, ...refused };
}

/** What an audit keeps between runs: loaded files and prepared audits. The editor's worker keeps one. */
export interface AuditCaches {
  readonly inputs: InputCache;
  readonly prepared: PreparedAudits;
}

export function newAuditCaches(): AuditCaches {
  return { inputs: new InputCache(), prepared: new PreparedAudits() };
}

export interface AuditSpecOptions extends RunOptions {
  /** Run only the audit of this name. */
  readonly only?: string | undefined;
  /** Data and prepared audits kept from earlier runs (the editor keeps them); fresh ones otherwise. */
  readonly cache?: AuditCaches | undefined;
  /**
   * Where candidate rankings are kept between runs (see inputs/ranking-cache.ts); false keeps none.
   * Default: `defaultCacheDir()`, never the workspace; none at all in an untrusted workspace.
   */
  readonly candidateCache?: string | false | undefined;
  /** The rule the linked files are checked and opened under; default: everything (the CLI). */
  readonly trust?: WorkspaceTrust | undefined;
  /**
   * Threads that prepare an audit (evaluate features, rank candidates, build edits); default: the
   * machine's (`os.availableParallelism()`). An audit gets one thread per `minRowsPerWorker` rows
   * at most, and below two of them runs on the calling thread; the report is the same either way.
   */
  readonly workers?: number | undefined;
  /** Rows per worker at least; default `minRowsPerWorker` (tests lower it to run small pools in parallel). */
  readonly minRowsPerWorker?: number | undefined;
  /**
   * Shards (audit/shards.ts): `write` prepares only that shard's rows, on this thread, and hands
   * back their parts (`AuditOutcome.shards`) with no report; `merge` takes every shard's parts in
   * place of preparing and reports what one run over every row would.
   */
  readonly shards?: { readonly write: Shard } | { readonly merge: readonly PartialFile[] } | undefined;
}

interface AuditContext {
  /** The ranking cache's folder, made on first use; false when there is none or it cannot be written. */
  readonly candidateCache: () => string | false;
  readonly trust: WorkspaceTrust;
  readonly model: SpecModel;
  readonly text: string;
  readonly specFile: string;
  readonly specDir: string;
  readonly files: SpecFiles;
  readonly caches: AuditCaches;
  readonly lines: LineIndex;
  readonly issues: IssueLog;
  readonly hashes: SpecHashes;
  readonly workers: number;
  readonly minRowsPerWorker: number;
  readonly shards: AuditSpecOptions['shards'];
  /** What a shard's audits prepared (`shards: { write }`), in audit order. */
  readonly written: ShardAudit[];
}

async function auditOne(ctx: AuditContext, plan: AuditPlan, options: RunOptions): Promise<AuditReport | undefined | 'unreadable' | 'shard'> {
  const { model, specDir, caches } = ctx;
  const progress = options.onProgress ?? (() => undefined);
  const { named, linked } = ctx.files;
  const candidates = candidateLinks(plan.attacks).map(linked);
  const load = await loadInputs(specDir, { corpus: named(plan.corpus), pools: plan.pools.map(named), candidates }, {
    cache: caches.inputs, trust: ctx.trust, issues: ctx.issues, onProgress: (m) => progress(`audit ${plan.name}: ${m}`),
  });
  if (!load.ok) return 'unreadable';
  // A program's answers are part of what is prepared: editing a file its command names prepares again (inputs/term-cache.ts).
  const editPlan = auditEditPlan(plan);
  if (ctx.shards !== undefined) return shardedAudit(ctx, plan, load, editPlan, options);
  const programs = commandTermSpecs(model, editPlan).map((term) => namedFiles(term.command, specDir));
  const fields = fieldsReadBy(model, editPlan).flatMap((f) => (f.name === undefined ? [] : [f.name.text]));
  const { key: preparation, shape } = preparationKey(plan, ctx.hashes, fields, `${caches.inputs.stamps(load.files)}\u0000${programs.join('\u0000')}`);
  const scoring = reportKey(plan, ctx.hashes, preparation);
  // The same preparation, kept; else the latest of the same shape, whose detectors a patch evaluates again.
  const kept = caches.prepared.get(plan.name, preparation) ?? caches.prepared.ofShape(plan.name, shape);
  const reused = kept === undefined ? undefined : reusedEdits(ctx, editPlan, kept, await keptEditsSource(ctx, plan, load, progress), { ...options, onProgress: (m) => progress(`audit ${plan.name}: ${m}`) });
  if (kept !== undefined && reused !== undefined) {
    // The rows a logged field the audit reads leaves out are said again, as the preparation said them.
    withLoggedFields(model, load.inputs, ctx.issues, editPlan);
    if (kept.report?.key === scoring) {
      progress(`audit ${plan.name}: nothing it reads changed`);
      return placedReport(kept.report.report, plan, ctx.lines);
    }
    progress(`audit ${plan.name}: ${reusedWords[reused.reuse]}, re-scoring`);
    caches.inputs.flushRankings();
    // Re-scored from the kept preparation: no program ran in this run.
    const rescored = reused.edits.commandTerms === undefined ? reused.edits : { ...reused.edits, commandTerms: nothingRun(reused.edits.commandTerms) };
    const report = scoreAudit(model, plan, rescored, ctx.lines, options);
    if (report !== undefined) caches.prepared.keep(plan.name, { preparation, shape, features: reused.features, edits: reused.edits, report: { key: scoring, report } });
    return report;
  }
  const corpusFile = named(plan.corpus).file;
  const cacheDir = ctx.candidateCache();
  const commands = await runCommandGenerators(plan.attacks, load.inputs.pools.flatMap((p) => p.rows), {
    cwd: specDir, timeoutSeconds: plan.commandTimeout, cacheDir, isCancelled: options.isCancelled, onProgress: (m) => progress(`audit ${plan.name}: ${m}`),
    corpusHash: commandsOf(plan.attacks).length === 0 ? undefined : await caches.inputs.contentHash(corpusFile, ctx.trust),
  });
  if (commands.kind === 'cancelled') return undefined;
  if (commands.kind === 'failed') throw new CommandError(commands.error, commands.command);
  const prepared = await prepareAudit(ctx, plan, load, await auditCandidates(ctx, plan, load, progress, commands.answers), commands.answers, options);
  // Rankings computed before a cancellation are as valid as any: keep them too.
  caches.inputs.flushRankings();
  if (prepared === undefined) return undefined;
  const report = scoreAudit(model, plan, prepared, ctx.lines, options);
  caches.prepared.keep(plan.name, { preparation, shape, features: featureHashes(ctx, prepared), edits: prepared, ...(report === undefined ? {} : { report: { key: scoring, report } }) });
  return report;
}

/**
 * One audit of a shard run: `write` prepares the shard's row ranges and keeps their parts in
 * `ctx.written`; `merge` lays every shard's parts end to end and scores them, as one run joins its
 * threads' parts. Both key the parts by what preparing read, the data files by their contents (so
 * another machine's copy of the same bytes merges). Programs are not sharded: an audit that runs one
 * is refused.
 */
async function shardedAudit(ctx: AuditContext, plan: AuditPlan, load: Extract<InputLoad, { ok: true }>, editPlan: EditPlan, options: RunOptions): Promise<AuditReport | undefined | 'shard'> {
  if (commandsOf(plan.attacks).length > 0 || commandTermSpecs(ctx.model, editPlan).length > 0) {
    throw new AuditError('an audit whose candidates or terms are computed by a program cannot be sharded: run it whole');
  }
  const shards = ctx.shards!;
  const progress = options.onProgress ?? (() => undefined);
  const inputs = withLoggedFields(ctx.model, load.inputs, ctx.issues, editPlan);
  const rows = inputs.pools.flatMap((p) => p.rows);
  const fields = fieldsReadBy(ctx.model, editPlan).flatMap((f) => (f.name === undefined ? [] : [f.name.text]));
  const contents = await Promise.all(load.files.map((file) => ctx.caches.inputs.contentHash(file, ctx.trust)));
  const { key } = preparationKey(plan, ctx.hashes, fields, contents.map((hash) => hash ?? 'unreadable').join('\u0000'));
  const compiled = compileSetup(ctx.model, editPlan);
  const env = corpusEnv(inputs.corpus, undefined);
  // A merge builds no edit, so it ranks nothing and leaves the cache folder alone.
  const source = 'write' in shards ? (await auditCandidates(ctx, plan, load, progress)).source : createCandidateSource(load.inputs.corpus, load.candidateFiles);
  if ('write' in shards) {
    const ranges = shardRanges(rows.length, shards.write);
    progress(`audit ${plan.name}: building edits on shard ${shards.write.index}/${shards.write.count}, ${ranges.reduce((sum, r) => sum + r.to - r.from, 0)} of ${rows.length} trajectories`);
    const prepareRange = rangePreparer(compiled, env, source, options.isCancelled ?? (() => false));
    const parts: ShardAudit['parts'][number][] = [];
    for (const { from, to } of ranges) {
      const part = prepareRange(rows.slice(from, to));
      if (part === undefined) return undefined;
      parts.push({ from, to, part: partOnWire(part).wire });
    }
    ctx.caches.inputs.flushRankings();
    ctx.written.push({ name: plan.name, key, rows: rows.length, parts });
    return 'shard';
  }
  const merged = mergedParts(plan.name, key, rows.length, shards.merge);
  if (typeof merged === 'string') throw new AuditError(merged);
  const corpusIds = env.corpusOrder().ids;
  const parts = merged.map(({ from, to, part }) => {
    const problem = partProblem(part, to - from, compiled.table.keys.length, plan.attacks.length);
    if (problem !== undefined) throw new AuditError(`the shard with rows ${from}–${to - 1} of audit '${plan.name}' does not fit the spec: ${problem}`);
    return { from, part: partFromWire(part, corpusIds) };
  });
  progress(`audit ${plan.name}: merging ${parts.length} row ranges of ${shards.merge.length} shards`);
  const prepared = assemblePrepared(setupRows(compiled, rows, env), inputs, source, parts);
  // As a preparation that ran no program records its command terms.
  return scoreAudit(ctx.model, plan, { ...prepared, commandTerms: [] }, ctx.lines, options);
}

/** The candidate rankings kept on disk for the audit's corpus, when the cache folder may be used. */
async function rankingsFor(ctx: AuditContext, plan: AuditPlan, load: Extract<InputLoad, { ok: true }>, progress: (message: string) => void): Promise<((generator: RankedGenerator) => PersistentStore) | undefined> {
  const cacheDir = ctx.candidateCache();
  if (cacheDir === false) return undefined;
  return ctx.caches.inputs.rankings(cacheDir, ctx.files.named(plan.corpus).file, load.inputs.corpus, ctx.trust, (reason) => progress(`audit ${plan.name}: ${cacheWarning('entry', reason)}`));
}

/** The run's BM25 index, and its stored file's bytes for the worker threads. */
interface Bm25Supply {
  readonly index: () => Bm25Index;
  readonly stored: () => StoredBm25Bytes | undefined;
}

/**
 * The run's BM25 index of the audit's corpus, on first use: loaded from the cache folder
 * (inputs/index-cache.ts) or built and kept there; and the stored file's bytes, which worker threads
 * are sent to load their own from (threads/parallel-prepare.ts).
 */
async function bm25IndexFor(ctx: AuditContext, plan: AuditPlan, load: Extract<InputLoad, { ok: true }>, progress: (message: string) => void): Promise<Bm25Supply> {
  const cacheDir = ctx.candidateCache();
  const store = cacheDir === false ? undefined
    : await ctx.caches.inputs.corpusIndex(cacheDir, ctx.files.named(plan.corpus).file, ctx.trust, (reason) => progress(`audit ${plan.name}: ${cacheWarning('entry', reason)}`));
  let index: Bm25Index | undefined;
  return {
    index: () => (index ??= bm25IndexOf(load.inputs.corpus, store?.load(), (built) => store?.save(built))),
    stored: () => {
      const bytes = store?.bytes();
      return bytes === undefined ? undefined : { bytes, corpusHash: store!.corpusHash };
    },
  };
}

/**
 * The candidates that build a kept audit's edits again, when a new feature is one its edits can
 * change (edits/patch-features.ts): the corpus and candidate files it was prepared from, with the
 * rankings kept. None for an audit with a command generator: building its edits again must not run
 * the program, and its answers are the preparation's alone.
 */
async function keptEditsSource(ctx: AuditContext, plan: AuditPlan, load: Extract<InputLoad, { ok: true }>, progress: (message: string) => void): Promise<CandidateSource | undefined> {
  if (commandsOf(plan.attacks).length > 0) return undefined;
  return (await auditCandidates(ctx, plan, load, progress)).source;
}

/** An audit's candidates, and what its worker threads are sent of the cache folder. */
interface AuditCandidates {
  /** Over the corpus and candidate files, with the kept rankings and BM25 index and the command generators' answers. */
  readonly source: CandidateSource;
  readonly rankings: ((generator: RankedGenerator) => PersistentStore) | undefined;
  readonly storedBm25: () => StoredBm25Bytes | undefined;
}

/** The one place an audit's candidate source is made: preparing, patching a kept preparation and a shard (a merge, which ranks nothing, has a bare one). */
async function auditCandidates(ctx: AuditContext, plan: AuditPlan, load: Extract<InputLoad, { ok: true }>, progress: (message: string) => void, commands?: ReadonlyMap<string, CommandAnswers>): Promise<AuditCandidates> {
  const rankings = await rankingsFor(ctx, plan, load, progress);
  const bm25 = await bm25IndexFor(ctx, plan, load, progress);
  const source = createCandidateSource(load.inputs.corpus, load.candidateFiles, { ...(rankings === undefined ? {} : { store: rankings }), ...(commands === undefined ? {} : { commands }), bm25Index: bm25.index });
  return { source, rankings, storedBm25: bm25.stored };
}

/** The content hash of each feature of a prepared table. */
function featureHashes(ctx: AuditContext, prepared: PreparedEdits): Map<string, string> {
  return new Map(prepared.table.keys.map((key) => [key, featureHash(ctx.hashes, key)]));
}

/**
 * The kept edits for the current spec when only features that are not detectors differ (a reward
 * term): patched in place of a preparation (edits/patch-features.ts), building the kept edits again
 * from `candidates` where a new feature is one an edit can change. Undefined when the features
 * differ in a way only a preparation can follow.
 */
function reusedEdits(ctx: AuditContext, editPlan: EditPlan, kept: KeptAudit, candidates: CandidateSource | undefined, options: RunOptions): { edits: PreparedEdits; features: Map<string, string>; reuse: Reuse } | undefined {
  const unchanged = (key: string): boolean => kept.features.get(key) === featureHash(ctx.hashes, key);
  const compiled = compileSetup(ctx.model, editPlan);
  const current = compiled.table.keys;
  const same = current.length === kept.edits.table.keys.length && current.every((key, k) => key === kept.edits.table.keys[k] && unchanged(key));
  // Patching builds edits again for a changed term or detector (seconds on a training-sized pool): say so first.
  if (!same) options.onProgress?.('changed terms or detectors: patching the kept preparation');
  const edits = same ? kept.edits : patchFeatures(kept.edits, compiled, unchanged, candidates, options.isCancelled);
  if (edits === undefined) return undefined;
  // Every edit was built again when a detector is new; the kept ones when an attack can change a feature that is.
  const reuse: Reuse = same ? 'kept' : compiled.detectorNames.some((name) => !unchanged(`decl:${name}`)) ? 'every edit'
    : edits.runs.some((run) => run.changes.columns.some((k) => !unchanged(edits.table.keys[k]!))) ? 'kept edits' : 'originals';
  return { edits, features: same ? new Map(kept.features) : featureHashes(ctx, edits), reuse };
}

/** How much of a kept preparation a run used again, from the most to the least. */
type Reuse = 'kept' | 'originals' | 'kept edits' | 'every edit';

const reusedWords: Record<Reuse, string> = {
  kept: 'data and edits unchanged',
  originals: 'data and edits unchanged, new features on the originals',
  'kept edits': 'data and edits unchanged, new features on the originals and the kept edits',
  'every edit': 'detectors changed, every edit built again and only what changed evaluated',
};

/**
 * The audit's edits, prepared on the threads its rows call for. The candidate source, with any
 * corpus index it built (93 MB for a 100,000-passage corpus), is this function's alone, so it can be
 * collected while the audit is scored and kept.
 */
async function prepareAudit(ctx: AuditContext, plan: AuditPlan, load: Extract<InputLoad, { ok: true }>, candidates: AuditCandidates, commands: ReadonlyMap<string, CommandAnswers>, options: RunOptions): Promise<PreparedEdits | undefined> {
  const { source, rankings, storedBm25 } = candidates;
  const editPlan = auditEditPlan(plan);
  const inputs = withLoggedFields(ctx.model, load.inputs, ctx.issues, editPlan);
  const progress = options.onProgress ?? (() => undefined);
  const terms = await runCommandTerms(ctx.model, editPlan, inputs, source, {
    cwd: ctx.specDir, timeoutSeconds: plan.commandTimeout, cacheDir: ctx.candidateCache(), isCancelled: options.isCancelled, onProgress: (m) => progress(`audit ${plan.name}: ${m}`),
  }, options);
  if (terms.kind === 'cancelled') return undefined;
  if (terms.kind === 'failed') throw new CommandError(terms.error, terms.command);
  const withTerms: RunOptions = terms.terms === undefined ? options : { ...options, commandTerms: terms.terms };
  const workers = threadsFor(inputs.pools.reduce((sum, p) => sum + p.rows.length, 0), ctx.workers, ctx.minRowsPerWorker);
  const prepared = workers < 2
    ? prepareEdits(ctx.model, editPlan, inputs, source, withTerms)
    : await prepareInParallel(ctx.model, editPlan, inputs, source, {
      ...withTerms, workers, candidateFiles: load.candidateFiles, commands, minRows: ctx.minRowsPerWorker, rankings, storedBm25Index: storedBm25,
    });
  return prepared === undefined ? undefined : { ...prepared, commandTerms: terms.records };
}

/** Checks a spec's text and runs its audits (`auditChecked`). */
export async function auditSpec(text: string, specFile: string, options: AuditSpecOptions = {}): Promise<AuditOutcome> {
  return auditChecked(checkSpec(text, specFile, { probeFile: probeFileUnder(options.trust ?? WorkspaceTrust.everything) }), options);
}

/**
 * Runs a checked spec's audits: what `herald audit` and the editor's audit share. Bad rows are
 * skipped and reported; the spec and the data files are only ever read.
 */
export async function auditChecked(spec: CheckedSpec, options: AuditSpecOptions = {}): Promise<AuditOutcome> {
  const { text, specFile, model, problems, hashes } = spec;
  const specDir = path.dirname(specFile);
  const trust = options.trust ?? WorkspaceTrust.everything;
  if (problems.some((p) => p.severity === 'error')) return { problems, dataIssues: [], dataOwners: new Map(), report: undefined, model, failures: [] };
  const decls = model.spec.decls.filter((d): d is AuditDecl => d.kind === 'audit' && (options.only === undefined || d.name?.text === options.only));
  const issues = new IssueLog();
  const ctx: AuditContext = {
    model, text, specDir, files: specFiles(model.spec, specFile), caches: options.cache ?? newAuditCaches(), lines: new LineIndex(text), issues, hashes,
    workers: Math.max(1, Math.floor(options.workers ?? defaultWorkers())), minRowsPerWorker: Math.max(1, options.minRowsPerWorker ?? minRowsPerWorker), shards: options.shards, written: [],
    specFile, trust, candidateCache: lazyCacheFolder(trust.trusted ? options.candidateCache ?? defaultCacheDir() : false, options.onProgress),
  };
  const audits: AuditReport[] = [];
  for (const decl of decls) {
    const plan = planAudit(decl, text);
    if (plan === undefined) continue;
    const refused = commandWithoutConsent(model, plan, trust);
    if (refused !== undefined) return { problems, dataIssues: issues.issues, dataOwners: issues.owners, report: undefined, model, failures: [refused] };
    let report: Awaited<ReturnType<typeof auditOne>>;
    try {
      report = await auditOne(ctx, plan, options);
    } catch (error) {
      if (!(error instanceof AuditError)) throw error;
      const command = error instanceof CommandError ? { command: error.command } : {};
      return { problems, dataIssues: issues.issues, dataOwners: issues.owners, report: undefined, model, failures: [{ audit: plan.name, reason: error.message, ...command }] };
    }
    if (report === 'unreadable' || report === undefined) return { problems, dataIssues: issues.issues, dataOwners: issues.owners, report: undefined, model, failures: [] };
    if (report !== 'shard') audits.push(report);
  }
  if (ctx.shards !== undefined && 'write' in ctx.shards) return { problems, dataIssues: issues.issues, dataOwners: issues.owners, report: undefined, model, failures: [], shards: ctx.written };
  return { problems, dataIssues: issues.issues, dataOwners: issues.owners, report: newReport(path.basename(specFile), { audits }), model, failures: [] };
}
