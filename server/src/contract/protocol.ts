// Every custom message between the HERALD client and server, typed once: the server registers and
// sends these objects, and the client (client/src) imports this file and sends or listens to the
// same objects, so a method string or a params type is never written twice. Only the protocol's
// message types and the report's and a pool profile's types are imported (no vscode, no engine), so
// the client bundle stays small (the client reaches it through contract/index.ts).
import { NotificationType, RequestType } from 'vscode-languageserver-protocol';
import type { PoolProfile } from '../pool/profile.js';
import type { Report } from '../report/schema.js';

export interface DocumentParams {
  readonly uri: string;
}

export interface ReportResult {
  /** The spec's audits, with its training-signal audits and paired comparisons beside them. */
  readonly report: Report;
  /** The document version the analyses ran on. */
  readonly version: number;
  /** ISO time the analyses finished. */
  readonly finishedAt: string;
}

/** Client → server: the spec's last finished analyses, or null when none has finished. */
export const reportRequest = new RequestType<DocumentParams, ReportResult | null, void>('herald/report');

/**
 * Client → server: analyse the spec now, whatever `herald.audit.run` says (the "Run Audit"
 * command); answers when the run ended, with what `reportRequest` would answer then.
 */
export const runAuditRequest = new RequestType<DocumentParams, ReportResult | null, void>('herald/runAudit');

/**
 * `skipped`: the audit did not run because it would read files the workspace trust rules out.
 * `notAudited`: the spec as it is now has errors (a misspelt name, an unknown attack kind, a weight
 * too large for a double, a linked file that is missing or unreadable), so no audit runs on it; the
 * server withdraws the earlier results, and nothing (status, lenses, tests) may show them as current.
 */
export type AuditState = 'running' | 'passed' | 'failed' | 'error' | 'cancelled' | 'skipped' | 'notAudited';

/** The spec's errors, as a `notAudited` status counts them: how many, and the first in the text. */
export interface SpecErrors {
  readonly count: number;
  /** One-based line of the first error, and its message as the Problems panel shows it. */
  readonly first: { readonly line: number; readonly message: string };
}

/** `1 error`, `2 errors`. */
export function errorCount(errors: SpecErrors): string {
  return `${errors.count} error${errors.count === 1 ? '' : 's'}`;
}

/** `not audited: 2 errors`: what the status bar and the lenses say of a spec with errors. */
export function notAuditedTitle(errors: SpecErrors): string {
  return `not audited: ${errorCount(errors)}`;
}

/** `line 5: unknown reward 'R_LL'…`: the first error, as the Problems panel lists it. */
export function firstErrorText(errors: SpecErrors): string {
  return `line ${errors.first.line}: ${errors.first.message}`;
}

export interface AuditStatusParams {
  readonly uri: string;
  readonly state: AuditState;
  /** One line for the status bar, e.g. "3/3 expectations hold", "not audited: 2 errors; line 5: …". */
  readonly message: string;
  /** Milliseconds the audit took, for finished states. */
  readonly durationMs?: number;
  /** With `notAudited` for errors in the spec: their count and the first (absent when the spec just has not been audited since they were fixed). */
  readonly errors?: SpecErrors;
}

/** Server → client: a spec's audits changed state (for the status bar and the report view). */
export const auditStatusNotification = new NotificationType<AuditStatusParams>('herald/auditStatus');

export type TrainingSignalState = 'done' | 'skipped' | 'error';
export interface TrainingSignalStatusParams {
  readonly uri: string;
  readonly state: TrainingSignalState;
  /** One line, e.g. "L reaches the optimizer in 9 of 128 groups". */
  readonly message: string;
}

/**
 * Server → client: a spec's training-signal audits and comparisons finished (or could not run).
 * Sent after each run, so a client (and the tests) knows the diagnostics are current.
 */
export const trainingSignalStatusNotification = new NotificationType<TrainingSignalStatusParams>('herald/trainingSignalStatus');

/** The client command that opens a spec's report view; code lenses pass the spec's URI as its argument. */
export const showReportCommand = 'herald.showReport';

/** A worked pair as a finding, a hover or the report names it: the spec, its audit, the row and the edit. */
export interface WorkedPairParams {
  /** The spec's URI; the pair is rebuilt from the spec as it is now. */
  readonly uri: string;
  readonly audit: string;
  readonly trajectory: string;
  /** The pool's name in the spec, and the row's one-based line in its file (where to look first). */
  readonly pool: string;
  readonly line: number;
  readonly attack: string;
  readonly position: number | null;
  readonly replacement: string | null;
  /** What the edit did when position and replacement do not say it (an edit the spec declares: `step 2 deleted`). */
  readonly change?: string;
}

/**
 * A worked pair's attack and edit in a few words, each said once: `launder citation 0 → p2`, the
 * attack with the edit's own `change` (`drop step 2 deleted`), or, when the attack says it all (a
 * same-final edit has no citation to name), `same_final edit`.
 */
export function pairEditTitle(pair: { readonly attack: string; readonly position: number | null; readonly replacement: string | null; readonly change?: string | undefined }): string {
  const what = pair.change ?? (pair.position === null ? undefined : `citation ${pair.position}${pair.replacement === null ? '' : ` → ${pair.replacement}`}`);
  return what === undefined ? `${pair.attack} edit` : `${pair.attack} ${what}`;
}

/** One term of a reward on the pair: contribution = weight · (edited − original). */
export interface PairTerm {
  readonly name: string;
  readonly weight: number;
  readonly original: number;
  readonly edited: number;
  readonly contribution: number;
}

export interface PairReward {
  readonly reward: string;
  readonly role: 'audited' | 'compared';
  readonly terms: readonly PairTerm[];
  /** Σ contributions as summed here. */
  readonly sum: number;
  /** The paired margin as the audit counts it (the sum, with a tie made exactly 0). */
  readonly margin: number;
}

/** A detector of the audit on the pair: an attack's targets flip 0 → 1, every other one keeps its value. */
export interface PairDetector {
  readonly name: string;
  readonly target: boolean;
  readonly original: number;
  readonly edited: number;
}

export type WorkedPairResult =
  | {
      readonly kind: 'pair';
      readonly trajectory: string;
      /** The pool file (absolute) and the row's one-based line in it. */
      readonly file: string;
      readonly line: number;
      /** What the edit did, in words. */
      readonly edit: string;
      /** The original row, pretty-printed JSON. */
      readonly original: string;
      /** The edited row, pretty-printed, after a `//` comment block with the per-term margin table. */
      readonly edited: string;
      readonly rewards: readonly PairReward[];
      readonly detectors: readonly PairDetector[];
    }
  | { readonly kind: 'unavailable'; readonly reason: string };

/**
 * Client → server: rebuild a worked pair from the spec, its pool row and the audit's attack, and
 * show the original and the edited trajectory with the per-term reward difference that makes the margin.
 */
export const workedPairRequest = new RequestType<WorkedPairParams, WorkedPairResult, void>('herald/workedPair');

/** The client command that opens a worked pair side by side; its one argument is a `WorkedPairParams`. */
export const openWorkedPairCommand = 'herald.openWorkedPair';

/**
 * What a client sends in `initializationOptions`. VS Code's client sends its workspace trust; another
 * editor's user sends `workspaceTrusted: true` on purpose (README). Only the boolean `true` trusts:
 * a client that sends nothing, or anything else, gets an untrusted workspace.
 */
export interface HeraldInitializationOptions {
  readonly workspaceTrusted?: boolean;
}

/**
 * What the VS Code client adds to `initializationOptions`: it runs `openWorkedPairCommand`, so the
 * server may offer it in code actions and hovers (other clients would get links that do nothing).
 */
export interface WorkedPairInitializationOptions {
  readonly openWorkedPair?: boolean;
}

/**
 * The client command behind the "Pick a file…" quick fix of a missing linked file: a file picker
 * whose choice replaces the link (written relative to the spec's folder). Arguments: the spec's URI
 * and the range of the link's string, quotes included.
 */
export const pickLinkedFileCommand = 'herald.pickLinkedFile';
export interface PickLinkedFileArguments {
  readonly uri: string;
  readonly range: { readonly start: { readonly line: number; readonly character: number }; readonly end: { readonly line: number; readonly character: number } };
}

/** One `expect` line of a spec's audit, as the Test Explorer lists it. */
export interface ExpectationLine {
  /** The audit block the line belongs to. */
  readonly audit: string;
  /** The statement as written, whitespace collapsed, e.g. `expect minimal_repair == {L}`. */
  readonly text: string;
  /** Where the line is; an audit report's expectation has the same range. */
  readonly range: { readonly start: { readonly line: number; readonly character: number }; readonly end: { readonly line: number; readonly character: number } };
}

/** A spec's analysis blocks and its expect lines: what the Test Explorer and the `herald` tasks offer. */
export interface SpecOutline {
  readonly blocks: readonly { readonly kind: 'audit' | 'training' | 'comparison'; readonly name: string }[];
  readonly expectations: readonly ExpectationLine[];
}

export interface SpecTextParams {
  /** The spec's text: the client sends it, so specs that are not open are outlined without opening them (which would audit them). */
  readonly text: string;
}

/** Client → server: the outline of the text (parsed only: nothing is read or run). */
export const specOutlineRequest = new RequestType<SpecTextParams, SpecOutline, void>('herald/specOutline');

/** Pool files in format v2, or framework logs and the importer that reads them (`pool … from FORMAT(…)`). */
export interface PoolProfileParams {
  /** Absolute paths, in order. */
  readonly files: readonly string[];
  readonly from?: { readonly format: string; readonly options: Readonly<Record<string, string>> };
}

export type PoolProfileResult =
  | { readonly kind: 'profile'; readonly profile: PoolProfile }
  | { readonly kind: 'unavailable'; readonly reason: string };

/**
 * Client → server: what the rows of these files hold, all files together (`profilePool`), as the
 * audit would load them under the workspace's trust rule; "HERALD: New Spec" fits its starter to it.
 */
export const poolProfileRequest = new RequestType<PoolProfileParams, PoolProfileResult, void>('herald/poolProfile');

export interface ImportFormatsParams {
  /** The logs, absolute paths; the first one's first records are what the format is guessed from. */
  readonly files: readonly string[];
}

export interface ImportFormatsResult {
  /** Every importer, the guessed one first. */
  readonly formats: readonly { readonly format: string; readonly summary: string }[];
  /** The format the first file's first records import best under (`guessFormat`); null when none imports one. */
  readonly guessed: string | null;
  /** Why the first file could not be read, when it could not (then there is no guess). */
  readonly unreadable?: string;
}

/** Client → server: the log formats there are, the one these logs look like first ("New Spec from Framework Logs…"). */
export const importFormatsRequest = new RequestType<ImportFormatsParams, ImportFormatsResult, void>('herald/importFormats');
