/**
 * Renders pool rows (v1) as a deep-research agent's BrowseComp-Plus run files: one JSON document per
 * query, `{query_id, status, tool_call_counts, retrieved_docids, result[…]}` (TRAJECTORIES.md,
 * "Deep-research run files"). The agent searches (`search` returns `[{docid, score, snippet}]`),
 * opens some results with `get_document`, and answers with "Exact Answer:" and `[docid]` citations.
 * Docids are the corpus ids without their `w:` prefix, as BrowseComp-Plus's are plain numbers.
 */
import type { PoolRow } from './pool-row.js';
import { createRng } from './prng.js';

export interface RunPassage {
  readonly title: string;
  readonly text: string;
}

export interface RunItem {
  readonly type: 'reasoning' | 'tool_call' | 'output_text';
  readonly tool_name: string | null;
  readonly arguments: string | null;
  readonly output: string | readonly string[];
}

export interface RunFile {
  readonly query_id: string;
  readonly status: 'completed' | 'incomplete';
  readonly tool_call_counts: Readonly<Record<string, number>>;
  readonly retrieved_docids: readonly string[];
  readonly result: readonly RunItem[];
}

/** What the grader said about one run: the answer judged against the gold answer. */
export interface JudgeLine {
  readonly query_id: string;
  readonly judge: { readonly correct: boolean; readonly score: number };
}

export const docidOf = (id: string): string => id.replace(/^w:/u, '');

function snippet(text: string): string {
  return text.length <= 160 ? text : `${text.slice(0, 157)}...`;
}

/** The run file of one row; `judged` is the grader's verdict (an LLM judge that read the gold answer). */
export function runFileOf(row: PoolRow, corpus: ReadonlyMap<string, RunPassage>): { run: RunFile; judge: JudgeLine } {
  const rng = createRng(['browsecomp', row.id]);
  const result: RunItem[] = [];
  const counts: Record<string, number> = {};
  const retrieved: string[] = [];
  const call = (tool: string, args: object, output: string): void => {
    counts[tool] = (counts[tool] ?? 0) + 1;
    result.push({ type: 'tool_call', tool_name: tool, arguments: JSON.stringify(args), output });
  };
  for (const step of row.steps) {
    if (step.type !== 'search') continue;
    result.push({ type: 'reasoning', tool_name: null, arguments: null, output: [`I should search for ${step.query}.`] });
    const hits = step.results.map((id, k) => ({ docid: docidOf(id), score: Number((20 - k * 1.5 - rng.next()).toFixed(4)), snippet: snippet(corpus.get(id)?.text ?? '') }));
    call('search', { query: step.query }, JSON.stringify(hits));
    for (const hit of hits) if (!retrieved.includes(hit.docid)) retrieved.push(hit.docid);
  }
  // Agents often open the passage they are about to cite; only ids a search returned can be opened.
  const opened = row.final?.citations.map(docidOf).find((docid) => retrieved.includes(docid));
  if (opened !== undefined && rng.chance(0.6)) {
    const passage = corpus.get(`w:${opened}`);
    call('get_document', { docid: opened }, passage === undefined ? '' : `${passage.title}\n${passage.text}`);
  }
  if (row.final !== null) {
    const cited = row.final.citations.map((id) => `[${docidOf(id)}]`).join(' ');
    const explanation = `The passages I read answer the question ${cited}.`.replace(/ \./u, '.');
    result.push({ type: 'output_text', tool_name: null, arguments: null, output: `Explanation: ${explanation}\nExact Answer: ${row.final.answer}\nConfidence: ${60 + rng.int(40)}%` });
  }
  const golds = row.gold.answers.map((a) => a.toLowerCase());
  const correct = row.final !== null && golds.includes(row.final.answer.toLowerCase());
  return {
    run: { query_id: row.question_id, status: row.final === null ? 'incomplete' : 'completed', tool_call_counts: counts, retrieved_docids: retrieved, result },
    judge: { query_id: row.question_id, judge: { correct, score: correct ? 1 : 0 } },
  };
}
