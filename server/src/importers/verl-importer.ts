// verl's rollout and validation dumps (`{rollout_data_dir|validation_data_dir}/{step}.jsonl`): one
// line per sample, `{input, output, gts, score, step, …reward_extra_info}`. They name no question,
// no uid and no sample index, so the question is read from the prompt, its id derived from it, and
// the groups recovered from identical prompts within a step (docs/import.md, "verl").
import type { JsonRecord } from './jsonl-records.js';
import { promptQuestion } from './prompt-question.js';
import type { FieldsRead } from './tagged-import.js';
import { promptImporter } from './tagged-options.js';


const ownKeys = new Set(['input', 'output', 'gts', 'score', 'step', 'reward']);

/** The step a record belongs to: its `step`, else the file's name (verl names each dump after its step). */
function stepOf(record: JsonRecord): string {
  const step = record.value.step;
  if (typeof step === 'number' || typeof step === 'string') return String(step);
  return record.at.file.replace(/^.*[\\/]/u, '').replace(/\.jsonl$/u, '');
}

function verlFields(record: JsonRecord, marker: string): FieldsRead {
  const { input, output, gts, score, reward } = record.value;
  if (typeof input !== 'string') return { ok: false, reason: input === undefined ? "no 'input' (the prompt)" : "'input' is not a string" };
  if (typeof output !== 'string') return { ok: false, reason: output === undefined ? "no 'output' (the response)" : "'output' is not a string" };
  const question = promptQuestion(input, marker);
  if (question === undefined) return { ok: false, reason: `no question found: the prompt has no '${marker}' followed by text (set --option question_marker=… for another template)` };
  const extra = Object.fromEntries(Object.entries(record.value).filter(([key]) => !ownKeys.has(key)));
  return {
    ok: true,
    fields: {
      response: output, question, group: { step: stepOf(record), prompt: input }, gold: { value: gts, field: 'gts' },
      meta: {
        step: stepOf(record),
        ...(score === undefined ? {} : { score }),
        ...(reward === undefined ? {} : { reward }),
        ...(Object.keys(extra).length === 0 ? {} : { reward_extra_info: extra }),
        prompt: input,
      },
    },
  };
}

export const verlImporter = promptImporter('verl', 'verl rollout/validation dumps ({step}.jsonl: input, output, gts, score, step, reward extras) with tagged transcripts', verlFields);
