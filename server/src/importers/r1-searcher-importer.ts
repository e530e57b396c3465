// R1-Searcher's evaluation output: JSONL `{question, answer, pred_ans, stop_reason_final,
// gen_text_store?}` (docs/import.md, "R1-Searcher"). The question is logged; its id is derived. The
// framework's own extracted answer (`pred_ans`) is the answer; the transcript (`gen_text_store`)
// gives the steps in the r1_searcher dialect.
import { z } from 'zod';
import { r1Searcher } from './tagged-dialects.js';
import { taggedRenderer } from './tagged-render.js';
import type { Importer } from './importer.js';
import type { JsonRecord } from './jsonl-records.js';
import { importTagged, type FieldsRead } from './tagged-import.js';

const options = z.strictObject({});
type R1SearcherOptions = z.infer<typeof options>;

function r1Fields(record: JsonRecord): FieldsRead {
  const { question, answer, pred_ans: predicted, stop_reason_final: stop, gen_text_store: transcript } = record.value;
  if (typeof question !== 'string' || question.trim() === '') return { ok: false, reason: question === undefined ? "no 'question'" : "'question' is not a non-empty string" };
  if (transcript !== undefined && typeof transcript !== 'string') return { ok: false, reason: "'gen_text_store' is not a string" };
  return {
    ok: true,
    fields: {
      response: transcript ?? '', question: question.trim(), gold: { value: answer, field: 'answer' },
      ...(typeof predicted === 'string' ? { loggedAnswer: predicted.trim() } : {}),
      ...(typeof stop === 'string' ? { status: stop } : {}),
      meta: {},
    },
  };
}

export const r1SearcherImporter: Importer<R1SearcherOptions> = {
  format: 'r1_searcher',
  summary: "R1-Searcher eval JSONL (question, answer, pred_ans, stop_reason_final, gen_text_store) in R1-Searcher's tags",
  options,
  optionDocs: {},
  renderer: taggedRenderer,
  run(files, _options, emit) {
    return Promise.resolve(importTagged(files, {
      format: 'r1_searcher', dialect: r1Searcher,
      fields: r1Fields,
      soloId: (_f, _at, questionId, nth) => `${questionId}#${nth}`,
    }, emit));
  },
};
