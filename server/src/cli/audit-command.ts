import * as fs from 'node:fs';
import * as path from 'node:path';
import { auditSpec } from '../audit/audit-spec.js';
import { baselineFileOf, makeBaseline, readBaseline, regressionProblems, writeBaseline } from '../audit/baseline.js';
import { auditProblems } from '../findings/audit-findings.js';
import { formatHtml } from '../render/format-html.js';
import { formatSarif } from '../render/format-sarif.js';
import { formatTable } from '../render/format-table.js';
import type { Report } from '../report/schema.js';
import { LineIndex } from '../problems/line-index.js';
import { formatProblem, parseCommandArgs, printRunProblems, readSpec, type CommandOutput } from './check-command.js';

const formats = ['table', 'json', 'sarif', 'html'] as const;
type Format = (typeof formats)[number];

export const auditUsage = `herald audit <spec.reward> [--format table|json|sarif|html] [--out FILE] [--audit NAME] [--quiet] [--update-baseline]
                    [--cache-dir DIR | --no-cache]
  runs every audit in the spec (or the one named) against its linked pools
  --cache-dir DIR     where laundering-candidate rankings are kept between runs (default: $HERALD_CACHE_DIR,
                      else $XDG_CACHE_HOME/herald, else ~/.cache/herald); --no-cache keeps none
  --quiet             print no progress and no 'wrote FILE' lines on stderr; problems, skipped rows and
                      failed expectations still print
  --update-baseline   accept the figures: write <spec>.baseline.json (commit it); later runs report
                      every attack success rate or bound that rose against it as a regression
  exit 0 when every expect line holds and nothing regressed, 1 otherwise, 2 on spec errors or unreadable input`;

function render(report: Report, format: Format, specFile: string): string {
  switch (format) {
    case 'table':
      return formatTable(report);
    case 'json':
      return `${JSON.stringify(report, null, 2)}\n`;
    case 'sarif':
      return formatSarif(report, path.relative(process.cwd(), specFile).split(path.sep).join('/'));
    case 'html':
      return formatHtml(report);
  }
}

export async function runAuditCommand(args: readonly string[], io: CommandOutput & { write: (text: string) => void }): Promise<number> {
  const parsed = parseCommandArgs('audit', auditUsage, args, {
    format: { type: 'string', default: 'table' }, out: { type: 'string' }, audit: { type: 'string' },
    quiet: { type: 'boolean', default: false }, 'update-baseline': { type: 'boolean', default: false },
    'cache-dir': { type: 'string' }, 'no-cache': { type: 'boolean', default: false },
  }, io);
  if (parsed === undefined) return 2;
  const { values, positionals } = parsed;
  const format = values.format as Format;
  if (positionals.length !== 1 || !formats.includes(format)) {
    io.err(auditUsage);
    return 2;
  }
  const specFile = positionals[0]!;
  const text = readSpec(specFile, io);
  if (text === undefined) return 2;

  const progress = values.quiet ? () => undefined : (message: string) => io.err(`herald: ${message}`);
  const candidateCache = values['no-cache'] ? false : values['cache-dir'];
  const outcome = await auditSpec(text, path.resolve(specFile), { only: values.audit, onProgress: progress, candidateCache });
  const lines = new LineIndex(text);
  printRunProblems(specFile, lines, outcome, io);
  for (const problem of auditProblems(undefined, [], outcome.failures, outcome.model, text, path.dirname(path.resolve(specFile)))) io.err(formatProblem(specFile, lines, problem));
  if (outcome.report === undefined) return 2;

  const rendered = render(outcome.report, format, specFile);
  if (values.out !== undefined) {
    fs.writeFileSync(values.out, rendered);
    if (!values.quiet) io.err(`herald: wrote ${values.out}`);
  } else {
    io.write(rendered);
  }
  const failed = outcome.report.audits.flatMap((a) => a.expectations.filter((e) => !e.passed).map((e) => `${a.name}: ${e.text} (${e.actual})`));
  for (const failure of failed) io.err(`herald: expectation failed: ${failure}`);

  const baselineFile = baselineFileOf(specFile);
  if (values['update-baseline']) {
    writeBaseline(baselineFile, makeBaseline(outcome.report, outcome.model));
    if (!values.quiet) io.err(`herald: wrote the baseline ${baselineFile}`);
    return failed.length > 0 ? 1 : 0;
  }
  const baseline = readBaseline(baselineFile);
  if (baseline.kind === 'invalid') {
    io.err(`${baselineFile}: not a baseline (${baseline.reason}); run with --update-baseline to rewrite it`);
    return 2;
  }
  const regressed = baseline.kind === 'ok' ? regressionProblems(outcome.report, baseline.baseline, outcome.model) : [];
  for (const problem of regressed) io.err(formatProblem(specFile, lines, problem));
  return failed.length > 0 || regressed.length > 0 ? 1 : 0;
}
