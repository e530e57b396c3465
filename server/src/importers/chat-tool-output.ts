// A tool's text output read as a ranked result list, in the shapes search tools print: a JSON list
// (`[{docid, score, snippet}]`, BrowseComp-Plus; `{"result": "…"}`, Hermes), `[Document 1] (ID: 8812,
// Score: 0.81)` blocks, and Search-R1's `Doc 1(Title: T) text`. A result keeps its id when the
// output gives one (the text is then dropped: the id is what the audit reads); otherwise its rank,
// title and text, which the loader resolves against the corpus (docs/pools.md, "Resolving ids").
import { maxImportNesting } from '../problems/limits.js';
import { isObject } from './chat-messages.js';

/** A result object of pool format v2. */
export interface ResultObject {
  readonly id?: string;
  readonly rank: number;
  readonly title?: string;
  readonly url?: string;
  readonly text?: string;
}

function idOf(value: unknown): string | undefined {
  if (typeof value === 'string' && value.trim() !== '') return value.trim();
  if (typeof value === 'number' && Number.isFinite(value)) return String(value);
  return undefined;
}

function stringField(item: Readonly<Record<string, unknown>>, keys: readonly string[]): string | undefined {
  for (const key of keys) {
    const value = item[key];
    if (typeof value === 'string' && value !== '') return value;
  }
  return undefined;
}

function resultFromFields(item: Readonly<Record<string, unknown>>, rank: number): ResultObject | undefined {
  const id = idOf(item.docid ?? item.doc_id ?? item.id);
  if (id !== undefined) return { id, rank };
  const title = stringField(item, ['title']);
  const url = stringField(item, ['url', 'link']);
  const text = stringField(item, ['text', 'contents', 'content', 'snippet']);
  if (title === undefined && url === undefined && text === undefined) return undefined;
  return { rank, ...(title === undefined ? {} : { title }), ...(url === undefined ? {} : { url }), ...(text === undefined ? {} : { text }) };
}

/** `depth` counts the `results` wrappers opened: a value nested past maxImportNesting is no result list (and never exhausts the stack). */
function jsonResults(value: unknown, depth = 0): ResultObject[] | undefined {
  if (depth > maxImportNesting) return undefined;
  if (Array.isArray(value)) {
    const results = value.map((item, i) => (isObject(item) ? resultFromFields(item, i + 1) : undefined));
    return results.length > 0 && results.every((r) => r !== undefined) ? results.filter((r) => r !== undefined) : undefined;
  }
  if (!isObject(value)) return undefined;
  if (typeof value.result === 'string') return textResults(value.result);
  if (Array.isArray(value.results)) return jsonResults(value.results, depth + 1);
  // A fetched document (`get_document`): the one result is that document.
  const one = idOf(value.docid ?? value.doc_id);
  return one === undefined ? undefined : [{ id: one, rank: 1 }];
}

function unquoted(title: string): string {
  const t = title.trim();
  return t.length >= 2 && t.startsWith('"') && t.endsWith('"') ? t.slice(1, -1) : t;
}

/** `[Document 3] (ID: 8812, Score: 0.81)` blocks: each block runs to the next header. */
function documentBlocks(output: string): ResultObject[] | undefined {
  const header = /^\[Document (\d+)\][^\S\n]*(?:\(([^)\n]*)\))?[^\S\n]*(.*)$/gm;
  const heads = [...output.matchAll(header)];
  if (heads.length === 0) return undefined;
  return heads.map((head, i) => {
    const rank = Number(head[1]);
    const id = /\bID:\s*([^,\s)]+)/i.exec(head[2] ?? '')?.[1];
    if (id !== undefined) return { id, rank };
    const end = heads[i + 1]?.index ?? output.length;
    const body = output.slice((head.index ?? 0) + head[0].length, end).trim();
    const titled = /^Title:\s*(.*)\n?([\s\S]*)$/i.exec(body);
    const rest = (head[3] ?? '').trim();
    if (titled !== null) return { rank, title: unquoted(titled[1] ?? ''), text: (titled[2] ?? '').trim() };
    return { rank, text: [rest, body].filter((s) => s !== '').join('\n') };
  });
}

/** Search-R1's `Doc 1(Title: T) text` lines (ZeroSearch's `Doc 1: text` has no title). */
function docLines(output: string): ResultObject[] | undefined {
  const line = /^Doc (\d+)\s*(?:\(Title:\s*(.*?)\)|:)[^\S\n]?(.*)$/gm;
  const docs = [...output.matchAll(line)];
  if (docs.length === 0) return undefined;
  return docs.map((doc, i) => {
    const end = docs[i + 1]?.index ?? output.length;
    const text = [doc[3] ?? '', output.slice((doc.index ?? 0) + doc[0].length, end)].join('').trim();
    const title = doc[2];
    return { rank: Number(doc[1]), ...(title === undefined ? {} : { title: unquoted(title) }), text };
  });
}

function distinctRanks(results: readonly ResultObject[]): boolean {
  return new Set(results.map((r) => r.rank)).size === results.length;
}

/** The ranked results a tool output lists, or undefined when it is not a result list (then it stays text). */
export function toolResults(output: string): ResultObject[] | undefined {
  const trimmed = output.trim();
  let parsed: ResultObject[] | undefined;
  if (trimmed.startsWith('[') || trimmed.startsWith('{')) {
    try {
      parsed = jsonResults(JSON.parse(trimmed));
    } catch {
      parsed = undefined;
    }
  }
  parsed ??= textResults(output);
  return parsed !== undefined && distinctRanks(parsed) ? parsed : undefined;
}

function textResults(output: string): ResultObject[] | undefined {
  return documentBlocks(output) ?? docLines(output);
}

/** Hermes-style tools answer several queries in one output, separated by a `---` line. */
export function splitPerQuery(output: string, queries: number): string[] | undefined {
  if (queries <= 1) return [output];
  const parts = output.split(/\n-{3,}\n/);
  return parts.length === queries ? parts : undefined;
}
