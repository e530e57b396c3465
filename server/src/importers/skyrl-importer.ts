// SkyRL's eval dumps (`dumped_evals/global_step_N_evals/{data_source}.jsonl`): one line per sample,
// `{input_prompt, output_response, score, stop_reason, env_class, env_extras{reward_spec,
// extra_info{index}}, data_source}` (docs/import.md, "SkyRL"). The question id is the dataset row
// index when logged; repetitions of a prompt are not numbered, so groups are recovered from
// identical prompts within the dump.
import { isRecord, type JsonRecord } from './jsonl-records.js';
import { promptQuestion } from './prompt-question.js';
import type { FieldsRead } from './tagged-import.js';
import { promptImporter } from './tagged-options.js';


/** The training step of a dump, from its folder (`global_step_40_evals`), else the file: groups never span two. */
function stepOf(file: string): string {
  return /global_step_(\d+)/u.exec(file)?.[0] ?? file;
}

function skyrlFields(record: JsonRecord, marker: string): FieldsRead {
  const { input_prompt: prompt, output_response: response, score, stop_reason: stop, env_class: envClass, env_extras: extras, data_source: source } = record.value;
  if (typeof prompt !== 'string') return { ok: false, reason: prompt === undefined ? "no 'input_prompt'" : "'input_prompt' is not a string" };
  if (typeof response !== 'string') return { ok: false, reason: response === undefined ? "no 'output_response'" : "'output_response' is not a string" };
  const question = promptQuestion(prompt, marker);
  if (question === undefined) return { ok: false, reason: `no question found: the prompt has no '${marker}' followed by text (set --option question_marker=… for another template)` };
  const extraInfo = isRecord(extras) && isRecord(extras.extra_info) ? extras.extra_info : undefined;
  const rewardSpec = isRecord(extras) && isRecord(extras.reward_spec) ? extras.reward_spec : undefined;
  const index = extraInfo?.index;
  const dataset = typeof source === 'string' ? source : undefined;
  const questionId = typeof index === 'number' || typeof index === 'string' ? (dataset === undefined ? String(index) : `${dataset}/${String(index)}`) : undefined;
  return {
    ok: true,
    fields: {
      response, question, ...(questionId === undefined ? {} : { questionId }),
      group: { step: stepOf(record.at.file), prompt },
      gold: { value: rewardSpec?.ground_truth, field: 'env_extras.reward_spec.ground_truth' },
      ...(typeof stop === 'string' ? { status: stop } : {}),
      meta: {
        ...(score === undefined ? {} : { score }),
        ...(dataset === undefined ? {} : { data_source: dataset }),
        ...(typeof envClass === 'string' ? { env_class: envClass } : {}),
        ...(extraInfo === undefined ? {} : { extra_info: extraInfo }),
        prompt,
      },
    },
  };
}

export const skyrlImporter = promptImporter('skyrl', 'SkyRL eval dumps (global_step_N_evals/{data_source}.jsonl: input_prompt, output_response, score, stop_reason, env_extras)', skyrlFields);
