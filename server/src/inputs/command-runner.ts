// Runs a candidate-generator command once per audit (docs/generators.md): the requests go to its
// stdin, its stdout is the answer. The program runs in its own process group, so a timeout or a
// cancellation kills it and everything it started (kill(−pid)), and no orphan keeps the corpus
// or a GPU busy. Spawning is I/O, so it lives here; edits/ only sees the answers.
import { spawn } from 'node:child_process';
import { maxInputBytes } from './input-limits.js';

/** Seconds a command may run when the audit sets no `timeout`. */
export const defaultCommandTimeoutSeconds = 300;

export interface CommandRun {
  /** Run by `/bin/sh -c`, as written in the spec. */
  readonly command: string;
  /** The spec's folder: relative paths in the command are the spec's. */
  readonly cwd: string;
  readonly stdin: string;
  readonly timeoutSeconds: number;
  readonly isCancelled?: (() => boolean) | undefined;
  readonly onProgress?: ((message: string) => void) | undefined;
}

export type CommandOutcome =
  | { readonly kind: 'done'; readonly stdout: string }
  | { readonly kind: 'failed'; readonly error: string }
  | { readonly kind: 'cancelled' };

/** The end of what the program wrote to stderr, for an error message. */
const stderrKept = 2000;
/** How often a running command polls for cancellation and reports progress. */
const pollMs = 100;
const progressEveryMs = 2000;

/** Kills the program's whole process group; a group already gone is fine. */
function killGroup(pid: number | undefined): void {
  if (pid === undefined) return;
  try {
    if (process.platform === 'win32') process.kill(pid, 'SIGKILL');
    else process.kill(-pid, 'SIGKILL');
  } catch {
    // ESRCH: nothing left to kill.
  }
}

/** Runs the command to completion, a failure, the timeout or a cancellation; never rejects. */
export function runCommand(run: CommandRun): Promise<CommandOutcome> {
  return new Promise((resolve) => {
    const started = Date.now();
    const child = spawn('/bin/sh', ['-c', run.command], { cwd: run.cwd, detached: true, stdio: ['pipe', 'pipe', 'pipe'] });
    const chunks: Buffer[] = [];
    let bytes = 0;
    let stderr = '';
    let settled = false;
    let lastProgress = started;
    const finish = (outcome: CommandOutcome, kill: boolean): void => {
      if (settled) return;
      settled = true;
      clearInterval(poll);
      if (kill) killGroup(child.pid);
      // A grandchild that kept the pipes open must not keep this run waiting.
      child.stdout.destroy();
      child.stderr.destroy();
      child.stdin.destroy();
      resolve(outcome);
    };
    const poll = setInterval(() => {
      const seconds = (Date.now() - started) / 1000;
      if (run.isCancelled?.() === true) finish({ kind: 'cancelled' }, true);
      else if (seconds > run.timeoutSeconds) {
        finish({ kind: 'failed', error: `the command ${JSON.stringify(run.command)} did not finish within ${run.timeoutSeconds} s (the audit's timeout): it and every process it started were killed` }, true);
      } else if (Date.now() - lastProgress >= progressEveryMs) {
        lastProgress = Date.now();
        const said = stderr.trimEnd().split('\n').pop() ?? '';
        run.onProgress?.(`command running, ${Math.round(seconds)} s${said.length > 0 ? `: ${said.slice(0, 120)}` : ''}`);
      }
    }, pollMs);
    child.on('error', (error) => finish({ kind: 'failed', error: `the command ${JSON.stringify(run.command)} could not be started: ${error.message}` }, true));
    child.stdout.on('data', (chunk: Buffer) => {
      bytes += chunk.length;
      if (bytes > maxInputBytes) {
        finish({ kind: 'failed', error: `the command ${JSON.stringify(run.command)} wrote more than ${maxInputBytes} bytes: it was killed` }, true);
        return;
      }
      chunks.push(chunk);
    });
    child.stderr.on('data', (chunk: Buffer) => {
      stderr = (stderr + chunk.toString('utf8')).slice(-stderrKept);
    });
    // A program that exits without reading all of stdin closes the pipe: its exit status says what happened.
    child.stdin.on('error', () => undefined);
    child.on('close', (code, signal) => {
      if (code === 0) {
        finish({ kind: 'done', stdout: Buffer.concat(chunks).toString('utf8') }, false);
        return;
      }
      const why = signal === null ? `exited with status ${code}` : `was stopped by ${signal}`;
      const tail = stderr.trim();
      finish({ kind: 'failed', error: `the command ${JSON.stringify(run.command)} ${why}${tail.length > 0 ? `: ${tail.split('\n').slice(-3).join(' | ')}` : ''}` }, true);
    });
    child.stdin.end(run.stdin);
  });
}
