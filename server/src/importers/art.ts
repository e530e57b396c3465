// ART (OpenPipe) trajectories: `.art/{project}/models/{model}/trajectories/{split}/{step:04d}.parquet`
// (one row per trajectory: `group_index`, `reward`, `metrics`/`metadata`/`group_metadata` as JSON
// strings, `messages list<struct{role, content, tool_calls (JSON string), tool_call_id}>`), and the
// older JSONL (one group per line: `{"trajectories": [{reward, metrics, metadata, messages_and_choices}]}`).
// ART logs no question id or gold: they come from metadata keys the user chose (options), else the
// question id is derived from the first user message and the gold is empty (both stated in the notes).
import { z } from 'zod';
import { chatMessages, conversationPrompt, firstUserText, isObject } from './chat-messages.js';
import { chatOptionDocs, chatOptionValues, chatOptionShape, chatRules } from './chat-options.js';
import { fileStem, idText, jsonLines, stringsOf, utf8Text } from './chat-records.js';
import { ImportTally } from './chat-row.js';
import { chatRulesJson, messagesRenderer } from './chat-render.js';
import { chatTrajectory } from './chat-trajectory.js';
import type { ChatRules } from './chat-trajectory.js';
import type { Importer, RecordAt } from './importer.js';
import { looksLikeParquet, readParquet } from './parquet-rows.js';

const defaults = { answer: 'whole', citations: 'none' } as const;

const options = z
  .strictObject({
    ...chatOptionShape(defaults),
    id_key: z.string().default('id'),
    question_id_key: z.string().default('question_id'),
    question_key: z.string().default('question'),
    answers_key: z.string().default('answers'),
    support_key: z.string().default('support_ids'),
  })
  .transform((o) => ({ rules: chatRules(o), keys: { id: o.id_key, questionId: o.question_id_key, question: o.question_key, answers: o.answers_key, support: o.support_key } }));

type ArtOptions = z.output<typeof options>;
type MetadataKeys = ArtOptions['keys'];

/** One logged trajectory, from either container. */
interface ArtTrajectory {
  readonly step: string;
  readonly group: number;
  readonly index: number;
  readonly reward: unknown;
  readonly metrics: unknown;
  readonly metadata: Readonly<Record<string, unknown>>;
  readonly messages: unknown;
  readonly where: string;
}

function jsonObject(value: unknown): Readonly<Record<string, unknown>> {
  if (isObject(value)) return value;
  if (typeof value !== 'string' || value === '') return {};
  try {
    const parsed: unknown = JSON.parse(value);
    return isObject(parsed) ? parsed : {};
  } catch {
    return {};
  }
}


function integer(value: unknown): number | undefined {
  return typeof value === 'number' && Number.isInteger(value) ? value : undefined;
}

function addTrajectory(tally: ImportTally, t: ArtTrajectory, at: RecordAt, rules: ChatRules, keys: MetadataKeys): void {
  const read = chatMessages(t.messages, `${t.where}messages`);
  if (!read.ok) return tally.skip(at, read.reason);
  const { [keys.id]: id, [keys.questionId]: questionId, [keys.question]: question, [keys.answers]: answers, [keys.support]: support, ...rest } = t.metadata;
  const questionText = typeof question === 'string' ? question : firstUserText(read.value);
  if (questionText === undefined) return tally.skip(at, `${t.where}no question: metadata has no '${keys.question}' and no message is from the user`);
  const answerList = stringsOf(answers);
  const supportList = stringsOf(support);
  if (answerList === undefined) return tally.skip(at, `${t.where}metadata.${keys.answers}: expected a string or a list of strings`);
  if (supportList === undefined) return tally.skip(at, `${t.where}metadata.${keys.support}: expected a string or a list of strings`);
  const hasGold = answers !== undefined || support !== undefined;
  const step = /^\d+$/.test(t.step) ? { step: Number(t.step) } : {};
  const prompt = conversationPrompt(read.value);
  const meta = {
    ...step,
    group: `${t.step}/${t.group}`,
    sample: t.index,
    ...rest,
    ...(typeof t.reward === 'number' ? { reward: t.reward } : {}),
    ...(isObject(t.metrics) && Object.keys(t.metrics).length > 0 ? { metrics: t.metrics } : {}),
    ...(prompt === undefined ? {} : { prompt }),
    messages: t.messages,
    chat_rules: chatRulesJson(rules),
  };
  const qid = idText(questionId);
  tally.add(
    {
      id: idText(id) ?? `${t.step}/${t.group}#${t.index}`,
      ...(qid === undefined ? {} : { questionId: qid }),
      question: questionText,
      trajectory: chatTrajectory(read.value, rules),
      ...(hasGold ? { gold: { answers: answerList, support_ids: supportList } } : {}),
      meta,
    },
    at,
  );
}

async function readParquetFile(tally: ImportTally, path: string, bytes: Uint8Array, o: ArtOptions): Promise<void> {
  const table = await readParquet(bytes);
  if (!table.ok) return tally.skip({ file: path, line: 1 }, table.reason);
  if (!table.columns.includes('messages')) return tally.skip({ file: path, line: 1 }, "not an ART trajectories file: no 'messages' column");
  const perGroup = new Map<number, number>();
  for (const [i, record] of table.records.entries()) {
    tally.read += 1;
    const group = integer(record.group_index) ?? 0;
    const index = integer(record.trajectory_index) ?? perGroup.get(group) ?? 0;
    perGroup.set(group, index + 1);
    const metadata = { ...jsonObject(record.group_metadata), ...jsonObject(record.metadata) };
    const trajectory = { step: fileStem(path), group, index, reward: record.reward, metrics: jsonObject(record.metrics), metadata, messages: record.messages, where: '' };
    addTrajectory(tally, trajectory, { file: path, line: i + 1 }, o.rules, o.keys);
  }
}

function readJsonlFile(tally: ImportTally, path: string, text: string, o: ArtOptions): void {
  const { records, issues } = jsonLines(path, text);
  for (const issue of issues) tally.skipped.push(issue);
  tally.read += issues.length;
  for (const [group, { line, value }] of records.entries()) {
    const at = { file: path, line };
    const trajectories = isObject(value) ? value.trajectories : undefined;
    if (!Array.isArray(trajectories)) {
      tally.read += 1;
      tally.skip(at, "not an ART trajectory group: expected an object with a 'trajectories' list");
      continue;
    }
    for (const [index, t] of trajectories.entries()) {
      tally.read += 1;
      const where = `trajectories[${index}].`;
      if (!isObject(t)) {
        tally.skip(at, `trajectories[${index}]: expected an object`);
        continue;
      }
      const messages = t.messages_and_choices ?? t.messages;
      addTrajectory(tally, { step: fileStem(path), group, index, reward: t.reward, metrics: t.metrics, metadata: jsonObject(t.metadata), messages, where }, at, o.rules, o.keys);
    }
  }
}

export const artImporter: Importer<ArtOptions> = {
  format: 'art',
  summary: 'ART (OpenPipe) trajectories: Parquet ({step}.parquet) or the older JSONL, one group per line',
  options,
  optionDocs: {
    ...chatOptionDocs(defaults),
    id_key: 'metadata key of the row id (default `id`; absent: `STEP/GROUP#INDEX`)',
    question_id_key: 'metadata key of the question id (default `question_id`; absent: derived from the question text)',
    question_key: 'metadata key of the question text (default `question`; absent: the first user message)',
    answers_key: 'metadata key of the gold answers, a string or a list (default `answers`)',
    support_key: 'metadata key of the gold support ids (default `support_ids`)',
  },
  optionValues: chatOptionValues,
  renderer: messagesRenderer('messages'),
  async run(files, o, emit) {
    const tally = new ImportTally(emit);
    for (const file of files) {
      if (looksLikeParquet(file.bytes)) {
        await readParquetFile(tally, file.path, file.bytes, o);
        continue;
      }
      const text = utf8Text(file.bytes);
      if (!text.ok) {
        tally.read += 1;
        tally.skip({ file: file.path, line: 1 }, text.reason);
        continue;
      }
      readJsonlFile(tally, file.path, text.text, o);
    }
    return tally.result(null, `metadata has no '${o.keys.questionId}'`);
  },
};
