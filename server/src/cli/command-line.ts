import { parseArgs } from 'node:util';
import { inputLimitsOf, raisedLimitMebibytes, raisedLimitProblem } from '../inputs/input-limits.js';
import { WorkspaceTrust } from '../inputs/trust.js';
import { escapeControls } from '../report/escape-text.js';
import { suggestName } from '../semantics/did-you-mean.js';
import type { Decl } from '../syntax/ast.js';
import type { CommandOutput } from './check-command.js';

// One description per subcommand: node's parseArgs reads the same option table that `--help`
// prints, so the help cannot drift from what the command accepts. Every usage error says what was
// wrong, then where the options are listed, and exits 2 (as the README documents).

/** An option as parseArgs takes it, with the words `--help` prints and the values it may take. */
export interface OptionSpec {
  readonly type: 'string' | 'boolean';
  readonly short?: string;
  readonly multiple?: boolean;
  readonly default?: string | boolean;
  /** The placeholder `--help` shows after a string option (FILE, NAME, N). */
  readonly value?: string;
  /** The only values a string option takes (checked here, listed in `--help`). */
  readonly choices?: readonly string[];
  readonly help: string;
}

export interface CommandSpec<O extends Readonly<Record<string, OptionSpec>>> {
  readonly name: string;
  /** The positionals, as the first help line shows them (`<spec.reward>`). */
  readonly operands: string;
  /** How many positionals the command takes. */
  readonly positionals: { readonly min: number; readonly max: number };
  /** One line for `herald --help`'s list of commands. */
  readonly brief: string;
  readonly summary: string;
  readonly options: O;
  readonly exit: string;
}

/** Exit code of every usage error (and of unreadable input), as the README documents. */
export const usageExit = 2;

const helpOption = { type: 'boolean', short: 'h', help: 'print this help and exit' } as const satisfies OptionSpec;

function optionLabel(name: string, option: OptionSpec): string {
  const long = option.short === undefined ? `--${name}` : `-${option.short}, --${name}`;
  if (option.type === 'boolean') return long;
  return `${long} ${option.choices?.join('|') ?? option.value ?? 'VALUE'}${option.multiple === true ? '…' : ''}`;
}

/** Wraps `text` to lines of at most `width` characters. */
function wrap(text: string, width: number): string[] {
  const lines: string[] = [];
  let line = '';
  for (const word of text.split(/\s+/)) {
    if (line !== '' && line.length + 1 + word.length > width) {
      lines.push(line);
      line = word;
    } else line = line === '' ? word : `${line} ${word}`;
  }
  if (line !== '') lines.push(line);
  return lines;
}

/** `herald NAME --help`: the synopsis, what the command does, every option it accepts, its exit codes. */
export function commandHelp(spec: CommandSpec<Readonly<Record<string, OptionSpec>>>): string {
  const options: [string, OptionSpec][] = Object.entries({ ...spec.options, help: helpOption });
  const labels = options.map(([name, option]) => optionLabel(name, option));
  const column = Math.min(30, Math.max(...labels.map((l) => l.length)) + 2);
  const indent = ' '.repeat(column + 2);
  const rows = options.flatMap(([, option], i) => {
    const label = labels[i] ?? '';
    const help = option.default === undefined || option.default === false ? option.help : `${option.help} (default: ${String(option.default)})`;
    const text = wrap(help, 100 - indent.length).map((t) => `${indent}${t}`);
    // A label too long for the column gets a line of its own; otherwise the help starts beside it.
    if (label.length + 2 > column) return [`  ${label}`, ...text];
    return [`  ${label.padEnd(column)}${text[0]?.trimStart() ?? ''}`, ...text.slice(1)];
  });
  return [
    `usage: herald ${spec.name} ${spec.operands} [options]`,
    ...wrap(spec.summary, 98).map((l) => `  ${l}`),
    '',
    'options:',
    ...rows,
    '',
    ...wrap(`exit: ${spec.exit}`, 100),
  ].join('\n');
}

/** Says on stderr what was wrong with the command line, then where the options are; returns the exit code. */
export function usageError(command: string, message: string, io: CommandOutput): number {
  io.err(escapeControls(`herald ${command}: ${message}`));
  io.err(`run 'herald ${command} --help' for its options`);
  return usageExit;
}

/** `--max-input-mib N`, for every command that reads linked files (pools, corpora, logs). */
export const maxInputOption = {
  type: 'string', value: 'N',
  help: `raise the input limits (each linked file 128 MiB, the files of one analysis 160 MiB together) to N MiB each, N from ${raisedLimitMebibytes.least} to ${raisedLimitMebibytes.most.toLocaleString('en-US')}, on a machine with the memory: an audit holds every row and edit in memory (docs/language.md, Limits)`,
} as const satisfies OptionSpec;

/** The rule a command-line run reads under: every file, within the limits `--max-input-mib` gives; an exit code after a usage error. */
export function commandTrust(command: string, maxInputMiB: string | undefined, io: CommandOutput): WorkspaceTrust | number {
  if (maxInputMiB === undefined) return WorkspaceTrust.everything;
  // Number('') is 0, which the least limit refuses like any other value below it.
  const mebibytes = Number(maxInputMiB);
  const problem = raisedLimitProblem(mebibytes);
  if (problem !== undefined) return usageError(command, `--max-input-mib takes ${problem}, not ${JSON.stringify(maxInputMiB)}`, io);
  return WorkspaceTrust.everything.withLimits(inputLimitsOf(mebibytes));
}

/** The value of a string option outside its choices, if any. */
function outsideChoices(given: unknown, choices: readonly string[]): string | undefined {
  const values: unknown[] = Array.isArray(given) ? given : [given];
  return values.find((v): v is string => typeof v === 'string' && !choices.includes(v));
}

function parseOrError<O extends Readonly<Record<string, OptionSpec>>>(spec: CommandSpec<O>, args: readonly string[]) {
  try {
    return parseArgs({ args: [...args], allowPositionals: true, strict: true, options: { ...spec.options, help: helpOption } });
  } catch (error) {
    return error instanceof Error ? error.message : String(error);
  }
}

/** The parsed command line, `help` when the user asked for it, or an exit code after a usage error. */
export function parseCommandLine<O extends Readonly<Record<string, OptionSpec>>>(spec: CommandSpec<O>, args: readonly string[], io: CommandOutput) {
  const parsed = parseOrError(spec, args);
  if (typeof parsed === 'string') return usageError(spec.name, parsed, io);
  const values: Readonly<Record<string, unknown>> = parsed.values;
  if (values.help === true) {
    io.out(commandHelp(spec));
    return 'help' as const;
  }
  for (const [name, option] of Object.entries(spec.options)) {
    const wrong = option.choices === undefined ? undefined : outsideChoices(values[name], option.choices);
    if (wrong !== undefined) return usageError(spec.name, `unknown ${name} '${wrong}'; expected one of ${(option.choices ?? []).join(', ')}`, io);
  }
  const count = parsed.positionals.length;
  const { min, max } = spec.positionals;
  if (count < min || count > max) {
    const expected = min === max ? `${min}` : max === Infinity ? `at least ${min}` : `${min} to ${max}`;
    const got = count === 0 ? 'none' : parsed.positionals.map((p) => `'${p}'`).join(' ');
    return usageError(spec.name, `expected ${expected} ${spec.operands}, got ${got}`, io);
  }
  return parsed;
}

/**
 * Undefined when `name` (given with `--option`) names a declaration of `kind` in the spec; else the
 * exit code after a usage error that names it, suggests the closest name and lists the spec's names,
 * so a mistyped name never runs nothing and passes.
 */
export function unknownName(command: string, option: string, kind: Decl['kind'], name: string | undefined, decls: readonly Decl[], io: CommandOutput): number | undefined {
  if (name === undefined) return undefined;
  const known = decls.flatMap((d) => (d.kind === kind && d.name !== undefined ? [d.name.text] : []));
  if (known.includes(name)) return undefined;
  const suggestion = suggestName(name, known);
  const hint = suggestion === undefined ? '' : `; did you mean '${suggestion}'?`;
  const noun = kind === 'training' ? 'training block' : kind;
  const listed = known.length === 0 ? `the spec declares no ${noun}` : `the spec's ${kind === 'corpus' ? 'corpora' : `${noun}s`}: ${known.join(', ')}`;
  return usageError(command, `--${option}: unknown ${noun} '${name}'${hint} (${listed})`, io);
}
