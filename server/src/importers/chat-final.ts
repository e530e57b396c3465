// The final answer inside the last assistant message, by the rule the user's reward uses to find it,
// and the citation markers its text writes (`[20]`, `【20】`, `[20, 21]`).
import { lastTagBlock, tagBlocks } from './tag-blocks.js';

/** How the answer is found in the final text (`answer` option). */
export const answerRules = ['boxed', 'answer_tag', 'exact_answer', 'whole'] as const;
export type AnswerRule = (typeof answerRules)[number];

/** What a citation marker names (`citations` option): a corpus id, a result rank, or nothing (markers ignored). */
export const citationRules = ['docid', 'rank', 'none'] as const;
export type CitationRule = (typeof citationRules)[number];

export const answerRuleDocs: Readonly<Record<AnswerRule, string>> = {
  boxed: 'the last `\\boxed{…}` (braces balanced)',
  answer_tag: 'the last `<answer>…</answer>`',
  exact_answer: 'the last `Exact Answer: …` line (BrowseComp prompts; `**Exact Answer:**` too)',
  whole: 'the whole text without `<think>` blocks, trimmed',
};

/** `<think>…</think>` blocks, in order, and the text without them. */
export function splitThink(text: string): { readonly thoughts: readonly string[]; readonly rest: string } {
  const blocks = tagBlocks(text, '<think>', '</think>');
  if (blocks.length === 0) return { thoughts: [], rest: text };
  const kept: string[] = [];
  let from = 0;
  for (const block of blocks) {
    kept.push(text.slice(from, block.start));
    from = block.end;
  }
  kept.push(text.slice(from));
  return { thoughts: blocks.map((b) => b.inside.trim()), rest: kept.join('') };
}

function lastBoxed(text: string): string | undefined {
  const start = text.lastIndexOf('\\boxed{');
  if (start < 0) return undefined;
  let depth = 0;
  const open = start + '\\boxed'.length;
  for (let i = open; i < text.length; i += 1) {
    if (text[i] === '{') depth += 1;
    else if (text[i] === '}') {
      depth -= 1;
      if (depth === 0) return text.slice(open + 1, i);
    }
  }
  return undefined;
}

/** The answer the rule finds in a final text, or undefined when it finds none. */
export function extractAnswer(text: string, rule: AnswerRule): string | undefined {
  switch (rule) {
    case 'boxed':
      return lastBoxed(text)?.trim();
    case 'answer_tag': {
      return lastTagBlock(text, '<answer>', '</answer>');
    }
    case 'exact_answer': {
      const lines = [...text.matchAll(/^[^\S\n]*\**Exact Answer\**[^\S\n]*:\**[^\S\n]*(.*)$/gim)];
      const answer = lines.at(-1)?.[1]?.trim();
      return answer === undefined || answer === '' ? undefined : answer;
    }
    case 'whole': {
      const whole = splitThink(text).rest.trim();
      return whole === '' ? undefined : whole;
    }
  }
}

/** A citation marker of pool format v2. */
export type CitationMarker = { readonly marker: string; readonly id: string } | { readonly marker: string; readonly rank: number };

// The one reading of citation markers, for every format (docs/import.md, "Citation markers"). A
// marker is a bracket group: `[…]`, the doubled `[[…]]` (one marker, not a marker inside brackets)
// or the fullwidth `【…】`, holding one or more comma-separated items without spaces or brackets
// (spaces around the items are allowed). A group written directly before `(` is a markdown link
// (`[3](url)`, `[[3]](url)`): it is read with its `(`, so no bracket inside it is read again.
const item = '[^\\s,\\[\\]【】]+';
const list = `\\s*(${item}(?:\\s*,\\s*${item})*)\\s*`;
const bracketGroup = new RegExp(`(?:\\[\\[${list}\\]\\]|\\[${list}\\]|【${list}】)(\\()?`, 'gu');

/** Whether an item names what the rule cites: a docid has a digit (`[sic]` is prose), a rank is digits only. */
function citesBy(rule: 'docid' | 'rank', token: string): boolean {
  // OpenAI's browser cites `【3†L10-L20】`: a page cursor and lines, neither a docid nor a rank.
  if (token.includes('†')) return false;
  return rule === 'docid' ? /\d/u.test(token) : /^\d+$/u.test(token);
}

/**
 * The citation markers of a final text, in order of appearance: each item of a group is one citation
 * (`[20, 21]` is two, both with the marker `[20, 21]`). A group with an item that is no id or rank
 * (`[Smith, 2003]`, `[sic]`) is prose as a whole: it cites nothing.
 */
export function citationMarkers(text: string, rule: CitationRule): CitationMarker[] {
  if (rule === 'none') return [];
  const markers: CitationMarker[] = [];
  for (const match of text.matchAll(bracketGroup)) {
    if (match[4] !== undefined) continue;
    const tokens = (match[1] ?? match[2] ?? match[3] ?? '').split(',').map((t) => t.trim());
    if (!tokens.every((token) => citesBy(rule, token))) continue;
    for (const token of tokens) markers.push(rule === 'docid' ? { marker: match[0], id: token } : { marker: match[0], rank: Number(token) });
  }
  return markers;
}
