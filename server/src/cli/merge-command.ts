import { createHash } from 'node:crypto';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { decodePartial, type PartialFile } from '../audit/shards.js';
import { SpecVersion } from '../host/spec-version.js';
import { probeFileUnder } from '../inputs/file-probe.js';
import { escapeControls } from '../report/escape-text.js';
import { paperTableFormats, type PaperTableFormat } from '../render/paper-tables.js';
import { auditFormats, reportAudit } from './audit-command.js';
import { readSpec, type CommandOutput } from './check-command.js';
import { commandTrust, maxInputOption, parseCommandLine, usageError, usageExit, type CommandSpec, type OptionSpec } from './command-line.js';
import { filesRead, outputTarget } from './output-file.js';

export const mergeCommand = {
  name: 'merge',
  operands: '<partial…>',
  positionals: { min: 1, max: Infinity },
  brief: "merge the shards of an audit (herald audit --shard I/N --partial FILE) into its report",
  summary: "reads every shard's partial file of one audit run (herald audit SPEC --shard I/N --partial FILE, I = 0 … N−1), checks that they are every shard of the same spec over the same data, and writes the report one run over every row would, byte for byte; it loads the spec and its data again but builds no edit (docs/sharding.md)",
  options: {
    format: { type: 'string', choices: auditFormats, default: 'table', help: 'as herald audit --format' },
    tables: { type: 'string', value: 'FORM', choices: paperTableFormats, help: 'as herald audit --tables' },
    out: { type: 'string', value: 'FILE', help: 'as herald audit --out; a partial file is one the run reads' },
    quiet: { type: 'boolean', default: false, help: 'as herald audit --quiet' },
    spec: { type: 'string', value: 'FILE', help: 'read the spec from FILE instead of the path the shards ran it from (another machine\'s checkout); it must be the same text, and its linked files the same bytes' },
    'max-input-mib': maxInputOption,
  },
  exit: 'as herald audit: 0 when every expect line holds, 1 otherwise, 2 when the files are not every shard of one run of the spec over its data as it is now, or on unreadable input or bad usage',
} as const satisfies CommandSpec<Readonly<Record<string, OptionSpec>>>;

export async function runMergeCommand(args: readonly string[], io: CommandOutput & { write: (text: string) => void }): Promise<number> {
  const parsed = parseCommandLine(mergeCommand, args, io);
  if (parsed === 'help') return 0;
  if (typeof parsed === 'number') return parsed;
  const { values, positionals } = parsed;
  const format = auditFormats.find((f) => f === values.format);
  if (format === undefined) return usageExit;
  const tables = values.tables;
  if (tables !== undefined && (!paperTableFormats.some((f) => f === tables) || format !== 'table')) {
    return usageError('merge', "--tables prints the paper's tables in place of the report: use it with --format table", io);
  }
  const limits = commandTrust('merge', values['max-input-mib'], io);
  if (typeof limits === 'number') return limits;
  const partials: PartialFile[] = [];
  for (const file of positionals) {
    let decoded: PartialFile | string;
    try {
      decoded = decodePartial(fs.readFileSync(file));
    } catch (error) {
      decoded = `cannot read: ${error instanceof Error ? error.message : String(error)}`;
    }
    if (typeof decoded === 'string') {
      io.err(escapeControls(`${file}: error: ${decoded}`));
      return 2;
    }
    partials.push(decoded);
  }
  const first = partials[0]!;
  const other = partials.findIndex((p) => p.spec.path !== first.spec.path || p.spec.sha256 !== first.spec.sha256);
  if (other >= 0) {
    io.err(escapeControls(`${positionals[other]}: error: a shard of another spec (${first.spec.path} and ${partials[other]!.spec.path}, or the same spec edited between shards)`));
    return 2;
  }
  const names = (p: PartialFile): string => p.audits.map((a) => a.name).join('\u0000');
  const otherAudits = partials.findIndex((p) => names(p) !== names(first));
  if (otherAudits >= 0) {
    io.err(escapeControls(`${positionals[otherAudits]}: error: a shard of other audits than ${positionals[0]}'s: run every shard with the same --audit`));
    return 2;
  }
  const specPath = path.resolve(values.spec ?? first.spec.path);
  const specFile = values.spec ?? (path.relative(process.cwd(), specPath) || specPath);
  const text = readSpec(specPath, io);
  if (text === undefined) return 2;
  if (createHash('sha256').update(text).digest('hex') !== first.spec.sha256) {
    io.err(escapeControls(`${specFile}: error: not the spec the shards ran (it changed since, or --spec names another): run them again`));
    return 2;
  }
  const version = SpecVersion.ofText(text, specPath, { probeFile: probeFileUnder(limits) });
  const { spec } = version.analyzed.parsed;
  const audits = spec.decls.filter((d) => d.kind === 'audit').length;
  const only = first.audits.length === 1 && audits > 1 ? first.audits[0]!.name : undefined;
  const reads = filesRead(specFile, spec, positionals.map((file) => ({ file, what: 'a partial file the merge reads' })));
  const target = outputTarget('merge', values.out, reads, io);
  if (target === undefined) return 2;
  const progress = values.quiet ? () => undefined : (message: string) => io.err(escapeControls(`herald: ${message}`));
  const outcome = await version.audit({ only, onProgress: progress, trust: limits, shards: { merge: partials } });
  return reportAudit(version, outcome, { specFile, specPath, text, target, format, tables: tables as PaperTableFormat | undefined, quiet: values.quiet, updateBaseline: false }, io);
}
