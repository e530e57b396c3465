// What the Neovim and Emacs end-to-end tests share: the spec they open and the way they run an
// editor probe (a script that drives the editor's own LSP client and writes what it saw as JSON).
import { execFile } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { promisify } from 'node:util';
import { positionIn, rangeOf, serverPath } from '../lsp/lsp-test-client.js';

/** The editor waits this long for each server answer; the process as a whole is killed after `killAfterMs`. */
export const waitMs = 10_000;
const killAfterMs = 60_000;

// A detector used once correctly and once misspelt: the misspelt use is unknown, with a suggestion.
export const probeSpec = [
  'detector cites_unretrieved "cites a passage it never retrieved" =',
  '  any c in citations: c in corpus and c not in retrieved',
  '',
  'reward R "r" {',
  '  penalty -1.0 * cites_unretrieved',
  '  again   -0.5 * cites_unretreived',
  '}',
  '',
].join('\n');
export const misspelt = rangeOf(probeSpec, 'cites_unretreived');
export const hoverAt = positionIn(probeSpec, '* cites_unretrieved', 5);

export interface ProbeRun {
  /** The editor's binary, its arguments and extra environment. */
  readonly command: string;
  readonly args: readonly string[];
  readonly env: Readonly<Record<string, string>>;
  /** What to say when the binary is missing: how to install it. */
  readonly install: string;
  /** Folder for result.json and probe.log (recreated). */
  readonly outputDir: string;
  /** Extra settings for the probe script, beside the common ones. */
  readonly extra?: Readonly<Record<string, unknown>>;
  /** A spec already in the root folder and where to hover in it, instead of the misspelt probe spec. */
  readonly spec?: { readonly file: string; readonly hover: { line: number; character: number } };
  /** How long the editor may run in all (default 60 s). */
  readonly killAfterMs?: number;
}

/** Writes the spec and the probe's settings, runs the editor, and returns the probe's result.json. */
export async function runProbe<T>(root: string, run: ProbeRun): Promise<T> {
  fs.rmSync(run.outputDir, { recursive: true, force: true });
  fs.mkdirSync(run.outputDir, { recursive: true });
  const spec = run.spec?.file ?? path.join(root, 'misspelt.reward');
  if (run.spec === undefined) fs.writeFileSync(spec, probeSpec);
  const killAfter = run.killAfterMs ?? killAfterMs;
  const result = path.join(run.outputDir, 'result.json');
  const log = path.join(run.outputDir, 'probe.log');
  const config = path.join(root, 'probe.json');
  fs.writeFileSync(config, JSON.stringify({ node: process.execPath, server: serverPath, root, spec, result, log, hover: run.spec?.hover ?? hoverAt, timeoutMs: waitMs, ...run.extra }));
  try {
    await promisify(execFile)(run.command, [...run.args], { env: { ...process.env, HERALD_PROBE: config, ...run.env }, timeout: killAfter, cwd: root });
  } catch (error) {
    const e = error as NodeJS.ErrnoException & { killed?: boolean };
    if (e.code === 'ENOENT') throw new Error(`${run.command} is not installed: this end-to-end test needs it (${run.install}; .ci/run installs it)`);
    const logText = fs.existsSync(log) ? fs.readFileSync(log, 'utf8') : '(no probe log)';
    throw new Error(`${run.command} failed${e.killed ? ` (killed after ${killAfter} ms)` : ''}: ${e.message}\n${logText}`);
  }
  return JSON.parse(fs.readFileSync(result, 'utf8')) as T;
}
