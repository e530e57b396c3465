import * as path from 'node:path';
import { specRelative } from '../inputs/paths.js';
import { analyze } from '../semantics/analyze.js';
import { probeFile } from '../inputs/file-probe.js';
import { describeError, openInput, readOpened } from '../inputs/open-input.js';
import { WorkspaceTrust } from '../inputs/trust.js';
import { LineIndex } from '../problems/line-index.js';
import { maxListedRows } from '../problems/limits.js';
import type { Problem } from '../problems/problem.js';
import type { RowIssue } from '../pool/types.js';
import { escapeControls } from '../report/escape-text.js';
import { parseCommandLine, type CommandSpec } from './command-line.js';

export interface CommandOutput {
  readonly out: (line: string) => void;
  readonly err: (line: string) => void;
  /** stdout is a terminal: text tables are cut to its width there, and only there. */
  readonly terminal?: boolean;
}

/**
 * `file:line:col: severity code message`, one-based like compilers print, for editors to jump to.
 * Always one line: a message quotes data (ids, reasons, file names), escaped here.
 */
export function formatProblem(file: string, index: LineIndex, problem: Problem): string {
  const { line, character } = index.position(problem.span.start);
  return escapeControls(`${file}:${line + 1}:${character + 1}: ${problem.severity} ${problem.code} ${problem.message}`);
}

/** A spec is read whatever its size: past `maxSpecLength` the parser reports it, as in the editor. */
const specAccess = { trust: WorkspaceTrust.everything, maxBytes: Number.POSITIVE_INFINITY, limitName: 'for a spec' };

/**
 * A spec's text, or undefined after saying on stderr why it cannot be read. Opened like every file a
 * spec reads (`openInput`): a FIFO, device, socket or folder is refused before it is opened, and
 * nothing blocks.
 */
export function readSpec(file: string, io: CommandOutput): string | undefined {
  const cannotRead = (why: string): undefined => {
    io.err(escapeControls(`${file}: error: cannot read: ${why}`));
    return undefined;
  };
  const opened = openInput(file, specAccess);
  if (!opened.ok) return cannotRead(opened.reason);
  try {
    return readOpened(opened, specAccess.maxBytes).toString('utf8');
  } catch (error) {
    return cannotRead(describeError(error));
  }
}

/**
 * A run's spec problems at their line and column, then the data rows it skipped, on stderr. A file
 * that could not be read at all is an issue on line 0 whose reason is the whole `FILE: cannot read: why`.
 */
export function printRunProblems(file: string, lines: LineIndex, run: { problems: readonly Problem[]; dataIssues: readonly RowIssue[] }, io: CommandOutput): void {
  for (const problem of run.problems) io.err(formatProblem(file, lines, problem));
  // The first `maxListedRows` skipped rows of each file, then how many more (a log may have 80,000).
  const perFile = new Map<string, number>();
  for (const issue of run.dataIssues) {
    if (issue.line === 0) {
      io.err(escapeControls(issue.reason));
      continue;
    }
    const count = (perFile.get(issue.file) ?? 0) + 1;
    perFile.set(issue.file, count);
    if (count <= maxListedRows) io.err(escapeControls(`${issue.file}:${issue.line}: skipped row: ${issue.reason}`));
  }
  for (const [name, count] of perFile) {
    if (count > maxListedRows) io.err(escapeControls(`${name}: … and ${count - maxListedRows} more skipped rows`));
  }
}

/**
 * Findings as compilers print them, on stderr: `spec:line:col: severity code message`, then the data
 * rows a finding is about as `file:line: message` (relative to the working folder), so a terminal or
 * an editor's problem matcher can open each, and how many more it is about past those listed.
 */
export function printFindings(file: string, lines: LineIndex, findings: readonly Problem[], io: CommandOutput): void {
  for (const finding of findings) {
    io.err(formatProblem(file, lines, finding));
    for (const row of finding.rows ?? []) io.err(escapeControls(`  ${specRelative(process.cwd(), row.file)}:${row.line}: ${row.message}`));
    if (finding.moreRows !== undefined) io.err(`  … and ${finding.moreRows} more`);
  }
}

export const checkCommand = {
  name: 'check',
  operands: '<spec.reward…>',
  positionals: { min: 1, max: Infinity },
  brief: 'parse and check specs and print their problems (runs no audit)',
  summary: 'parses and checks each spec and prints every problem as file:line:col: severity code message (on stdout; the count on stderr); runs no audit',
  options: {},
  exit: '0 when every spec is clean (warnings allowed), 1 on errors, 2 when a spec cannot be read or on bad usage',
} as const satisfies CommandSpec<Record<string, never>>;

/** Checks each spec; exit code 1 when any has an error, 2 when a spec cannot be read. */
export function runCheck(args: readonly string[], io: CommandOutput): number {
  const parsed = parseCommandLine(checkCommand, args, io);
  if (parsed === 'help') return 0;
  if (typeof parsed === 'number') return parsed;
  const files = parsed.positionals;
  let errors = 0;
  let warnings = 0;
  let unreadable = 0;
  for (const file of files) {
    const text = readSpec(file, io);
    if (text === undefined) {
      unreadable++;
      continue;
    }
    const { problems } = analyze(text, { specFile: path.resolve(file), probeFile });
    const index = new LineIndex(text);
    for (const problem of problems) {
      io.out(formatProblem(file, index, problem));
      if (problem.severity === 'error') errors++;
      else if (problem.severity === 'warning') warnings++;
    }
  }
  // A spec that cannot be read is an error of the run: the count never says "0 errors" for it.
  const total = errors + unreadable;
  const notRead = unreadable === 0 ? '' : ` (${unreadable} spec${unreadable === 1 ? '' : 's'} could not be read)`;
  io.err(`checked ${files.length} spec${files.length === 1 ? '' : 's'}: ${total} error${total === 1 ? '' : 's'}${notRead}, ${warnings} warning${warnings === 1 ? '' : 's'}`);
  return unreadable > 0 ? 2 : errors > 0 ? 1 : 0;
}
