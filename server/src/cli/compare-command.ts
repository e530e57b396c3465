import * as path from 'node:path';
import { SpecVersion } from '../host/spec-version.js';
import { probeFileUnder } from '../inputs/file-probe.js';
import { LineIndex } from '../problems/line-index.js';
import { newReport } from '../report/schema.js';
import { analysisFormats, isAnalysisFormat, printReadNews, writeReport } from './analysis-output.js';
import { escapeControls } from '../report/escape-text.js';
import { allowCommandsOption, commandConsent, refuseCommands } from './command-consent.js';
import { formatPaperTables } from '../render/format-paper-tables.js';
import { paperTableFormats, type PaperTableFormat } from '../render/paper-tables.js';
import { commandTrust, maxInputOption, parseCommandLine, unknownName, usageError, usageExit, type CommandSpec, type OptionSpec } from './command-line.js';
import { printRunProblems, readSpec, type CommandOutput } from './check-command.js';
import { filesRead, fitsTerminal, outputTarget, writeOutput } from './output-file.js';

export const compareCommand = {
  name: 'compare',
  operands: '<spec.reward>',
  positionals: { min: 1, max: 1 },
  brief: "paired comparison of two trained policies' evaluation logs",
  summary: "the paired policy comparison: two arms evaluated on the same question ids and samples (meta.sample), paired differences (treatment − base) with question-cluster bootstrap intervals per benchmark (meta.benchmark) and equal-suite, for EM, F1, citation precision, support recall, unsupported citations, natural detector incidence and first-visible attackability under the spec's fixed scorer",
  options: {
    base: { type: 'string', multiple: true, value: 'FILE', help: "evaluation log(s) of the base policy; replace the comparison block's base (give --treatment too)" },
    treatment: { type: 'string', multiple: true, value: 'FILE', help: "evaluation log(s) of the treatment policy; replace the comparison block's treatment (give --base too)" },
    comparison: { type: 'string', value: 'NAME', help: 'run only the comparison block NAME; a name the spec does not declare is a usage error' },
    'max-input-mib': maxInputOption,
    'allow-commands': allowCommandsOption,
    format: { type: 'string', choices: analysisFormats, default: 'table', help: 'the report as a readable table, the JSON report (docs/report.md) or a standalone HTML page' },
    tables: {
      type: 'string', value: 'FORM', choices: paperTableFormats,
      help: "print only the paper's Table 4 of each comparison instead of the report: metric × benchmark and equal-suite, each the paired difference with its 95% interval, and the EM non-inferiority row; over all rows and, with `greedy`, over the greedy and the sampled rows; as aligned text, CSV or Markdown (with --format table)",
    },
    out: { type: 'string', value: 'FILE', help: 'write the report to FILE instead of stdout; refused, with nothing written, when FILE is the spec, a file the run reads or not a regular file; replaced only once the report is written whole' },
  },
  exit: '0 when the EM non-inferiority gate passes on every benchmark, 1 when it fails, 2 on spec errors, unreadable input or bad usage',
} as const satisfies CommandSpec<Readonly<Record<string, OptionSpec>>>;

function isTablesForm(form: string): form is PaperTableFormat {
  return paperTableFormats.some((f) => f === form);
}

export async function runCompareCommand(args: readonly string[], io: CommandOutput & { write: (text: string) => void }): Promise<number> {
  const parsed = parseCommandLine(compareCommand, args, io);
  if (parsed === 'help') return 0;
  if (typeof parsed === 'number') return parsed;
  const { values, positionals } = parsed;
  const { format } = values;
  if (!isAnalysisFormat(format)) return usageExit;
  const tables = values.tables;
  if (tables !== undefined && (!isTablesForm(tables) || format !== 'table')) {
    return usageError('compare', "--tables prints the paper's Table 4 in place of the report: use it with --format table", io);
  }
  // One arm from the command line and the other from the spec would pair logs nobody named together.
  if ((values.base === undefined) !== (values.treatment === undefined)) return usageError('compare', '--base and --treatment go together: give both arms or neither', io);
  const limits = commandTrust('compare', values['max-input-mib'], io);
  if (typeof limits === 'number') return limits;
  const specFile = positionals[0]!;
  const text = readSpec(specFile, io);
  if (text === undefined) return 2;
  const version = SpecVersion.ofText(text, path.resolve(specFile), { probeFile: probeFileUnder(limits) });
  const { spec } = version.analyzed.parsed;
  const unknown = unknownName('compare', 'comparison', 'comparison', values.comparison, spec.decls, io);
  if (unknown !== undefined) return unknown;
  const consent = commandConsent(values['allow-commands']);
  const refused = refuseCommands('compare', specFile, text, spec, undefined, consent, io);
  if (refused !== undefined) return refused;
  const trust = limits.withCommands(consent);
  const progress = (message: string): void => io.err(escapeControls(`herald: ${message}`));
  const logs = [...(values.base ?? []).map((file) => ({ file, what: 'an evaluation log named by --base' })), ...(values.treatment ?? []).map((file) => ({ file, what: 'an evaluation log named by --treatment' }))];
  const target = outputTarget('compare', values.out, filesRead(specFile, spec, logs), io);
  if (target === undefined) return 2;
  const outcome = await version.compare({ only: values.comparison, baseFiles: values.base, treatmentFiles: values.treatment, trust, onProgress: progress });
  const lines = new LineIndex(text);
  printRunProblems(specFile, lines, outcome, io);
  if (outcome.runError !== undefined) io.err(escapeControls(`herald compare: ${outcome.runError}`));
  if (outcome.reports === undefined) return 2;
  const report = newReport(path.basename(specFile), { audits: [], comparisons: [...outcome.reports] });
  if (tables === undefined ? !writeReport(report, format, target, io) : !writeOutput(target, formatPaperTables(report, tables, { fit: fitsTerminal(target, io) }), io)) return 2;
  printReadNews(specFile, lines, report, outcome.model, path.dirname(path.resolve(specFile)), io);
  const failed = outcome.reports.filter((r) => !r.nonInferiority.passed);
  for (const r of failed) io.err(escapeControls(`herald: ${r.name}: EM non-inferiority fails on ${r.nonInferiority.benchmarks.filter((b) => !b.passed).map((b) => b.benchmark).join(', ') || 'every benchmark (no pairs)'}`));
  return failed.length > 0 ? 1 : 0;
}
