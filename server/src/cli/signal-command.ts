import * as path from 'node:path';
import { SpecVersion } from '../host/spec-version.js';
import { probeFileUnder } from '../inputs/file-probe.js';
import { LineIndex } from '../problems/line-index.js';
import { newReport } from '../report/schema.js';
import { analysisFormats, isAnalysisFormat, printReadNews, writeReport } from './analysis-output.js';
import { signalFindings } from '../findings/signal-findings.js';
import { escapeControls } from '../report/escape-text.js';
import { commandTrust, maxInputOption, parseCommandLine, unknownName, usageError, usageExit, type CommandSpec, type OptionSpec } from './command-line.js';
import { printFindings, printRunProblems, readSpec, type CommandOutput } from './check-command.js';
import { filesRead, outputTarget } from './output-file.js';
import { allowCommandsOption, commandConsent, refuseCommands } from './command-consent.js';

export const signalCommand = {
  name: 'signal',
  operands: '<spec.reward>',
  positionals: { min: 1, max: 1 },
  brief: "does a detector's penalty reach a group-normalised optimizer?",
  summary: 'the training-signal audit: for the reward a policy was trained with and each of its detectors, how many logged update groups (meta.group) the detector fires in, how many of them are mixed, and in how many the group-normalised advantage changes because of it or is exactly cancelled; per meta.step',
  options: {
    log: { type: 'string', multiple: true, value: 'FILE', help: "training log(s) in the pool format with meta.group and meta.step; replace the training block's log (repeat for several)" },
    training: { type: 'string', value: 'NAME', help: 'run only the training block NAME; a name the spec does not declare is a usage error' },
    reward: { type: 'string', value: 'R', help: 'without a training block in the spec: the reward to audit (with --log, and --corpus when the spec has several)' },
    corpus: { type: 'string', value: 'C', help: 'with --reward: the corpus the reward reads' },
    normalize: { type: 'string', choices: ['std', 'mean'], help: "how advantages are normalised per group: divided by the group's standard deviation, or only centred (default: the block's, else std)" },
    'min-groups': { type: 'string', value: 'N', help: "a detector whose penalty changes the advantages in fewer than N groups is reported (default: the block's, else 5)" },
    'max-input-mib': maxInputOption,
    'allow-commands': allowCommandsOption,
    format: { type: 'string', choices: analysisFormats, default: 'table', help: 'the report as a readable table, the JSON report (docs/report.md) or a standalone HTML page' },
    out: { type: 'string', value: 'FILE', help: 'write the report to FILE instead of stdout; refused, with nothing written, when FILE is the spec, a file the run reads or not a regular file; replaced only once the report is written whole' },
  },
  exit: '0 when every detector changes the advantages in at least min_groups groups, 1 otherwise, 2 on spec errors, unreadable input or bad usage',
} as const satisfies CommandSpec<Readonly<Record<string, OptionSpec>>>;

export async function runSignalCommand(args: readonly string[], io: CommandOutput & { write: (text: string) => void }): Promise<number> {
  const parsed = parseCommandLine(signalCommand, args, io);
  if (parsed === 'help') return 0;
  if (typeof parsed === 'number') return parsed;
  const { values, positionals } = parsed;
  const minGroups = values['min-groups'] === undefined ? undefined : Number(values['min-groups']);
  const { normalize, format } = values;
  if (minGroups !== undefined && (!Number.isInteger(minGroups) || minGroups < 1)) return usageError('signal', `--min-groups takes a whole number of at least 1, not '${values['min-groups'] ?? ''}'`, io);
  if (!isAnalysisFormat(format) || (normalize !== undefined && normalize !== 'std' && normalize !== 'mean')) return usageExit;
  const limits = commandTrust('signal', values['max-input-mib'], io);
  if (typeof limits === 'number') return limits;
  const specFile = positionals[0]!;
  const text = readSpec(specFile, io);
  if (text === undefined) return 2;
  const version = SpecVersion.ofText(text, path.resolve(specFile), { probeFile: probeFileUnder(limits) });
  const { spec } = version.analyzed.parsed;
  const decls = spec.decls;
  const unknown = unknownName('signal', 'training', 'training', values.training, decls, io)
    ?? unknownName('signal', 'reward', 'reward', values.reward, decls, io)
    ?? unknownName('signal', 'corpus', 'corpus', values.corpus, decls, io);
  if (unknown !== undefined) return unknown;
  const consent = commandConsent(values['allow-commands']);
  const refused = refuseCommands('signal', specFile, text, spec, undefined, consent, io);
  if (refused !== undefined) return refused;
  const trust = limits.withCommands(consent);
  const target = outputTarget('signal', values.out, filesRead(specFile, spec, (values.log ?? []).map((file) => ({ file, what: 'a training log named by --log' }))), io);
  if (target === undefined) return 2;
  const outcome = await version.signal({
    only: values.training, logFiles: values.log, reward: values.reward, corpus: values.corpus, normalization: normalize, minGroups, trust,
    onProgress: (message) => io.err(escapeControls(`herald: ${message}`)),
  });
  const lines = new LineIndex(text);
  printRunProblems(specFile, lines, outcome, io);
  if (outcome.runError !== undefined) io.err(escapeControls(`herald signal: ${outcome.runError}`));
  if (outcome.reports === undefined) return 2;
  const report = newReport(path.basename(specFile), { audits: [], signals: [...outcome.reports] });
  if (!writeReport(report, format, target, io)) return 2;
  printReadNews(specFile, lines, report, outcome.model, path.dirname(path.resolve(specFile)), io);
  // A block named on the command line (--reward) is not in the spec: its detectors are named here.
  const findings = signalFindings(outcome.reports, outcome.model);
  printFindings(specFile, lines, findings, io);
  const unplaced = outcome.reports.filter((r) => r.range === null).flatMap((r) => r.detectors.filter((d) => !d.reachesOptimizer).map((d) => `${r.name}: ${d.name} changes the advantages in ${d.changedGroups} of ${r.groups} groups (< ${r.minGroups})`));
  for (const line of unplaced) io.err(escapeControls(`herald: sparse training signal: ${line}`));
  return findings.length > 0 || unplaced.length > 0 ? 1 : 0;
}
