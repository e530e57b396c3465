import * as path from 'node:path';
import { signalSpec } from '../signal/signal-spec.js';
import { LineIndex } from '../problems/line-index.js';
import { newReport } from '../report/schema.js';
import { isAnalysisFormat, writeReport } from './analysis-output.js';
import { signalFindings } from '../findings/signal-findings.js';
import { escapeControls } from '../report/escape-text.js';
import { parseCommandArgs, printFindings, printRunProblems, readSpec, type CommandOutput } from './check-command.js';
import { filesRead, outputTarget } from './output-file.js';

export const signalUsage = `herald signal <spec.reward> [--log FILE…] [--training NAME] [--reward R --corpus C] [--normalize std|mean]
              [--min-groups N] [--format table|json|html] [--out FILE]
  the training-signal audit: for the reward a policy was trained with and each of its detectors, how
  many logged update groups (meta.group) the detector fires in, how many of them are mixed, and in how
  many the group-normalised advantage changes because of it or is exactly cancelled; per meta.step
  --log FILE          training log(s) (pool format with meta.group, meta.step); replace the block's log
  --reward R          without a training block in the spec: the reward to audit (and --corpus)
  exit 0 when every detector changes the advantages in at least min_groups groups, 1 otherwise,
  2 on spec errors, bad usage or unreadable input`;

export async function runSignalCommand(args: readonly string[], io: CommandOutput & { write: (text: string) => void }): Promise<number> {
  const parsed = parseCommandArgs('signal', signalUsage, args, {
    log: { type: 'string', multiple: true }, training: { type: 'string' }, reward: { type: 'string' }, corpus: { type: 'string' },
    normalize: { type: 'string' }, 'min-groups': { type: 'string' }, format: { type: 'string', default: 'table' }, out: { type: 'string' },
  }, io);
  if (parsed === undefined) return 2;
  const { values, positionals } = parsed;
  const minGroups = values['min-groups'] === undefined ? undefined : Number(values['min-groups']);
  const normalize = values.normalize;
  if (positionals.length !== 1 || !isAnalysisFormat(values.format) || (normalize !== undefined && normalize !== 'std' && normalize !== 'mean')
    || (minGroups !== undefined && (!Number.isInteger(minGroups) || minGroups < 1))) {
    io.err(signalUsage);
    return 2;
  }
  const specFile = positionals[0]!;
  const text = readSpec(specFile, io);
  if (text === undefined) return 2;
  const target = outputTarget('signal', values.out, filesRead(specFile, text, (values.log ?? []).map((file) => ({ file, what: 'a training log named by --log' }))), io);
  if (target === undefined) return 2;
  const outcome = await signalSpec(text, path.resolve(specFile), {
    only: values.training, logFiles: values.log, reward: values.reward, corpus: values.corpus, normalization: normalize, minGroups,
  });
  const lines = new LineIndex(text);
  printRunProblems(specFile, lines, outcome, io);
  if (outcome.runError !== undefined) io.err(escapeControls(`herald signal: ${outcome.runError}`));
  if (outcome.reports === undefined) return 2;
  if (!writeReport(newReport(path.basename(specFile), { audits: [], signals: [...outcome.reports] }), values.format, target, io)) return 2;
  // A block named on the command line (--reward) is not in the spec: its detectors are named here.
  const findings = signalFindings(outcome.reports, outcome.model);
  printFindings(specFile, lines, findings, io);
  const unplaced = outcome.reports.filter((r) => r.range === null).flatMap((r) => r.detectors.filter((d) => !d.reachesOptimizer).map((d) => `${r.name}: ${d.name} changes the advantages in ${d.changedGroups} of ${r.groups} groups (< ${r.minGroups})`));
  for (const line of unplaced) io.err(escapeControls(`herald: sparse training signal: ${line}`));
  return findings.length > 0 || unplaced.length > 0 ? 1 : 0;
}
