// The one list of importers (`herald import --from`, `pool … from FORMAT(...)` in a spec), and the
// one way to run one: options checked against the importer's schema, and every row it produces
// checked against the pool format, so an importer's mistake is a skipped record with a reason,
// never a row the audit misreads.
import { parsePoolRow } from '../pool/schemas.js';
import { rowLimitReason } from './row-limits.js';
import type { Trajectory } from '../pool/types.js';
import type { FormatRenderer } from './render.js';
import type { ImportedRow, ImportFile, Importer, ImportIssue, ImportSummary, OptionValue, RawOptions } from './importer.js';
import { artImporter } from './art.js';
import { browseCompPlusImporter } from './browsecomp-plus.js';
import { messagesImporter } from './messages.js';
import { r1SearcherImporter } from './r1-searcher-importer.js';
import { rllmImporter } from './rllm.js';
import { skyrlImporter } from './skyrl-importer.js';
import { trlImporter } from './trl.js';
import { verlImporter } from './verl-importer.js';

/** An imported row with the trajectory the pool format read from it (source: the importer's file:line, pool = the format). */
export interface CheckedRow extends ImportedRow {
  readonly trajectory: Trajectory;
}

export interface CheckedImport extends ImportSummary {
  readonly rows: readonly CheckedRow[];
}

export type ImportOutcome = { readonly ok: true; readonly result: CheckedImport } | { readonly ok: false; readonly reason: string };
export type StreamOutcome = { readonly ok: true; readonly summary: ImportSummary } | { readonly ok: false; readonly reason: string };

/** An importer with its option type erased, so the list can hold them all. */
export interface RegisteredImporter {
  readonly format: string;
  readonly summary: string;
  readonly optionDocs: Readonly<Record<string, string>>;
  /** The values an option takes when they are a closed list, each with its doc; none for a free-text option. */
  optionValues(option: string): readonly OptionValue[];
  /** Every checked row handed to `onRow` as it is made; the summary counts only rows that passed the check. */
  stream(files: readonly ImportFile[], options: RawOptions, onRow: (row: CheckedRow) => void): Promise<StreamOutcome>;
  /** The same, with the rows collected (`herald import`, which writes them all). */
  run(files: readonly ImportFile[], options: RawOptions): Promise<ImportOutcome>;
  /** What is wrong with options as written, before any file is read: each problem with the option it is about, if one. */
  checkOptions(options: RawOptions): readonly OptionProblem[];
  /** How a row of this format is written back (./render.ts); undefined: its logged values are all frozen. */
  readonly renderer: FormatRenderer | undefined;
}

export interface OptionProblem {
  readonly option: string | undefined;
  readonly message: string;
}

function optionsReason(issues: readonly { readonly path: readonly PropertyKey[]; readonly message: string }[]): string {
  return issues.map((issue) => (issue.path.length === 0 ? issue.message : `option ${issue.path.map(String).join('.')}: ${issue.message}`)).join('; ');
}

export function registered<O>(importer: Importer<O>): RegisteredImporter {
  const stream: RegisteredImporter['stream'] = async (files, raw, onRow) => {
    const options = importer.options.safeParse(raw);
    if (!options.success) return { ok: false, reason: optionsReason(options.error.issues) };
    let imported = 0;
    const refused: ImportIssue[] = [];
    const summary = await importer.run(files, options.data, (made) => {
      const beyond = rowLimitReason(made.row);
      if (beyond !== undefined) {
        refused.push({ at: made.at, reason: beyond });
        return;
      }
      const checked = parsePoolRow(made.row, { pool: importer.format, file: made.at.file, line: made.at.line });
      if (!checked.ok) {
        refused.push({ at: made.at, reason: `the ${importer.format} importer made a row the pool format refuses: ${checked.reason}` });
        return;
      }
      imported++;
      onRow({ ...made, trajectory: checked.value });
    });
    // Appended in place: 100,000 skipped records are reported in linear time and one copy.
    const skipped: ImportIssue[] = [];
    for (const issue of summary.skipped) skipped.push(issue);
    for (const issue of refused) skipped.push(issue);
    return { ok: true, summary: { ...summary, skipped, counts: { ...summary.counts, imported, skipped: skipped.length } } };
  };
  return {
    format: importer.format,
    summary: importer.summary,
    optionDocs: importer.optionDocs,
    optionValues: (option) => (importer.optionValues !== undefined && Object.hasOwn(importer.optionValues, option) ? importer.optionValues[option] ?? [] : []),
    checkOptions(raw) {
      const options = importer.options.safeParse(raw);
      if (options.success) return [];
      return options.error.issues.map((issue) => ({ option: issue.path.length === 0 ? undefined : String(issue.path[0]), message: issue.message }));
    },
    stream,
    renderer: importer.renderer,
    async run(files, raw) {
      const rows: CheckedRow[] = [];
      const outcome = await stream(files, raw, (row) => rows.push(row));
      return outcome.ok ? { ok: true, result: { ...outcome.summary, rows } } : outcome;
    },
  };
}

/** Every importer, in the order `herald import --help` lists them. */
export const importers: readonly RegisteredImporter[] = [
  registered(verlImporter),
  registered(skyrlImporter),
  registered(r1SearcherImporter),
  registered(trlImporter),
  registered(rllmImporter),
  registered(artImporter),
  registered(browseCompPlusImporter),
  registered(messagesImporter),
];

export function importerFor(format: string): RegisteredImporter | undefined {
  return importers.find((importer) => importer.format === format);
}

/** The keys under `meta` that a pool read through `format` renders after an edit; empty for a format with no renderer or a pool read as a file. */
export function renderedKeys(format: string | undefined): readonly string[] {
  return (format === undefined ? undefined : importerFor(format)?.renderer?.renders) ?? [];
}
