// Runs an audit's command generators before its edits are built: each command once, with every
// request of the audit's pools batched on its stdin, answers kept in the command cache. A bad
// answer or a failed run stops the audit with an error that names the command's output line.
import type { AttackPlan } from '../edits/attack-plan.js';
import type { CommandAnswers } from '../candidates/candidate-source.js';
import { commandRequests, parseAnswers, requestLines } from '../candidates/command.js';
import { cachedOutput, keepOutput, outputHash } from '../inputs/command-cache.js';
import { cacheWarning } from '../inputs/cache-folder.js';
import { runCommand } from '../inputs/command-runner.js';
import { AuditError } from '../edits/audit-error.js';
import type { Trajectory } from '../pool/types.js';

/** An audit stopped by one of its commands: the failure is shown on that generator. */
export class CommandError extends AuditError {
  constructor(message: string, readonly command: string) {
    super(message);
  }
}

export interface CommandContext {
  readonly cwd: string;
  readonly timeoutSeconds: number;
  /** The corpus file's content hash, for the cache key; undefined: no cache. */
  readonly corpusHash: string | undefined;
  /** The cache folder, or false for none. */
  readonly cacheDir: string | false;
  readonly isCancelled?: (() => boolean) | undefined;
  readonly onProgress?: ((message: string) => void) | undefined;
}

export type CommandsOutcome =
  | { readonly kind: 'done'; readonly answers: ReadonlyMap<string, CommandAnswers> }
  | { readonly kind: 'failed'; readonly error: string; readonly command: string }
  | { readonly kind: 'cancelled' };

/** The distinct commands of the attacks' generators, in spec order. */
export function commandsOf(attacks: readonly AttackPlan[]): string[] {
  return [...new Set(attacks.flatMap((a) => a.generators.flatMap((g) => (g.kind === 'command' ? [g.command] : []))))];
}

/** Runs (or finds in the cache) every command the attacks name, over the requests of `rows`. */
export async function runCommandGenerators(attacks: readonly AttackPlan[], rows: readonly Trajectory[], ctx: CommandContext): Promise<CommandsOutcome> {
  const commands = commandsOf(attacks);
  const answers = new Map<string, CommandAnswers>();
  if (commands.length === 0) return { kind: 'done', answers };
  const requests = commandRequests(rows);
  const stdin = requestLines(requests);
  for (const command of commands) {
    const progress = (message: string): void => ctx.onProgress?.(`candidates command ${JSON.stringify(command)}: ${message}`);
    const key = ctx.corpusHash === undefined ? undefined : { command, cwd: ctx.cwd, corpusHash: ctx.corpusHash, requestLines: stdin };
    const cached = ctx.cacheDir === false || key === undefined ? undefined
      : cachedOutput(ctx.cacheDir, key, (reason) => ctx.onProgress?.(cacheWarning('entry', reason)));
    const fresh = cached === undefined;
    let stdout: string;
    if (cached !== undefined) {
      progress(`${requests.length} requests answered from the cache`);
      stdout = cached;
    } else {
      progress(`running over ${requests.length} requests`);
      const outcome = await runCommand({ command, cwd: ctx.cwd, stdin, timeoutSeconds: ctx.timeoutSeconds, isCancelled: ctx.isCancelled, onProgress: progress });
      if (outcome.kind === 'cancelled') return outcome;
      if (outcome.kind === 'failed') return { ...outcome, command };
      stdout = outcome.stdout;
    }
    const parsed = parseAnswers(stdout, requests);
    if (!parsed.ok) return { kind: 'failed', error: `candidates command ${JSON.stringify(command)}: ${parsed.error}`, command };
    // Only an output that reads as answers is kept: a bad one runs again once fixed.
    if (fresh && ctx.cacheDir !== false && key !== undefined) keepOutput(ctx.cacheDir, key, stdout);
    answers.set(command, {
      lists: parsed.lists,
      record: { generator: `candidates command ${JSON.stringify(command)}`, command, requests: requests.length, outputSha256: outputHash(stdout) },
    });
  }
  return { kind: 'done', answers };
}
