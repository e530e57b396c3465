// The options of the tagged-transcript containers: which dialect the transcripts are written in, and
// the marker the question follows in the prompt.
import { z } from 'zod';
import { dialectNamed, dialectNames } from './tagged-dialects.js';

/** A dialect's name, read into its table entry; a name not in the table is an option error that lists them. */
export const dialectOption = z.string().default('search_r1').transform((name, ctx) => {
  const dialect = dialectNamed(name);
  if (dialect !== undefined) return dialect;
  ctx.addIssue({ code: 'custom', message: `unknown dialect '${name}'; expected one of ${dialectNames.join(', ')}` });
  return z.NEVER;
});
export const questionMarkerOption = z.string().min(1).default('Question:');

export const taggedOptionDocs = {
  dialect: 'how the transcripts are tagged: search_r1 (default), r1_searcher, research or hermes (docs/import.md, "Dialects")',
  question_marker: "the text the question follows in the prompt; the question runs to the end of that line (default 'Question:', Search-R1's template)",
} as const;
