import * as path from 'node:path';
import { compareSpec } from '../compare/compare-spec.js';
import { LineIndex } from '../problems/line-index.js';
import { newReport } from '../report/schema.js';
import { isAnalysisFormat, writeReport } from './analysis-output.js';
import { escapeControls } from '../report/escape-text.js';
import { parseCommandArgs, printRunProblems, readSpec, type CommandOutput } from './check-command.js';
import { filesRead, outputTarget } from './output-file.js';

export const compareUsage = `herald compare <spec.reward> [--base FILE… --treatment FILE…] [--comparison NAME] [--format table|json|html] [--out FILE]
  the paired policy comparison: two arms evaluated on the same question ids and samples (meta.sample),
  paired differences (treatment − base) with question-cluster bootstrap intervals per benchmark
  (meta.benchmark) and equal-suite, for EM, F1, citation precision, support recall, unsupported
  citations, natural detector incidence and first-visible attackability under the spec's fixed scorer
  --base, --treatment   evaluation logs; replace the comparison block's base and treatment
  exit 0 when the EM non-inferiority gate passes on every benchmark, 1 when it fails,
  2 on spec errors, bad usage or unreadable input`;

export async function runCompareCommand(args: readonly string[], io: CommandOutput & { write: (text: string) => void }): Promise<number> {
  const parsed = parseCommandArgs('compare', compareUsage, args, {
    base: { type: 'string', multiple: true }, treatment: { type: 'string', multiple: true }, comparison: { type: 'string' },
    format: { type: 'string', default: 'table' }, out: { type: 'string' },
  }, io);
  if (parsed === undefined) return 2;
  const { values, positionals } = parsed;
  // One arm from the command line and the other from the spec would pair logs nobody named together.
  if (positionals.length !== 1 || !isAnalysisFormat(values.format) || (values.base === undefined) !== (values.treatment === undefined)) {
    io.err(compareUsage);
    return 2;
  }
  const specFile = positionals[0]!;
  const text = readSpec(specFile, io);
  if (text === undefined) return 2;
  const logs = [...(values.base ?? []).map((file) => ({ file, what: 'an evaluation log named by --base' })), ...(values.treatment ?? []).map((file) => ({ file, what: 'an evaluation log named by --treatment' }))];
  const target = outputTarget('compare', values.out, filesRead(specFile, text, logs), io);
  if (target === undefined) return 2;
  const outcome = await compareSpec(text, path.resolve(specFile), { only: values.comparison, baseFiles: values.base, treatmentFiles: values.treatment });
  const lines = new LineIndex(text);
  printRunProblems(specFile, lines, outcome, io);
  if (outcome.runError !== undefined) io.err(escapeControls(`herald compare: ${outcome.runError}`));
  if (outcome.reports === undefined) return 2;
  if (!writeReport(newReport(path.basename(specFile), { audits: [], comparisons: [...outcome.reports] }), values.format, target, io)) return 2;
  const failed = outcome.reports.filter((r) => !r.nonInferiority.passed);
  for (const r of failed) io.err(escapeControls(`herald: ${r.name}: EM non-inferiority fails on ${r.nonInferiority.benchmarks.filter((b) => !b.passed).map((b) => b.benchmark).join(', ') || 'every benchmark (no pairs)'}`));
  return failed.length > 0 ? 1 : 0;
}
