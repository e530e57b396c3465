// The import loop every tagged-transcript container shares (verl, SkyRL, R1-Searcher): read the JSONL
// records, let the container pick out the fields of each, read the transcript with the dialect, derive
// what the log does not carry (question ids, groups), and count every choice for the notes.
import { maxTranscriptTags } from '../problems/limits.js';
import { derivedQuestionId, groupRecovery } from './derived-ids.js';
import { goldAnswers } from './gold-answers.js';
import type { ImportFile, ImportIssue, ImportSummary, RecordAt, RowSink } from './importer.js';
import { jsonlRecords, type JsonRecord } from './jsonl-records.js';
import type { Dialect } from './tagged-dialects.js';
import { readTranscript } from './tagged-transcript.js';

/** What a container reads from one record. */
export interface TaggedFields {
  /** The response: the transcript the steps and answer are read from. */
  readonly response: string;
  readonly question: string;
  /** The question id when the log carries one; else it is derived from the question. */
  readonly questionId?: string;
  /** The batch key groups are recovered in, and the prompt they are recovered from (absent: no groups). */
  readonly group?: { readonly step: string; readonly prompt: string };
  /** The gold field as logged and its name, for reasons. */
  readonly gold: { readonly value: unknown; readonly field: string };
  readonly status?: string;
  /** The answer the framework itself extracted (R1-Searcher's `pred_ans`), used instead of the last `<answer>`. */
  readonly loggedAnswer?: string;
  /** Logged scores and fields, kept under `meta`. */
  readonly meta: Readonly<Record<string, unknown>>;
}

export type FieldsRead = { readonly ok: true; readonly fields: TaggedFields } | { readonly ok: false; readonly reason: string };

export interface TaggedContainer {
  readonly format: string;
  readonly dialect: Dialect;
  fields(record: JsonRecord): FieldsRead;
  /** The row id when the record has no group: unique and deterministic from the record. */
  soloId(fields: TaggedFields, at: RecordAt, questionId: string, nth: number): string;
}

function plural(n: number, word: string): string {
  return `${n} ${word}${n === 1 ? '' : 's'}`;
}

/** One pass over the records, each made into its row at once: nothing of a record outlives it but its row. */
export function importTagged(files: readonly ImportFile[], container: TaggedContainer, emit: RowSink): ImportSummary {
  const skipped: ImportIssue[] = [];
  let imported = 0;
  const groups = groupRecovery();
  const seen = new Map<string, number>();
  const derivedIds = new Map<string, string>();
  let read = 0;
  let grouped = 0;
  let derived = 0;
  let noGold = 0;
  let unanswered = 0;
  let unexecuted = 0;
  let noAnswer = 0;
  let logged = 0;
  for (const file of files) {
    const records = jsonlRecords(file);
    read += records.read;
    for (const issue of records.issues) skipped.push(issue);
    for (const record of records.records) {
      const got = container.fields(record);
      if (!got.ok) {
        skipped.push({ at: record.at, reason: got.reason });
        continue;
      }
      const { fields } = got;
      const gold = goldAnswers(fields.gold.value, fields.gold.field);
      if (!gold.ok) {
        skipped.push({ at: record.at, reason: gold.reason });
        continue;
      }
      const transcript = readTranscript(fields.response, container.dialect);
      if (transcript.tags > maxTranscriptTags) {
        skipped.push({ at: record.at, reason: `the response opens more than ${maxTranscriptTags.toLocaleString('en-US')} tagged blocks, the limit per transcript (maxTranscriptTags)` });
        continue;
      }
      // A group's samples share their question: its id is hashed once.
      let questionId = fields.questionId ?? derivedIds.get(fields.question);
      if (questionId === undefined) derivedIds.set(fields.question, (questionId = derivedQuestionId(fields.question)));
      if (fields.questionId === undefined) derived++;
      if (gold.answers === undefined) noGold++;
      const nth = seen.get(questionId) ?? 0;
      seen.set(questionId, nth + 1);
      const group = fields.group === undefined ? undefined : groups.next(fields.group);
      if (group !== undefined) grouped++;
      unanswered += transcript.unanswered;
      unexecuted += transcript.unexecuted;
      const answer = fields.loggedAnswer ?? transcript.answer;
      if (fields.loggedAnswer !== undefined) logged++;
      if (answer === null) noAnswer++;
      const status = fields.status === undefined ? {} : { status: fields.status };
      const final = answer !== null ? { answer, citations: [], text: transcript.finalText, ...status } : fields.status === undefined ? null : { answer: null, ...status };
      const row = {
        id: group === undefined ? container.soloId(fields, record.at, questionId, nth) : `${group.group}#${group.sample}`,
        question_id: questionId,
        question: fields.question,
        // Each step with the turn it was read from, and the text of every turn (docs/pools.md, "Turns").
        steps: transcript.steps.map((step, i) => ({ ...step, turn: transcript.stepTurns[i] ?? 0 })),
        final,
        gold: { answers: gold.answers ?? [], support_ids: [] },
        // The gold as logged (`{"target": [...]}`, a string…): a reward command is sent it as verl's `ground_truth`.
        meta: {
          ...(group === undefined ? {} : { group: group.group, sample: group.sample }), dialect: container.dialect.name, ...fields.meta,
          ...(fields.gold.value === undefined || fields.gold.value === null ? {} : { ground_truth: fields.gold.value }),
          transcript: fields.response, observations: transcript.observations,
        },
        turns: transcript.turns,
      };
      imported++;
      emit({ row, at: record.at });
    }
  }
  const notes = [
    `dialect ${container.dialect.name}: the answer is ${container.dialect.answerAt?.describe ?? `the last <answer> of the response${container.dialect.boxedAnswer ? ' (its last \\boxed{})' : ''}`}; the prompt is not read for the answer (meta.prompt keeps it, for a reward that reads prompt + response as qa_em does)`,
    ...(derived === 0 ? [] : [`${plural(derived, 'question id')} derived from the question text (derivedQuestionId): the ${container.format} log carries none`]),
    ...(grouped === 0 ? [] : [`${plural(groups.count, 'group')} recovered from identical prompts within a step (meta.group, meta.sample)`]),
    ...(noGold === 0 ? [] : [`${plural(noGold, 'row')} without gold in the log: gold answers left empty ({"answers": [], "support_ids": []})`]),
    ...(logged === 0 ? [] : [`${plural(logged, 'answer')} taken as the log extracted ${logged === 1 ? 'it' : 'them'} (pred_ans), not from the transcript`]),
    ...(noAnswer === 0 ? [] : [`${plural(noAnswer, 'row')} with no answer in the response: final is null (or {"answer": null} with the stop reason)`]),
    ...(unexecuted === 0 ? [] : [`${plural(unexecuted, 'call')} the response ended on, never executed (no observation answered ${unexecuted === 1 ? 'it' : 'them'}): no step, not in search_calls or retrieved; the text keeps ${unexecuted === 1 ? 'it' : 'them'}`]),
    ...(unanswered === 0 ? [] : [`${plural(unanswered, 'observation block')} that answered no call ${unanswered === 1 ? 'was' : 'were'} not imported`]),
    'results carry rank, title and text, no ids: they are resolved against the corpus on load (herald import --corpus shows how many resolve)',
  ];
  return {
    skipped,
    counts: { read, imported, skipped: skipped.length, questionIdsDerived: derived, groupsRecovered: grouped === 0 ? null : groups.count },
    notes,
  };
}
