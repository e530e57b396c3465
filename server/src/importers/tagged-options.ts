// The options of the tagged-transcript containers: which dialect the transcripts are written in, and
// the marker the question follows in the prompt.
import { z } from 'zod';
import type { Importer, OptionValue } from './importer.js';
import type { JsonRecord } from './jsonl-records.js';
import { dialectNamed, dialectNames, dialects } from './tagged-dialects.js';
import { importTagged, type FieldsRead } from './tagged-import.js';
import { taggedRenderer } from './tagged-render.js';

/** A dialect's name, read into its table entry; a name not in the table is an option error that lists them. */
export const dialectOption = z.string().default('search_r1').transform((name, ctx) => {
  const dialect = dialectNamed(name);
  if (dialect !== undefined) return dialect;
  ctx.addIssue({ code: 'custom', message: `unknown dialect '${name}'; expected one of ${dialectNames.join(', ')}` });
  return z.NEVER;
});
export const questionMarkerOption = z.string().min(1).default('Question:');

export const taggedOptionDocs = {
  dialect: `how the transcripts are tagged: ${dialectNames.join(', ')}; search_r1 when not given (docs/import.md, "Dialects")`,
  question_marker: "the text the question follows in the prompt; the question runs to the end of that line (default 'Question:', Search-R1's template)",
} as const;

/** The dialects, for completion after `dialect:`. */
export const taggedOptionValues: Readonly<Record<string, readonly OptionValue[]>> = {
  dialect: dialects.map((d) => ({ value: d.name, doc: d.summary })),
};

const promptOptions = z.strictObject({ dialect: dialectOption, question_marker: questionMarkerOption });
export type PromptOptions = z.infer<typeof promptOptions>;

/**
 * A container that logs the prompt and the tagged response of each sample (verl, SkyRL): its options
 * are the dialect and the question marker, and a row without a group is named by its file:line.
 */
export function promptImporter(format: string, summary: string, fields: (record: JsonRecord, questionMarker: string) => FieldsRead): Importer<PromptOptions> {
  return {
    format,
    summary,
    options: promptOptions,
    optionDocs: taggedOptionDocs,
    optionValues: taggedOptionValues,
    renderer: taggedRenderer,
    run(files, opts, emit) {
      return Promise.resolve(importTagged(files, {
        format, dialect: opts.dialect,
        fields: (record) => fields(record, opts.question_marker),
        soloId: (_f, at) => `${at.file}:${at.line}`,
      }, emit));
    },
  };
}
