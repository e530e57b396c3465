// TRL completions (GRPOTrainer, TRL ≥ 0.28): `completions/completions_{step:05d}.parquet`, one row per
// completion: `step, prompt, completion`, one column per reward function, `advantage`. Prompt and
// completion are text or chat-message lists. TRL logs no question id, group or gold: question ids are
// derived from the question, groups recovered from identical prompts within a step (a GRPO group is
// one prompt sampled n times), gold left empty; every one of these is counted and stated.
import { z } from 'zod';
import { chatMessages, isObject, promptText } from './chat-messages.js';
import type { ChatMessage } from './chat-messages.js';
import { chatOptionDocs, chatOptionValues, chatOptionShape, chatRules } from './chat-options.js';
import { fileStem } from './chat-records.js';
import { ImportTally } from './chat-row.js';
import { chatRulesJson, messagesRenderer } from './chat-render.js';
import { chatTrajectory } from './chat-trajectory.js';
import { groupsByPrompt } from './derived-ids.js';
import type { Importer, RecordAt } from './importer.js';
import { readParquet } from './parquet-rows.js';
import type { ParquetRecord } from './parquet-rows.js';

const defaults = { answer: 'answer_tag', citations: 'none' } as const;

const options = z.strictObject({ ...chatOptionShape(defaults) }).transform((o) => ({ rules: chatRules(o) }));
type TrlOptions = z.output<typeof options>;

const knownColumns = new Set(['step', 'prompt', 'completion', 'advantage']);

interface Completion {
  readonly at: RecordAt;
  readonly step: string;
  readonly promptKey: string;
  readonly question: string;
  /** The `prompt` column as text: as logged, or a message list's contents (`promptText`). */
  readonly prompt: string | undefined;
  readonly messages: readonly ChatMessage[];
  readonly rewards: Readonly<Record<string, unknown>>;
  readonly advantage: unknown;
  /** The completion as logged (text or messages): what the renderer writes back. */
  readonly completion: unknown;
}

/** The prompt as messages (a text prompt is one user message). */
function promptMessages(prompt: unknown, where: string): ReturnType<typeof chatMessages> {
  if (typeof prompt === 'string') return { ok: true, value: [{ role: 'user', content: prompt, calls: [] }] };
  return chatMessages(prompt, where);
}

function completionMessages(completion: unknown): ReturnType<typeof chatMessages> {
  if (typeof completion === 'string') return { ok: true, value: [{ role: 'assistant', content: completion, calls: [] }] };
  return chatMessages(completion, 'completion');
}

function completionOf(record: ParquetRecord, at: RecordAt, file: string): Completion | string {
  const prompt = promptMessages(record.prompt, 'prompt');
  if (!prompt.ok) return prompt.reason;
  const completion = completionMessages(record.completion);
  if (!completion.ok) return completion.reason;
  const question = [...prompt.value].reverse().find((m) => m.role === 'user')?.content;
  if (question === undefined) return 'prompt: no user message';
  const step = typeof record.step === 'number' ? String(record.step) : fileStem(file);
  const rewards = Object.fromEntries(Object.entries(record).filter(([k]) => !knownColumns.has(k)));
  return {
    at,
    step,
    promptKey: JSON.stringify(record.prompt),
    question,
    prompt: typeof record.prompt === 'string' ? record.prompt : promptText(prompt.value),
    messages: [...prompt.value, ...completion.value],
    rewards,
    advantage: record.advantage,
    completion: record.completion,
  };
}

export const trlImporter: Importer<TrlOptions> = {
  format: 'trl',
  summary: 'TRL completions Parquet (completions_{step}.parquet: step, prompt, completion, reward columns, advantage)',
  options,
  optionDocs: chatOptionDocs(defaults),
  optionValues: chatOptionValues,
  renderer: messagesRenderer('completion'),
  async run(files, o, emit) {
    const tally = new ImportTally(emit);
    const completions: Completion[] = [];
    for (const file of files) {
      const table = await readParquet(file.bytes);
      if (!table.ok) {
        tally.read += 1;
        tally.skip({ file: file.path, line: 1 }, table.reason);
        continue;
      }
      const missing = ['prompt', 'completion'].filter((column) => !table.columns.includes(column));
      if (missing.length > 0) {
        tally.read += 1;
        tally.skip({ file: file.path, line: 1 }, `not a TRL completions file: no ${missing.map((c) => `'${c}'`).join(' or ')} column`);
        continue;
      }
      for (const [i, record] of table.records.entries()) {
        tally.read += 1;
        const at = { file: file.path, line: i + 1 };
        const completion = completionOf(record, at, file.path);
        if (typeof completion === 'string') tally.skip(at, completion);
        else completions.push(completion);
      }
    }
    const { groups, count } = groupsByPrompt(completions.map((c) => ({ step: c.step, prompt: c.promptKey })));
    for (const [i, c] of completions.entries()) {
      const group = groups[i];
      const step = Number(c.step);
      const meta = {
        ...(Number.isFinite(step) ? { step } : {}),
        ...(group === undefined ? {} : { group: group.group, sample: group.sample }),
        rewards: isObject(c.rewards) ? c.rewards : {},
        ...(typeof c.advantage === 'number' ? { advantage: c.advantage } : {}),
        ...(c.prompt === undefined ? {} : { prompt: c.prompt }),
        completion: c.completion,
        chat_rules: chatRulesJson(o.rules),
      };
      tally.add({ id: `${fileStem(c.at.file)}:${c.at.line - 1}`, question: c.question, trajectory: chatTrajectory(c.messages, o.rules), meta }, c.at);
    }
    if (count > 0) tally.note(`${count} groups recovered from identical prompts within a step (meta.group = STEP/K, meta.sample = the completion's index in its group)`);
    return tally.result(count, 'TRL logs no question id');
  },
};
