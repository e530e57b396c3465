import * as path from 'node:path';
import type { ImportFile, ImportIssue, ImportResult, RawOptions } from '../importers/importer.js';
import { guessFormat } from '../importers/format-guess.js';
import { importerFor, importers, type CheckedImport, type RegisteredImporter } from '../importers/registry.js';
import { roundTrip } from '../importers/render.js';
import { loadCorpus } from '../inputs/loaders.js';
import { sizeProblem } from '../inputs/load-inputs.js';
import { readImportFiles } from '../inputs/import-pool.js';
import type { WorkspaceTrust } from '../inputs/trust.js';
import { resolvePool, type ResolutionCounts } from '../pool/resolve-ids.js';
import { profilePool } from '../pool/profile.js';
import { parsePoolRow } from '../pool/schemas.js';
import type { Trajectory } from '../pool/types.js';
import { escapeControls } from '../report/escape-text.js';
import { commandTrust, maxInputOption, parseCommandLine, usageError, usageExit, type CommandSpec, type OptionSpec } from './command-line.js';
import type { CommandOutput } from './check-command.js';
import { outputTarget, writeOutput, type ReadFile } from './output-file.js';
import { profileLines } from './pool-profile-lines.js';

// `herald import`: a framework's logs in, pool rows (format v2, one JSON object per line) out, and on
// stderr every count the import rests on (docs/import.md), so nothing it derived or dropped is silent.

export const importCommand = {
  name: 'import',
  operands: '<log>…',
  positionals: { min: 1, max: Infinity },
  brief: "turn a framework's logs into a pool (JSONL, format v2)",
  summary: "reads the logs (the shell expands globs) with the importer --from names and writes the pool rows to --out; prints on stderr the records read, imported and skipped (each as file:line: reason), the question ids derived, the groups recovered, the importer's notes and the pool's profile (rows with a final, citations, searches…); when every record is skipped, the format the log looks like; with --corpus, how many result ids resolve against it",
  options: {
    from: { type: 'string', value: 'FORMAT', choices: importers.map((i) => i.format), help: 'the log format (listed below with its options)' },
    option: { type: 'string', multiple: true, value: 'KEY=VALUE', help: "an importer option, e.g. --option dialect=search_r1; repeat for several" },
    corpus: { type: 'string', value: 'FILE', help: 'a corpus (JSONL) to resolve the rows against: prints how many results and citations resolve, and how, and each row with unresolved results' },
    roundtrip: { type: 'boolean', help: 'render every imported row back into the format (unedited) and compare with what it logged: prints how many records re-render byte-identical and names each that does not, with the first differing offset; exit 1 when one does not' },
    out: { type: 'string', value: 'FILE', help: "where the pool goes ('-' for stdout); refused, with nothing written, when FILE is one of the logs, the corpus or not a regular file; replaced only once the pool is written whole" },
    quiet: { type: 'boolean', default: false, help: "print only skipped records, notes and counts, no 'wrote FILE' line" },
    'max-input-mib': maxInputOption,
  },
  exit: '0 when at least one row was imported, 1 when every record was skipped (nothing is written then), 2 on bad usage (no --from or --out, an unknown format or option) or an unreadable log or corpus',
} as const satisfies CommandSpec<Readonly<Record<string, OptionSpec>>>;

/** How many skipped records and unresolved rows are listed one per line; the counts give the rest. */
const listed = 20;

/** `herald import --help`'s list of formats, from the registry. */
function formatsHelp(): string {
  const lines = ['', 'formats (--from):'];
  // Two spaces after the longest name, so no name runs into its summary.
  const width = Math.max(...importers.map((i) => i.format.length)) + 2;
  for (const importer of importers) {
    lines.push(`  ${importer.format.padEnd(width)}${importer.summary}`);
    for (const [key, doc] of Object.entries(importer.optionDocs)) lines.push(`      --option ${key}=…  ${doc}`);
  }
  return lines.join('\n');
}

/** `--option key=value`… as the importer's raw options, or why they cannot be. */
function rawOptions(given: readonly string[]): RawOptions | string {
  const options: Record<string, string> = {};
  for (const item of given) {
    const eq = item.indexOf('=');
    if (eq <= 0) return `--option '${item}': expected KEY=VALUE`;
    const key = item.slice(0, eq);
    if (key in options) return `--option ${key} given twice`;
    options[key] = item.slice(eq + 1);
  }
  return options;
}

/**
 * Reads each log whole, as an imported pool's files are read: the limits of one analysis checked on
 * the sizes before any is opened, then each through `readImportFiles`. Undefined after printing why
 * one cannot be read.
 */
function readLogs(files: readonly string[], trust: WorkspaceTrust, io: CommandOutput): ImportFile[] | undefined {
  const cannotRead = (what: string, why: string): undefined => {
    io.err(escapeControls(`herald import: cannot read ${what}: ${why}`));
    return undefined;
  };
  const absolute = files.map((file) => path.resolve(file));
  const tooLarge = sizeProblem(absolute, trust);
  if (tooLarge !== undefined) return cannotRead(tooLarge.files.join(', '), tooLarge.why);
  // Records are named by the paths as given, as the rows' sources then say.
  const read = readImportFiles(absolute, trust, (_, index) => files[index]!);
  return read.ok ? read.files : cannotRead(read.file, read.why);
}

/** The imported rows as pool lines, a thousand at a time: the whole pool may pass V8's 512 MiB string limit. */
function* poolLines(result: ImportResult): Generator<string> {
  const rows = result.rows;
  for (let from = 0; from < rows.length; from += 1000) {
    yield `${rows.slice(from, from + 1000).map((r) => JSON.stringify(r.row)).join('\n')}\n`;
  }
}

function listIssues(issues: readonly ImportIssue[], what: string, io: CommandOutput): void {
  for (const issue of issues.slice(0, listed)) io.err(escapeControls(`  ${issue.at.file}:${issue.at.line}: ${what}: ${issue.reason}`));
  if (issues.length > listed) io.err(`  … and ${issues.length - listed} more`);
}

function printSummary(format: string, result: ImportResult, io: CommandOutput): void {
  const c = result.counts;
  const groups = c.groupsRecovered === null ? 'no groups recovered' : `${c.groupsRecovered} group${c.groupsRecovered === 1 ? '' : 's'} recovered`;
  io.err(`herald import: ${format}: ${c.read} records read, ${c.imported} imported, ${c.skipped} skipped, ${c.questionIdsDerived} question ids derived, ${groups}`);
  listIssues(result.skipped, 'skipped', io);
  for (const note of result.notes) io.err(escapeControls(`  note: ${note}`));
}

function howMany(counts: Readonly<Record<string, number>>, keys: readonly string[]): string {
  const resolved = keys.filter((k) => k !== 'logged' && k !== 'unresolved');
  const sum = resolved.reduce((n, k) => n + (counts[k] ?? 0), 0);
  return `${counts.logged ?? 0} logged as ids, ${sum} resolved (${resolved.map((k) => `by ${k} ${counts[k] ?? 0}`).join(', ')}), ${counts.unresolved ?? 0} unresolved`;
}

function printResolution(counts: ResolutionCounts, io: CommandOutput): void {
  io.err(`herald import: results against the corpus: ${howMany(counts.results, ['logged', 'url', 'text', 'title', 'unresolved'])}`);
  io.err(`herald import: citations against the corpus: ${howMany(counts.citations, ['logged', 'url', 'rank', 'unresolved'])}`);
}

/** Resolves the imported rows against the corpus the way loading the pool will, and says how it went: the rows resolved, or undefined after printing why the corpus cannot be read. */
async function resolveAgainst(corpusFile: string, result: ImportResult, trust: WorkspaceTrust, io: CommandOutput): Promise<readonly Trajectory[] | undefined> {
  const corpus = await loadCorpus(corpusFile, trust);
  if (corpus.fileError !== undefined) {
    io.err(escapeControls(`herald import: cannot read the corpus: ${corpus.fileError}`));
    return undefined;
  }
  const rows: Trajectory[] = [];
  for (const { row, at } of result.rows) {
    const parsed = parsePoolRow(row, { pool: 'import', file: at.file, line: at.line });
    if (parsed.ok) rows.push(parsed.value);
  }
  const resolved = resolvePool(rows, corpus.corpus);
  if (resolved.resolution === undefined) {
    io.err('herald import: no row logs a result object or a citation marker: nothing to resolve against the corpus');
    return resolved.rows;
  }
  printResolution(resolved.resolution.counts, io);
  const notes = [...resolved.resolution.unresolved, ...resolved.issues].map((i) => ({ at: { file: i.file, line: i.line }, reason: i.reason }));
  listIssues(notes, 'unresolved', io);
  return resolved.rows;
}

/** Every record skipped: the format the first log's first records look like, when another format reads them. */
async function suggestFormat(given: string, files: readonly ImportFile[], io: CommandOutput): Promise<void> {
  const guess = await guessFormat(files);
  if (guess === undefined || guess.format === given) {
    io.err('herald import: every record was skipped; nothing was written');
    return;
  }
  io.err(`herald import: every record was skipped; nothing was written. The file looks like ${guess.format} (try --from ${guess.format}): it imports ${guess.imported} of the first ${guess.tried} records`);
}

/** `--roundtrip`: every row rendered unedited against what it logged; false when one differs or cannot be rendered. */
function printRoundTrip(importer: RegisteredImporter, result: CheckedImport, io: CommandOutput): boolean {
  if (importer.renderer === undefined) {
    io.err(`herald import: round trip: ${importer.format} has no renderer: every logged value of its rows is frozen under an edit`);
    return false;
  }
  const { total, misses } = roundTrip(result.rows.map((r) => r.trajectory), importer.renderer);
  io.err(`herald import: round trip: ${total - misses.length} of ${total} records re-render byte-identical (${importer.renderer.renders.map((k) => `meta.${k}`).join(', ')})`);
  const at = new Map(result.rows.map((r) => [r.trajectory, r.at]));
  const lines = misses.map((miss) => {
    const where = at.get(miss.row);
    const record = where === undefined ? miss.row.id : `${where.file}:${where.line}`;
    return miss.reason !== undefined ? `  ${record}: not rendered: ${miss.reason}` : `  ${record}: meta.${miss.key} differs from offset ${miss.offset}`;
  });
  for (const line of lines.slice(0, listed)) io.err(escapeControls(line));
  if (lines.length > listed) io.err(`  … and ${lines.length - listed} more`);
  return misses.length === 0;
}

export async function runImportCommand(args: readonly string[], io: CommandOutput & { write: (text: string) => void }): Promise<number> {
  const parsed = parseCommandLine(importCommand, args, io);
  if (parsed === 'help') {
    io.out(formatsHelp());
    return 0;
  }
  if (typeof parsed === 'number') return parsed;
  const { values, positionals } = parsed;
  const importer = values.from === undefined ? undefined : importerFor(values.from);
  if (importer === undefined) return usageError('import', '--from FORMAT is required', io);
  if (values.out === undefined && values.roundtrip !== true) return usageError('import', "--out FILE is required ('-' for stdout), unless --roundtrip only checks", io);
  const options = rawOptions(values.option ?? []);
  if (typeof options === 'string') return usageError('import', options, io);
  const reads: ReadFile[] = [...positionals.map((file) => ({ file, what: 'a log this import reads' })), ...(values.corpus === undefined ? [] : [{ file: values.corpus, what: 'the corpus' }])];
  const target = values.out === undefined ? null : values.out === '-' ? { kind: 'stdout' as const } : outputTarget('import', values.out, reads, io);
  if (target === undefined) return usageExit;
  const trust = commandTrust('import', values['max-input-mib'], io);
  if (typeof trust === 'number') return trust;
  const files = readLogs(positionals, trust, io);
  if (files === undefined) return usageExit;

  const outcome = await importer.run(files, options);
  if (!outcome.ok) return usageError('import', `--from ${importer.format}: ${outcome.reason}`, io);
  printSummary(importer.format, outcome.result, io);
  const resolved = values.corpus === undefined ? undefined : await resolveAgainst(values.corpus, outcome.result, trust, io);
  if (values.corpus !== undefined && resolved === undefined) return usageExit;
  if (outcome.result.rows.length === 0) {
    await suggestFormat(importer.format, files, io);
    return 1;
  }
  const profile = profilePool(resolved ?? outcome.result.rows.map((r) => r.trajectory));
  for (const line of profileLines(profile, resolved !== undefined)) io.err(line);
  const rendered = values.roundtrip === true ? printRoundTrip(importer, outcome.result, io) : true;
  if (target !== null && !writeOutput(target, poolLines(outcome.result), io, values.quiet)) return usageExit;
  return rendered ? 0 : 1;
}
