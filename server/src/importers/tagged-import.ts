// The import loop every tagged-transcript container shares (verl, SkyRL, R1-Searcher): read the JSONL
// records, let the container pick out the fields of each, read the transcript with the dialect, derive
// what the log does not carry (question ids, groups), and count every choice for the notes.
import { derivedQuestionId, groupsByPrompt } from './derived-ids.js';
import { goldAnswers } from './gold-answers.js';
import type { ImportedRow, ImportFile, ImportIssue, ImportResult, RecordAt } from './importer.js';
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

interface Read {
  readonly at: RecordAt;
  readonly fields: TaggedFields;
  readonly gold: readonly string[] | undefined;
}

function plural(n: number, word: string): string {
  return `${n} ${word}${n === 1 ? '' : 's'}`;
}

export function importTagged(files: readonly ImportFile[], container: TaggedContainer): ImportResult {
  const skipped: ImportIssue[] = [];
  const reads: Read[] = [];
  let read = 0;
  for (const file of files) {
    const records = jsonlRecords(file);
    read += records.read;
    skipped.push(...records.issues);
    for (const record of records.records) {
      const got = container.fields(record);
      if (!got.ok) {
        skipped.push({ at: record.at, reason: got.reason });
        continue;
      }
      const gold = goldAnswers(got.fields.gold.value, got.fields.gold.field);
      if (!gold.ok) skipped.push({ at: record.at, reason: gold.reason });
      else reads.push({ at: record.at, fields: got.fields, gold: gold.answers });
    }
  }
  const grouped = reads.filter((r) => r.fields.group !== undefined);
  const recovered = groupsByPrompt(grouped.map((r) => r.fields.group ?? { step: '', prompt: '' }));
  const groupOf = new Map(grouped.map((r, i) => [r, recovered.groups[i]!]));
  const seen = new Map<string, number>();
  let derived = 0;
  let noGold = 0;
  let unanswered = 0;
  let noAnswer = 0;
  const rows: ImportedRow[] = reads.map((r) => {
    const { fields } = r;
    const questionId = fields.questionId ?? derivedQuestionId(fields.question);
    if (fields.questionId === undefined) derived++;
    if (r.gold === undefined) noGold++;
    const nth = seen.get(questionId) ?? 0;
    seen.set(questionId, nth + 1);
    const group = groupOf.get(r);
    const transcript = readTranscript(fields.response, container.dialect);
    unanswered += transcript.unanswered;
    const answer = fields.loggedAnswer ?? transcript.answer;
    if (answer === null) noAnswer++;
    const status = fields.status === undefined ? {} : { status: fields.status };
    const final = answer !== null ? { answer, citations: [], text: transcript.finalText, ...status } : fields.status === undefined ? null : { answer: null, ...status };
    const row = {
      id: group === undefined ? container.soloId(fields, r.at, questionId, nth) : `${group.group}#${group.sample}`,
      question_id: questionId,
      question: fields.question,
      steps: transcript.steps,
      final,
      gold: { answers: r.gold ?? [], support_ids: [] },
      meta: { ...(group === undefined ? {} : { group: group.group, sample: group.sample }), dialect: container.dialect.name, ...fields.meta, transcript: fields.response },
    };
    return { row, at: r.at };
  });
  const notes = [
    `dialect ${container.dialect.name}: the answer is the last <answer> of the response${container.dialect.boxedAnswer ? ' (its last \\boxed{})' : ''}; the prompt is not read for it, so its example answer never counts`,
    ...(derived === 0 ? [] : [`${plural(derived, 'question id')} derived from the question text (derivedQuestionId): the ${container.format} log carries none`]),
    ...(grouped.length === 0 ? [] : [`${plural(recovered.count, 'group')} recovered from identical prompts within a step (meta.group, meta.sample)`]),
    ...(noGold === 0 ? [] : [`${plural(noGold, 'row')} without gold in the log: gold answers left empty ({"answers": [], "support_ids": []})`]),
    ...(noAnswer === 0 ? [] : [`${plural(noAnswer, 'row')} with no answer in the response: final is null (or {"answer": null} with the stop reason)`]),
    ...(unanswered === 0 ? [] : [`${plural(unanswered, 'observation block')} answered no call and were not imported`]),
    'results carry rank, title and text, no ids: they are resolved against the corpus on load (herald import --corpus shows how many resolve)',
  ];
  return {
    rows,
    skipped,
    counts: { read, imported: rows.length, skipped: skipped.length, questionIdsDerived: derived, groupsRecovered: grouped.length === 0 ? null : recovered.count },
    notes,
  };
}
