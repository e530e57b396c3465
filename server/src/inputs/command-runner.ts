// Runs a candidate-generator command once per audit (docs/generators.md): the requests go to its
// stdin, its stdout is the answer. Spawning is I/O, so it lives here; edits/ only sees the answers.
// No process of a run outlives it (docs/generators.md, "Timeout and cancellation"): the shell leads a process group
// of its own and every process inherits a random tag in its environment; whenever the run ends (the
// shell's exit, a failure, the timeout, a cancellation) the group and every tagged process are killed
// (inputs/command-sweep.ts). A guard process (inputs/command-guard.ts) does the same when the process
// that runs the command dies, and the CLI kills the live runs on SIGINT and SIGTERM (killLiveRuns).
import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { killCommandRun, commandRunVariable, type CommandRunTag } from './command-sweep.js';
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
  /** Put the shipped Python adapters on the program's path (`HERALD_ADAPTERS`, `PYTHONPATH`): a command term's run. */
  readonly adapters?: boolean;
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

/** The guard's script: beside this file, in out/ as in dist/ (scripts/build.mjs bundles it there). */
const guardFile = path.join(__dirname, 'command-guard.js');

/**
 * The folder holding the `herald_adapters` Python package (docs/reward-commands.md): `adapters/`
 * beside the bundle in dist/ (scripts/build.mjs copies it there), else the repository's
 * `adapters/python` when this file runs from out/ (the tests).
 */
export function adaptersFolder(): string {
  const bundled = path.join(__dirname, 'adapters');
  return fs.existsSync(path.join(bundled, 'herald_adapters')) ? bundled : path.resolve(__dirname, '../../../../adapters/python');
}

/**
 * The environment a command term's program adds: where the adapters are, Python's path to them, and
 * no bytecode files, which Python would write beside the user's reward file (her workspace) and in
 * the installed extension.
 */
function adapterEnv(): NodeJS.ProcessEnv {
  const folder = adaptersFolder();
  const pythonPath = process.env['PYTHONPATH'];
  return {
    HERALD_ADAPTERS: folder, PYTHONDONTWRITEBYTECODE: '1',
    PYTHONPATH: pythonPath === undefined || pythonPath === '' ? folder : `${folder}${path.delimiter}${pythonPath}`,
  };
}

/**
 * The runs of this thread whose processes may still live. Module state because a signal handler
 * must reach them (the CLI's SIGINT), and a run is removed as soon as it has been swept.
 */
const liveRuns = new Map<string, CommandRunTag>();

/** Kills every process of every live run of this thread, at once: for the CLI's SIGINT and SIGTERM handlers. */
export function killLiveRuns(): void {
  for (const run of liveRuns.values()) killCommandRun(run);
  liveRuns.clear();
}

/**
 * Starts the guard of a run. It runs Node like this process (Electron's Node when VS Code runs the
 * server), never with this process's NODE_OPTIONS (an inspector port, a loader), and is unreferenced:
 * it must never keep this process alive. Undefined where there are no process groups (Windows).
 */
function startGuard(run: CommandRunTag): ChildProcess | undefined {
  if (process.platform === 'win32') return undefined;
  const env: NodeJS.ProcessEnv = { ...process.env, ELECTRON_RUN_AS_NODE: '1' };
  delete env['NODE_OPTIONS'];
  const guard = spawn(process.execPath, [guardFile, String(run.group), run.token], { detached: true, stdio: ['pipe', 'ignore', 'ignore'], env });
  // A guard that cannot start leaves the run to this process's own sweeps.
  guard.on('error', () => undefined);
  guard.stdin?.on('error', () => undefined);
  guard.unref();
  return guard;
}

/** Runs the command to completion, a failure, the timeout or a cancellation; never rejects. */
export function runCommand(run: CommandRun): Promise<CommandOutcome> {
  return new Promise((resolve) => {
    const started = Date.now();
    const token = randomBytes(16).toString('hex');
    // The tag comes first, so a sweep finds it within the part of an environment it reads. A run
    // inside another run (a command that runs herald) keeps the outer run's token beside its own, so
    // the outer run's sweep still reaches every process of the inner one.
    const outer = process.env[commandRunVariable];
    const tagValue = outer === undefined || outer === '' ? token : `${outer} ${token}`;
    const env: NodeJS.ProcessEnv = { [commandRunVariable]: tagValue, ...process.env, ...(run.adapters === true ? adapterEnv() : {}) };
    env[commandRunVariable] = tagValue;
    const child = spawn('/bin/sh', ['-c', run.command], { cwd: run.cwd, detached: true, stdio: ['pipe', 'pipe', 'pipe'], env });
    const tag: CommandRunTag | undefined = child.pid === undefined ? undefined : { group: child.pid, token };
    const guard = tag === undefined ? undefined : startGuard(tag);
    if (tag !== undefined) liveRuns.set(token, tag);
    // Once per run: a sweep ends on a scan that found nothing, and nothing it killed can fork again.
    let swept = false;
    const sweep = (): void => {
      if (swept || tag === undefined) return;
      swept = true;
      killCommandRun(tag);
    };
    const chunks: Buffer[] = [];
    let bytes = 0;
    let stderr = '';
    let settled = false;
    let lastProgress = started;
    const finish = (outcome: CommandOutcome): void => {
      if (settled) return;
      settled = true;
      clearInterval(poll);
      sweep();
      liveRuns.delete(token);
      // The guard's pipe closes: it sweeps once more and exits.
      guard?.stdin?.destroy();
      // A process that escaped the sweep and kept the pipes open must not keep this run waiting.
      child.stdout.destroy();
      child.stderr.destroy();
      child.stdin.destroy();
      resolve(outcome);
    };
    const poll = setInterval(() => {
      const seconds = (Date.now() - started) / 1000;
      if (run.isCancelled?.() === true) finish({ kind: 'cancelled' });
      else if (seconds > run.timeoutSeconds) {
        finish({ kind: 'failed', error: `the command ${JSON.stringify(run.command)} did not finish within ${run.timeoutSeconds} s (the audit's timeout): it and every process it started were killed` });
      } else if (Date.now() - lastProgress >= progressEveryMs) {
        lastProgress = Date.now();
        const said = stderr.trimEnd().split('\n').pop() ?? '';
        run.onProgress?.(`command running, ${Math.round(seconds)} s${said.length > 0 ? `: ${said.slice(0, 120)}` : ''}`);
      }
    }, pollMs);
    child.on('error', (error) => finish({ kind: 'failed', error: `the command ${JSON.stringify(run.command)} could not be started: ${error.message}` }));
    child.stdout.on('data', (chunk: Buffer) => {
      bytes += chunk.length;
      if (bytes > maxInputBytes) {
        finish({ kind: 'failed', error: `the command ${JSON.stringify(run.command)} wrote more than ${maxInputBytes} bytes: it was killed` });
        return;
      }
      chunks.push(chunk);
    });
    child.stderr.on('data', (chunk: Buffer) => {
      stderr = (stderr + chunk.toString('utf8')).slice(-stderrKept);
    });
    // A program that exits without reading all of stdin closes the pipe: its exit status says what happened.
    child.stdin.on('error', () => undefined);
    // The run ends with its shell: what the shell left running (`sleep 1000 &`) is killed now, which
    // also closes the pipes those processes held, so 'close' follows with everything written before.
    child.on('exit', sweep);
    child.on('close', (code, signal) => {
      if (code === 0) {
        finish({ kind: 'done', stdout: Buffer.concat(chunks).toString('utf8') });
        return;
      }
      const why = signal === null ? `exited with status ${code}` : `was stopped by ${signal}`;
      const tail = stderr.trim();
      finish({ kind: 'failed', error: `the command ${JSON.stringify(run.command)} ${why}${tail.length > 0 ? `: ${tail.split('\n').slice(-3).join(' | ')}` : ''}` });
    });
    child.stdin.end(run.stdin);
  });
}
