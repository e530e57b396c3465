import * as path from 'node:path';
import { maxWorkers } from '../threads/parallel-prepare.js';
import { makeBaseline } from '../audit/baseline.js';
import { SpecVersion } from '../host/spec-version.js';
import { probeFileUnder } from '../inputs/file-probe.js';
import { specRelative } from '../inputs/paths.js';
import { baselineFileOf, readBaseline, writeBaseline } from '../inputs/baseline-file.js';
import { auditIssueCodes } from '../problems/issue-codes.js';
import { LineIndex } from '../problems/line-index.js';
import type { Problem } from '../problems/problem.js';
import { formatHtml } from '../render/format-html.js';
import { formatSarif } from '../render/format-sarif.js';
import { formatTable } from '../render/format-table.js';
import { formatPaperTables } from '../render/format-paper-tables.js';
import { paperTableFormats, type PaperTableFormat } from '../render/paper-tables.js';
import type { Report } from '../report/schema.js';
import { escapeControls } from '../report/escape-text.js';
import { commandTrust, maxInputOption, parseCommandLine, unknownName, usageError, usageExit, type CommandSpec, type OptionSpec } from './command-line.js';
import { formatProblem, printFindings, readSpec, type CommandOutput } from './check-command.js';
import { filesRead, fitsTerminal, outputTarget, writeFileTarget, writeOutput, type OutputTarget } from './output-file.js';
import { createHash } from 'node:crypto';
import type { AuditOutcome } from '../audit/audit-spec.js';
import { encodePartial, parseShard, type PartialFile, type Shard } from '../audit/shards.js';
import type { WorkspaceTrust } from '../inputs/trust.js';
import { heraldVersion } from '../version.js';
import { allowCommandsOption, commandConsent, refuseCommands } from './command-consent.js';

export const auditFormats = ['table', 'json', 'sarif', 'html'] as const;
const formats = auditFormats;
type Format = (typeof formats)[number];

export const auditCommand = {
  name: 'audit',
  operands: '<spec.reward>',
  positionals: { min: 1, max: 1 },
  brief: "run the spec's HERALD audits against its linked pools",
  summary: 'runs every audit block of the spec (or the one named by --audit) against its linked pools and prints the report',
  options: {
    format: { type: 'string', choices: formats, default: 'table', help: 'the report as a readable table, the JSON report (docs/report.md), SARIF 2.1.0 with findings on spec lines, or a standalone HTML page' },
    tables: {
      type: 'string', value: 'FORM', choices: paperTableFormats,
      help: "print only the paper's tables of each audit instead of the report: Table 2 (attacks × rewards, first-visible and oracle-worst side by side, n, exact bounds), Table 3 (one row per laundering attack's generators, for an audit with several), the pool-selection robustness table of an audit with `robustness` and the cross-model table (each pool, then the question-weighted aggregate) of an audit over several pools; as aligned text, CSV or Markdown (with --format table)",
    },
    out: { type: 'string', value: 'FILE', help: 'write the report to FILE instead of stdout; refused, with nothing written, when FILE is the spec, a file the run reads or not a regular file; replaced only once the report is written whole' },
    audit: { type: 'string', value: 'NAME', help: 'run only the audit block NAME; a name the spec does not declare is a usage error' },
    quiet: { type: 'boolean', default: false, help: "print no progress and no 'wrote FILE' lines on stderr; problems, skipped rows and failed expectations still print" },
    'update-baseline': { type: 'boolean', default: false, help: 'accept the figures: write <spec>.baseline.json (commit it); later runs report every attack success rate or bound that rose against it as a regression' },
    'cache-dir': { type: 'string', value: 'DIR', help: 'where laundering-candidate rankings and the outputs of candidate commands are kept between runs (default: $HERALD_CACHE_DIR, else $XDG_CACHE_HOME/herald, else ~/.cache/herald)' },
    'no-cache': { type: 'boolean', default: false, help: 'keep no candidate rankings between runs, and run every candidates command again' },
    'max-input-mib': maxInputOption,
    'allow-commands': allowCommandsOption,
    shard: {
      type: 'string', value: 'I/N',
      help: "prepare only shard I of N (counted from 0: a consecutive N-th of each audit's rows) and write it to --partial FILE instead of a report; `herald merge` of every shard's file writes the report one run would (docs/sharding.md)",
    },
    partial: { type: 'string', value: 'FILE', help: 'where --shard writes its prepared rows (a binary file for `herald merge`); refused, with nothing written, when FILE is a file the run reads' },
    workers: {
      type: 'string', value: 'N',
      help: 'threads that prepare an audit (rank candidates, evaluate terms, build edits); default: the number of cores; an audit uses at most one per 10,000 trajectories, and one thread below 20,000; the report is the same for every N',
    },
  },
  exit: '0 when every expect line holds and nothing regressed against the baseline, 1 otherwise, 2 on spec errors, unreadable input, bad usage (an unknown option, format or audit name) or a spec that names a program without --allow-commands',
} as const satisfies CommandSpec<Readonly<Record<string, OptionSpec>>>;

function isFormat(format: string): format is Format {
  return formats.some((f) => f === format);
}

function isTablesForm(form: string): form is PaperTableFormat {
  return paperTableFormats.some((f) => f === form);
}

interface RenderContext {
  /** Cut the table to a terminal's width. */
  readonly fit: boolean;
  readonly findings: readonly Problem[];
  readonly lines: LineIndex;
  readonly specFile: string;
  readonly specPath: string;
}

function render(report: Report, format: Format, ctx: RenderContext): string {
  switch (format) {
    case 'table':
      return formatTable(report, { fit: ctx.fit });
    case 'json':
      return `${JSON.stringify(report, null, 2)}\n`;
    case 'sarif':
      return formatSarif({
        findings: ctx.findings, lines: ctx.lines, report, toolVersion: report.tool.version, specDir: path.dirname(ctx.specPath),
        specUri: specRelative(process.cwd(), ctx.specPath),
      });
    case 'html':
      return formatHtml(report);
  }
}

export async function runAuditCommand(args: readonly string[], io: CommandOutput & { write: (text: string) => void }): Promise<number> {
  const parsed = parseCommandLine(auditCommand, args, io);
  if (parsed === 'help') return 0;
  if (typeof parsed === 'number') return parsed;
  const { values, positionals } = parsed;
  const format = values.format;
  if (!isFormat(format)) return usageExit;
  const tables = values.tables;
  if (tables !== undefined && (!isTablesForm(tables) || format !== 'table')) {
    return usageError('audit', "--tables prints the paper's tables in place of the report: use it with --format table", io);
  }
  const specFile = positionals[0]!;
  const text = readSpec(specFile, io);
  if (text === undefined) return 2;
  const limits = commandTrust('audit', values['max-input-mib'], io);
  if (typeof limits === 'number') return limits;
  const specPath = path.resolve(specFile);
  // The one parse and check of the run: the names, the programs, the files read and the audit all read it.
  const version = SpecVersion.ofText(text, specPath, { probeFile: probeFileUnder(limits) });
  const { spec } = version.analyzed.parsed;
  const unknown = unknownName('audit', 'audit', 'audit', values.audit, spec.decls, io);
  if (unknown !== undefined) return unknown;
  const consent = commandConsent(values['allow-commands']);
  const refused = refuseCommands('audit', specFile, text, spec, values.audit, consent, io);
  if (refused !== undefined) return refused;
  if ((values.shard === undefined) !== (values.partial === undefined)) return usageError('audit', '--shard I/N and --partial FILE go together', io);
  if (values.shard !== undefined) {
    if (values.out !== undefined || tables !== undefined || values['update-baseline'] || format !== 'table') {
      return usageError('audit', '--shard writes no report: --out, --format, --tables and --update-baseline belong to `herald merge` of the shards', io);
    }
    if (values.workers !== undefined) return usageError('audit', '--shard prepares on one thread: run more shards than cores instead of --workers', io);
    const shard = parseShard(values.shard);
    if (typeof shard === 'string') return usageError('audit', shard, io);
    return writeShard(version, shard, { specFile, specPath, text, partial: values.partial!, only: values.audit, quiet: values.quiet, trust: limits.withCommands(consent), candidateCache: values['no-cache'] ? false : values['cache-dir'] }, io);
  }
  const target = outputTarget('audit', values.out, filesRead(specFile, spec), io);
  if (target === undefined) return 2;

  const progress = values.quiet ? () => undefined : (message: string) => io.err(escapeControls(`herald: ${message}`));
  const candidateCache = values['no-cache'] ? false : values['cache-dir'];
  const workers = values.workers === undefined ? undefined : Number(values.workers);
  if (workers !== undefined && !(Number.isInteger(workers) && workers >= 1 && workers <= maxWorkers)) {
    return usageError('audit', `--workers takes a whole number from 1 to ${maxWorkers}, not ${JSON.stringify(values.workers)}`, io);
  }
  const trust = limits.withCommands(consent);
  const outcome = await version.audit({ only: values.audit, onProgress: progress, candidateCache, workers, trust });
  return reportAudit(version, outcome, { specFile, specPath, text, target, format, tables, quiet: values.quiet, updateBaseline: values['update-baseline'] }, io);
}

/** How a run's report is written: what `herald audit` and `herald merge` share. */
interface ReportOptions {
  readonly specFile: string;
  readonly specPath: string;
  readonly text: string;
  readonly target: OutputTarget;
  readonly format: Format;
  readonly tables: PaperTableFormat | undefined;
  readonly quiet: boolean;
  readonly updateBaseline: boolean;
}

/**
 * Prints an audit run's problems and findings and writes its report; the exit code: 0, 1 when an
 * expectation failed or a figure regressed, 2 when there is no report.
 */
export function reportAudit(version: SpecVersion, outcome: AuditOutcome, options: ReportOptions, io: CommandOutput & { write: (text: string) => void }): number {
  const { specFile, specPath, text, target, format, tables, quiet, updateBaseline } = options;
  const lines = new LineIndex(text);
  for (const problem of outcome.problems) io.err(formatProblem(specFile, lines, problem));

  // Findings without the baseline first: a run that accepts the figures does not compare with them.
  const baselineFile = baselineFileOf(specPath);
  const baseline = updateBaseline || outcome.report === undefined ? undefined : { read: readBaseline(baselineFile), file: baselineFile };
  const findings = version.findings({ report: outcome.report, dataIssues: outcome.dataIssues, dataOwners: outcome.dataOwners, failures: outcome.failures, baseline });
  printFindings(specFile, lines, findings, io);
  if (outcome.report === undefined) return 2;

  const fit = fitsTerminal(target, io);
  const rendered = tables === undefined ? render(outcome.report, format, { fit, findings, lines, specFile, specPath }) : formatPaperTables(outcome.report, tables, { fit });
  if (!writeOutput(target, rendered, io, quiet)) return 2;
  if (updateBaseline) {
    const written = writeBaseline(baselineFile, makeBaseline(outcome.report, outcome.model));
    if (!written.ok) {
      io.err(escapeControls(`herald: the baseline was not written: ${written.reason}`));
      return 2;
    }
    if (!quiet) io.err(escapeControls(`herald: wrote the baseline ${specRelative(process.cwd(), baselineFile)}`));
  }
  if (baseline?.read.kind === 'invalid') return 2;
  const failed = findings.some((f) => f.code === auditIssueCodes.expectFailed || f.code === auditIssueCodes.asrRegression || f.code === auditIssueCodes.notConforming);
  return failed ? 1 : 0;
}

interface ShardOptions {
  readonly specFile: string;
  readonly specPath: string;
  readonly text: string;
  readonly partial: string;
  readonly only: string | undefined;
  readonly quiet: boolean;
  readonly trust: WorkspaceTrust;
  readonly candidateCache: string | false | undefined;
}

/** `herald audit --shard I/N --partial FILE`: prepares the shard and writes its parts; 0 when written, 2 otherwise. */
async function writeShard(version: SpecVersion, shard: Shard, options: ShardOptions, io: CommandOutput & { write: (text: string) => void }): Promise<number> {
  const { specFile, text } = options;
  const target = outputTarget('audit', options.partial, filesRead(specFile, version.analyzed.parsed.spec), io);
  if (target === undefined) return 2;
  if (target.kind !== 'file') return usageError('audit', '--partial takes a file', io);
  const progress = options.quiet ? () => undefined : (message: string) => io.err(escapeControls(`herald: ${message}`));
  const outcome = await version.audit({ only: options.only, onProgress: progress, candidateCache: options.candidateCache, trust: options.trust, shards: { write: shard } });
  const lines = new LineIndex(text);
  for (const problem of outcome.problems) io.err(formatProblem(specFile, lines, problem));
  printFindings(specFile, lines, version.findings({ report: undefined, dataIssues: outcome.dataIssues, dataOwners: outcome.dataOwners, failures: outcome.failures }), io);
  if (outcome.shards === undefined) return 2;
  const partial: PartialFile = {
    format: 'herald-partial', version: 1, tool: heraldVersion, shard, audits: outcome.shards,
    spec: { path: options.specPath, sha256: createHash('sha256').update(text).digest('hex') },
  };
  return writeFileTarget(target, [encodePartial(partial)], io, options.quiet) ? 0 : 2;
}
