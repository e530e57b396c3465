// The retrieved passages inside an observation block, as each framework prints them, turned into
// result objects `{rank, title?, text}`. No framework here prints a corpus id: the ids are resolved
// against the corpus when the pool is loaded (pool/resolve-ids.ts). A result's rank is its position
// in the block, from 1 (the numbers the frameworks print count the same way).
import { isRecord } from './jsonl-records.js';

export interface ResultJson {
  readonly rank: number;
  readonly title?: string;
  readonly text: string;
}

// Search-R1 and verl print a passage's first line as its title; the wiki-18 corpus they ship stores
// titles in double quotes (`"Aaron"`), which would never equal a corpus title, so one pair is dropped.
function unquoteTitle(title: string): string {
  const t = title.trim();
  return t.length >= 2 && t.startsWith('"') && t.endsWith('"') ? t.slice(1, -1).trim() : t;
}

/** Where `(Title: …)` closes: the `)` that balances it, so a title like `Tosca (opera)` stays whole. */
function titleEnd(text: string, from: number): number {
  let depth = 0;
  for (let i = from; i < text.length; i++) {
    const c = text[i];
    if (c === '\n') return -1;
    if (c === '(') depth++;
    else if (c === ')') {
      if (depth === 0) return i;
      depth--;
    }
  }
  return -1;
}

/** The body of each passage after a header at a line start: from the header's end to the next header. */
function headedSpans(block: string, header: RegExp): { readonly body: number; readonly end: number }[] {
  const spans: { body: number; end: number }[] = [];
  for (const m of block.matchAll(header)) {
    const at = m.index + (m[0].startsWith('\n') ? 1 : 0);
    const last = spans.at(-1);
    if (last !== undefined) last.end = at;
    spans.push({ body: m.index + m[0].length, end: block.length });
  }
  return spans;
}

const docHeader = /(?:^|\n)Doc \d+ ?\(Title: /g;

/**
 * Search-R1's `Doc 1(Title: T) text\nDoc 2(Title: T2) text\n` and verl's search tool's
 * `Doc 1 (Title: T)\ntext\n\nDoc 2 (Title: T2)\ntext`: one result per `Doc k` header at a line start.
 */
export function titledDocs(block: string): ResultJson[] {
  return headedSpans(block, docHeader).map(({ body, end }, i) => {
    const close = titleEnd(block, body);
    if (close === -1 || close > end) return { rank: i + 1, text: block.slice(body, end).trim() };
    return { rank: i + 1, title: unquoteTitle(block.slice(body, close)), text: block.slice(close + 1, end).trim() };
  });
}

const colonHeader = /(?:^|\n)Doc \d+:/g;

/** ZeroSearch's `Doc 1: text\nDoc 2: text` (its simulated documents have no titles). */
export function colonDocs(block: string): ResultJson[] {
  return headedSpans(block, colonHeader).map(({ body, end }, i) => ({ rank: i + 1, text: block.slice(body, end).trim() }));
}

const numberedHeader = /(?:^|\n)\(\d+\)/g;

/** R1-Searcher's `(1)text\n(2)text\n` (no titles); a block that reads `None` holds no results. */
export function numberedDocs(block: string): ResultJson[] {
  return headedSpans(block, numberedHeader).map(({ body, end }, i) => ({ rank: i + 1, text: block.slice(body, end).trim() }));
}

/**
 * ReSearch's `<result>` block: passages separated by blank lines. A passage of several lines is read
 * as FlashRAG's `contents` (first line the title, the rest the text); a one-line passage is text only.
 */
export function paragraphDocs(block: string): ResultJson[] {
  const titled = titledDocs(block);
  if (titled.length > 0) return titled;
  return block.split(/\n\s*\n/u).map((p) => p.trim()).filter((p) => p !== '').map((p, i) => {
    const nl = p.indexOf('\n');
    return nl === -1 ? { rank: i + 1, text: p } : { rank: i + 1, title: unquoteTitle(p.slice(0, nl)), text: p.slice(nl + 1).trim() };
  });
}

const accessHeader = /(?:^|\n)\[Doc \d+\]\([^\n]*\):\n/g;

/**
 * ASearcher's search results (AReaL/ASearcher/train/search_agent.py): `[Doc 1](url):\ntext`, passages
 * joined by a blank line, no titles (the url is not kept); `No search results are found.` holds none.
 */
export function linkedDocs(block: string): ResultJson[] {
  return headedSpans(block, accessHeader).map(({ body, end }, i) => ({ rank: i + 1, text: block.slice(body, end).trim() }));
}

const rankedHeader = /(?:^|\n)\d+\. /g;

/**
 * MMSearch-R1's search results (mmsearch_r1/utils/tools/text_search.py, image_search.py): a header
 * line, then `1. text` per result; an image result's `title: T` line is its title, the rest its text
 * (the image itself is a vision token, gone from decoded text). An error message has no results.
 */
export function rankedDocs(block: string): ResultJson[] {
  return headedSpans(block, rankedHeader).map(({ body, end }, i) => {
    const lines = block.slice(body, end).trim().split('\n');
    const titled = lines.findIndex((line) => line.startsWith('title: '));
    if (titled === -1) return { rank: i + 1, text: lines.join('\n').trim() };
    const title = lines[titled]!.slice('title: '.length).trim();
    return { rank: i + 1, title, text: lines.filter((_l, k) => k !== titled).join('\n').trim() };
  });
}

const webPageHeader = /(?:^|\n)\*\*\*Web Page \d+:\*\*\*\n/g;

/** The framework's own answers to a search it did not run: no results (WebThinker, scripts/run_web_thinker.py). */
const notSearched = ['You have already searched for this query.', 'You have reached the search limit.', 'You have reached the limit for clicking links.'];

/**
 * WebThinker's search result (scripts/run_web_thinker.py): in the main reasoning chain, the web
 * explorer's summary of what it found (one result, its text); in the explorer's own chain, the
 * search engine's pages, `***Web Page 1:***` then a JSON object with `title` and `snippet` (one
 * result each). The framework's own messages (already searched, limit reached) hold none.
 */
export function webThinkerDocs(block: string): ResultJson[] {
  const pages = headedSpans(block, webPageHeader);
  if (pages.length > 0) {
    return pages.map(({ body, end }, i) => {
      const page = block.slice(body, end).trim();
      let value: unknown;
      try {
        value = JSON.parse(page);
      } catch {
        return { rank: i + 1, text: page };
      }
      const record = isRecord(value) ? value : {};
      const text = typeof record.snippet === 'string' ? record.snippet : page;
      return typeof record.title === 'string' ? { rank: i + 1, title: record.title, text } : { rank: i + 1, text };
    });
  }
  const text = block.trim();
  if (text === '' || notSearched.some((m) => text.startsWith(m))) return [];
  return [{ rank: 1, text }];
}
