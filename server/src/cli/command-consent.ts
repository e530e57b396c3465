import type { CommandConsent } from '../inputs/trust.js';
import { specCommands } from '../inputs/spec-commands.js';
import { LineIndex } from '../problems/line-index.js';
import { escapeControls } from '../report/escape-text.js';
import type { Spec } from '../syntax/ast.js';
import type { CommandOutput } from './check-command.js';
import { usageExit, type OptionSpec } from './command-line.js';

// A program a spec names runs only when the person running `herald` asked for it: a CI job that
// audits a pull request from a fork must not run that pull request's code because it audits it.

/** The environment variable that gives consent where adding a flag is awkward (a CI job's env). */
export const allowCommandsVariable = 'HERALD_ALLOW_COMMANDS';

/** `--allow-commands`, for every command that runs a spec's audits. */
export const allowCommandsOption = {
  type: 'boolean', default: false,
  help: `run the programs the spec names (candidates command "…", a field or reward = command "…": docs/reward-commands.md); without it, or ${allowCommandsVariable}=1, a spec that names one stops with exit 2 listing them, and nothing runs`,
} as const satisfies OptionSpec;

const howToAllow = `run herald again with --allow-commands (or ${allowCommandsVariable}=1 in the environment, for CI) once you have read what it runs`;

/** Consent from the flag or the environment: only `1` in the variable counts. */
export function commandConsent(flag: boolean, env: NodeJS.ProcessEnv = process.env): CommandConsent {
  return flag || env[allowCommandsVariable] === '1' ? { allowed: true } : { allowed: false, howToAllow };
}

/**
 * Exit 2 after naming, at its `file:line:col`, every program the spec (or its audit `only`) would run,
 * when there is no consent; undefined when the run may go on.
 */
export function refuseCommands(command: string, specFile: string, text: string, spec: Spec, only: string | undefined, consent: CommandConsent, io: CommandOutput): number | undefined {
  // Only an audit runs candidate generators; every analysis runs the command terms it reads.
  const commands = specCommands(spec, only).filter((c) => command === 'audit' || c.kind === 'term');
  if (consent.allowed || commands.length === 0) return undefined;
  const lines = new LineIndex(text);
  const distinct = new Set(commands.map((c) => c.command)).size;
  const count = distinct === 1 ? 'a program' : `${distinct} programs`;
  const places = commands.length === distinct ? '' : ` (named at ${commands.length} places)`;
  io.err(escapeControls(`herald ${command}: the spec would run ${count}${places}, and herald runs a spec's programs only when asked, so nothing was run:`));
  for (const c of commands) {
    const { line, character } = lines.position(c.link.span.start);
    io.err(escapeControls(`${specFile}:${line + 1}:${character + 1}: ${c.owner} ${JSON.stringify(c.command)}`));
  }
  io.err(`herald ${command}: ${howToAllow}`);
  return usageExit;
}
