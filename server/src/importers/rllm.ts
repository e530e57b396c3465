// rllm episodes (`utils/episode_logger.py`): one JSON file per episode,
// `episodes/{train|val}_step_N_epoch_E/episode_hash{task_hash}_id{episode_id}.json`, with
// `training_step, episode_id, task, task_hash, is_correct, termination_reason,
// trajectories[{name, uid, reward, steps[{thought, action, reward, done, chat_completions}]}]`.
// A step's `chat_completions` is the conversation so far, so the last step's is the whole one.
// Question id: `task_hash` (stable across runs); group: the task id of `episode_id` (`{task_id}:{rollout}`,
// one id per task and batch), sample: the rollout index; gold: keys of `task` (options).
import { z } from 'zod';
import { chatMessages, conversationPrompt, firstUserText, isObject } from './chat-messages.js';
import { chatOptionDocs, chatOptionValues, chatOptionShape, chatRules } from './chat-options.js';
import { idText, jsonDocument, stringsOf, utf8Text } from './chat-records.js';
import { ImportTally } from './chat-row.js';
import { chatRulesJson, messagesRenderer } from './chat-render.js';
import { chatTrajectory } from './chat-trajectory.js';
import type { Importer, ImportFile } from './importer.js';

const defaults = { answer: 'boxed', citations: 'none' } as const;

const options = z
  .strictObject({
    ...chatOptionShape(defaults),
    question_key: z.string().default('question'),
    answers_key: z.string().default('ground_truth'),
    support_key: z.string().default('support_ids'),
  })
  .transform((o) => ({ rules: chatRules(o), keys: { question: o.question_key, answers: o.answers_key, support: o.support_key } }));

type RllmOptions = z.output<typeof options>;

/** `{task_id}:{rollout}` (episode_id), else the file name's `_id{task_id}_{rollout}.json`. */
export function rllmGroup(episodeId: string | undefined, path: string): { readonly group: string; readonly sample?: number } | undefined {
  const fromId = episodeId === undefined ? null : /^(.*):(\d+)$/.exec(episodeId);
  if (fromId !== null) return { group: fromId[1] ?? '', sample: Number(fromId[2]) };
  const base = path.split(/[\\/]/).at(-1) ?? path;
  const fromName = /_id(.+)_(\d+)\.json$/.exec(base);
  if (fromName !== null) return { group: fromName[1] ?? '', sample: Number(fromName[2]) };
  return episodeId === undefined ? undefined : { group: episodeId };
}

/** `train` or `val`, from the episode's folder `{mode}_step_N_epoch_E`. */
function splitOf(path: string): string | undefined {
  return /(?:^|[\\/])(train|val)_step_\d+_epoch_\d+[\\/]/.exec(path)?.[1];
}

function lastConversation(steps: readonly unknown[]): unknown {
  for (let i = steps.length - 1; i >= 0; i -= 1) {
    const step = steps[i];
    if (isObject(step) && Array.isArray(step.chat_completions) && step.chat_completions.length > 0) return step.chat_completions;
  }
  return undefined;
}

function text(value: unknown): string | undefined {
  return typeof value === 'string' && value !== '' ? value : undefined;
}

function readEpisode(tally: ImportTally, file: ImportFile, o: RllmOptions): void {
  const at = { file: file.path, line: 1 };
  tally.read += 1;
  const decoded = utf8Text(file.bytes);
  if (!decoded.ok) return tally.skip(at, decoded.reason);
  const doc = jsonDocument(decoded.text);
  if (!doc.ok) return tally.skip(at, doc.reason);
  const episode = doc.value;
  if (!isObject(episode) || !Array.isArray(episode.trajectories)) return tally.skip(at, "not an rllm episode: expected an object with a 'trajectories' list");
  const task = isObject(episode.task) ? episode.task : {};
  const episodeId = idText(episode.episode_id);
  const group = rllmGroup(episodeId, file.path);
  const answers = stringsOf(task[o.keys.answers]);
  const support = stringsOf(task[o.keys.support]);
  if (answers === undefined) return tally.skip(at, `task.${o.keys.answers}: expected a string or a list of strings`);
  if (support === undefined) return tally.skip(at, `task.${o.keys.support}: expected a string or a list of strings`);
  const hasGold = task[o.keys.answers] !== undefined || task[o.keys.support] !== undefined;
  const status = text(episode.termination_reason);
  const split = splitOf(file.path);
  const many = episode.trajectories.length > 1;
  for (const [t, trajectory] of episode.trajectories.entries()) {
    const where = `trajectories[${t}]`;
    if (!isObject(trajectory) || !Array.isArray(trajectory.steps)) {
      tally.skip(at, `${where}: expected an object with a 'steps' list`);
      continue;
    }
    const conversation = lastConversation(trajectory.steps);
    if (conversation === undefined) {
      tally.skip(at, `${where}: no step has chat_completions`);
      continue;
    }
    const read = chatMessages(conversation, `${where}.steps[-1].chat_completions`);
    if (!read.ok) {
      tally.skip(at, read.reason);
      continue;
    }
    const question = text(task[o.keys.question]) ?? firstUserText(read.value);
    if (question === undefined) {
      tally.skip(at, `${where}: no question: task has no '${o.keys.question}' and no message is from the user`);
      continue;
    }
    const name = text(trajectory.name) ?? text(trajectory.uid) ?? String(t);
    const baseId = episodeId ?? file.path;
    const prompt = conversationPrompt(read.value);
    const meta = {
      ...(typeof episode.training_step === 'number' ? { step: episode.training_step } : {}),
      ...(group === undefined ? {} : { group: group.group, ...(group.sample === undefined ? {} : { sample: group.sample }) }),
      ...(split === undefined ? {} : { split }),
      ...(typeof trajectory.reward === 'number' ? { reward: trajectory.reward } : {}),
      ...(typeof episode.is_correct === 'boolean' ? { is_correct: episode.is_correct } : {}),
      ...(many ? { agent: name } : {}),
      ...(prompt === undefined ? {} : { prompt }),
      messages: conversation,
      chat_rules: chatRulesJson(o.rules),
    };
    const questionId = text(episode.task_hash);
    tally.add(
      {
        id: many ? `${baseId}/${name}` : baseId,
        ...(questionId === undefined ? {} : { questionId }),
        question,
        trajectory: chatTrajectory(read.value, o.rules, status),
        ...(hasGold ? { gold: { answers, support_ids: support } } : {}),
        meta,
      },
      at,
    );
  }
}

export const rllmImporter: Importer<RllmOptions> = {
  format: 'rllm',
  summary: 'rllm episode JSON files (episode_logger: one file per episode, chat_completions with tool calls)',
  options,
  optionDocs: {
    ...chatOptionDocs(defaults),
    question_key: 'key of `task` holding the question (default `question`; absent: the first user message)',
    answers_key: 'key of `task` holding the gold answers, a string or a list (default `ground_truth`)',
    support_key: 'key of `task` holding the gold support ids (default `support_ids`)',
  },
  optionValues: chatOptionValues,
  renderer: messagesRenderer('messages'),
  run(files, o, emit) {
    const tally = new ImportTally(emit);
    for (const file of files) readEpisode(tally, file, o);
    return Promise.resolve(tally.result(null, "the episode has no 'task_hash'"));
  },
};
