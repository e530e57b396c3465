// One pool row from a converted conversation and the ids, gold and meta its log gives, and the
// counts and notes every chat-message importer states the same way.
import { derivedQuestionId } from './derived-ids.js';
import type { ImportCounts, ImportIssue, ImportSummary, PoolRowJson, RecordAt, RowSink } from './importer.js';
import type { ChatTrajectory } from './chat-trajectory.js';

export interface RowParts {
  readonly id: string;
  /** The question id the log gives; absent: derived from the question text (and counted). */
  readonly questionId?: string;
  readonly question: string;
  readonly trajectory: ChatTrajectory;
  /** Absent when the log has no gold: the row gets empty gold and the importer says so. */
  readonly gold?: { readonly answers: readonly string[]; readonly support_ids: readonly string[] };
  readonly meta: Readonly<Record<string, unknown>>;
}

export function poolRow(parts: RowParts): PoolRowJson {
  return {
    id: parts.id,
    question_id: parts.questionId ?? derivedQuestionId(parts.question),
    question: parts.question,
    // Each step with the turn it was read from, and the text of every turn (docs/pools.md, "Turns").
    steps: parts.trajectory.steps.map((step, i) => ({ ...step, turn: parts.trajectory.stepTurns[i] ?? 0 })),
    final: parts.trajectory.final,
    gold: parts.gold ?? { answers: [], support_ids: [] },
    meta: parts.meta,
    turns: parts.trajectory.turns,
  };
}

/** Collects rows, skipped records and what was derived, and words the notes once for every importer. */
export class ImportTally {
  readonly skipped: ImportIssue[] = [];
  /** The question id of every row handed over, in order. */
  readonly questionIds: string[] = [];
  read = 0;
  private derivedIds = 0;
  private withoutGold = 0;
  private unreadOutputs = 0;
  private readonly extraNotes: string[] = [];

  constructor(private readonly emit: RowSink) {}

  add(parts: RowParts, at: RecordAt): void {
    if (parts.questionId === undefined) this.derivedIds += 1;
    if (parts.gold === undefined) this.withoutGold += 1;
    this.unreadOutputs += parts.trajectory.unreadSearchOutputs;
    const row = poolRow(parts);
    this.questionIds.push(String(row.question_id));
    this.emit({ row, at });
  }

  skip(at: RecordAt, reason: string): void {
    this.skipped.push({ at, reason });
  }

  note(text: string): void {
    this.extraNotes.push(text);
  }

  result(groupsRecovered: number | null, questionIdSource: string): ImportSummary {
    const counts: ImportCounts = {
      read: this.read,
      imported: this.questionIds.length,
      skipped: this.skipped.length,
      questionIdsDerived: this.derivedIds,
      groupsRecovered,
    };
    const notes = [
      ...(this.derivedIds === 0 ? [] : [`${this.derivedIds} question ids derived from the question text (q- + SHA-256 of the normalised question): ${questionIdSource}`]),
      ...(this.withoutGold === 0 ? [] : [`${this.withoutGold} rows have no gold in the log: imported with empty gold ({"answers": [], "support_ids": []}), so oracle terms see no labels`]),
      ...(this.unreadOutputs === 0 ? [] : [`${this.unreadOutputs} search outputs were not a result list: imported as searches with no results`]),
      ...this.extraNotes,
    ];
    return { skipped: this.skipped, counts, notes };
  }
}
