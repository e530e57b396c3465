// BrowseComp-Plus labels, given as further input files beside the run files and recognised by their
// content: the query file (JSON Lines or a JSON list of `{query_id, query, answer, gold_docs[{docid}],
// evidence_docs[{docid}]}`) and TREC qrels (`qid Q0 docid relevance` lines; relevance > 0 counts).
// A query record may carry the grader's verdict on the run (`judge`, an object), kept as meta.judge.
import { isObject } from './chat-messages.js';
import { idText, jsonLines } from './chat-records.js';
import type { ImportIssue } from './importer.js';

export interface QueryLabels {
  readonly question?: string;
  readonly answers: readonly string[];
  readonly goldDocs: readonly string[];
  readonly evidenceDocs: readonly string[];
  readonly qrels: readonly string[];
  /** The grader's verdict on this query's run (an LLM judge that read the gold answer), as logged. */
  readonly judge?: Readonly<Record<string, unknown>>;
}

/** Which labelled documents are a row's `gold.support_ids` (`support` option). */
export const supportRules = ['evidence', 'gold', 'both'] as const;
export type SupportRule = (typeof supportRules)[number];

export function supportIds(labels: QueryLabels, rule: SupportRule): string[] {
  const docs = rule === 'gold' ? labels.goldDocs : rule === 'evidence' ? labels.evidenceDocs : [...labels.evidenceDocs, ...labels.goldDocs];
  return [...new Set([...docs, ...labels.qrels])];
}


function docids(value: unknown): string[] {
  if (!Array.isArray(value)) return [];
  return value.flatMap((doc) => {
    const id = isObject(doc) ? idText(doc.docid ?? doc.doc_id ?? doc.id) : idText(doc);
    return id === undefined ? [] : [id];
  });
}

function answersOf(value: unknown): string[] {
  if (typeof value === 'string') return [value];
  return Array.isArray(value) ? value.filter((a): a is string => typeof a === 'string') : [];
}

/** The labels of one query as they accumulate: lists appended in place, so 100,000 qrels lines of one query cost linear time. */
interface GrowingLabels {
  question?: string;
  readonly answers: string[];
  readonly goldDocs: string[];
  readonly evidenceDocs: string[];
  readonly qrels: string[];
  judge?: Readonly<Record<string, unknown>>;
}

function appendAll(to: string[], items: readonly string[] | undefined): void {
  for (const item of items ?? []) to.push(item);
}

/** Accumulates labels by query id across every label file. */
export class LabelBook {
  private readonly byQuery = new Map<string, GrowingLabels>();

  get(queryId: string): QueryLabels | undefined {
    return this.byQuery.get(queryId);
  }

  get size(): number {
    return this.byQuery.size;
  }

  private merge(queryId: string, add: Partial<QueryLabels>): void {
    let labels = this.byQuery.get(queryId);
    if (labels === undefined) this.byQuery.set(queryId, (labels = { answers: [], goldDocs: [], evidenceDocs: [], qrels: [] }));
    if (add.question !== undefined) labels.question = add.question;
    appendAll(labels.answers, add.answers);
    appendAll(labels.goldDocs, add.goldDocs);
    appendAll(labels.evidenceDocs, add.evidenceDocs);
    appendAll(labels.qrels, add.qrels);
    if (add.judge !== undefined) labels.judge = add.judge;
  }

  /** A query record; false when the value is not one (no `query_id`). */
  addQuery(value: unknown): boolean {
    if (!isObject(value)) return false;
    const queryId = idText(value.query_id);
    if (queryId === undefined) return false;
    const question = typeof value.query === 'string' ? value.query : undefined;
    const judge = isObject(value.judge) ? { judge: value.judge } : {};
    this.merge(queryId, { ...(question === undefined ? {} : { question }), answers: answersOf(value.answer), goldDocs: docids(value.gold_docs), evidenceDocs: docids(value.evidence_docs), ...judge });
    return true;
  }

  /** Qrels lines; issues for lines that are not `qid Q0 docid relevance`. */
  addQrels(file: string, text: string): ImportIssue[] {
    const issues: ImportIssue[] = [];
    for (const [i, raw] of text.split('\n').entries()) {
      const line = raw.trim();
      if (line === '') continue;
      const fields = line.split(/\s+/);
      const [qid, , docid, relevance] = fields;
      if (fields.length !== 4 || qid === undefined || docid === undefined || relevance === undefined || !/^-?\d+$/.test(relevance)) {
        issues.push({ at: { file, line: i + 1 }, reason: 'not a qrels line: expected `query_id Q0 docid relevance`' });
        continue;
      }
      if (Number(relevance) > 0) this.merge(qid, { qrels: [docid] });
    }
    return issues;
  }
}

/** True when a text is TREC qrels (its first non-blank line has four fields, the last an integer). */
export function looksLikeQrels(text: string): boolean {
  const first = text.split('\n').find((l) => l.trim() !== '');
  return first !== undefined && /^\S+\s+\S+\s+\S+\s+-?\d+\s*$/.test(first.trim());
}

/** Query records of a JSON Lines or JSON-list text; issues for records that are not queries. */
export function addQueryFile(book: LabelBook, file: string, text: string): ImportIssue[] {
  const trimmed = text.trim();
  if (trimmed.startsWith('[')) {
    try {
      const list: unknown = JSON.parse(trimmed);
      if (Array.isArray(list)) {
        return list.flatMap((item, i) => (book.addQuery(item) ? [] : [{ at: { file, line: 1 }, reason: `item ${i}: not a BrowseComp-Plus query (no query_id)` }]));
      }
    } catch {
      // Not one JSON list: read it as JSON Lines below.
    }
  }
  const { records, issues } = jsonLines(file, text);
  return [...issues, ...records.flatMap(({ line, value }) => (book.addQuery(value) ? [] : [{ at: { file, line }, reason: 'not a BrowseComp-Plus query (no query_id)' }]))];
}
