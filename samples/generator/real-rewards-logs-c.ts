/**
 * Writes sample logs for two more real rewards of samples/real-rewards/, verl-style rollout dumps
 * (`logs/NAME/STEP.jsonl`, one `{input, output, gts, score, step, …}` per rollout) rendered from the
 * synthetic HotpotQA-style pool, each a multi-turn transcript: ASearcher's F1 × per-turn format
 * (`<search>` turns answered in `<information>`, augmented answers logged as `aug_answer`) and
 * MMSearch-R1's EM with search and format penalties (an image search, text searches, the framework's
 * turn after each result). As in real-rewards-logs.ts, each scorer is written from the facts in
 * samples/real-rewards/SOURCES.md, independently of the product and of the specs.
 *   node out/samples/generator/real-rewards-logs-c.js [--pools samples/pools] [--out samples/real-rewards/logs]
 * Deterministic: the same pool gives byte-identical files.
 */
import * as path from 'node:path';
import type { PoolRow } from './pool-row.js';
import { createRng } from './prng.js';
import type { CorpusPassage } from './search-r1-dump.js';
import { corpusOf, option } from './log-inputs.js';
import { blocks, countOf, punctuation, pySplit, pyStrip, squad } from './python-text.js';
import { stepLogRows, writeStepLog } from './step-logs.js';

type Passages = ReadonlyMap<string, CorpusPassage>;
function passage(corpus: Passages, id: string): CorpusPassage {
  const found = corpus.get(id);
  if (found === undefined) throw new Error(`result ${id} is not in the corpus`);
  return found;
}

// ---- ASearcher (SOURCES.md §8) ----

/** ASearcher's normalisation: True/False as yes/no, ASCII punctuation → space, collapsed, lower-cased. */
function asearcherNormal(text: string): string {
  const mapped = text === 'True' ? 'yes' : text === 'False' ? 'no' : text;
  return pySplit([...mapped].map((ch) => (punctuation.has(ch) ? ' ' : ch)).join('')).join(' ').toLowerCase();
}
/** F1 over token sets; 0 when either set is empty or nothing is shared. */
function setF1(prediction: string, gold: string): number {
  const p = new Set(pySplit(asearcherNormal(prediction)));
  const g = new Set(pySplit(asearcherNormal(gold)));
  const same = [...p].filter((w) => g.has(w)).length;
  if (p.size === 0 || g.size === 0 || same === 0) return 0;
  const precision = same / p.size;
  const recall = same / g.size;
  return (2 * precision * recall) / (precision + recall);
}
function bestF1(answer: string, golds: readonly string[]): number {
  return Math.max(0, ...golds.map((g) => setF1(answer, g)));
}
/** One LLM turn's format: no role word, balanced action tags, at most one action, at most one </think>. */
function asearcherTurnOk(turn: string): boolean {
  const opens = ['search', 'access', 'answer'].map((tag) => countOf(turn, `<${tag}>`));
  const balanced = ['search', 'access', 'answer'].every((tag) => countOf(turn, `<${tag}>`) === countOf(turn, `</${tag}>`));
  return !turn.includes('Assistant') && !turn.includes('assistant') && balanced && opens.reduce((a, b) => a + b, 0) <= 1 && countOf(turn, '</think>') <= 1;
}
/** The trajectory's score: its last turn's (a search turn 0, an answer its F1), × format, −0.5 for "invalid". */
function asearcherScore(turns: readonly string[], golds: readonly string[], aug: readonly string[]): number {
  const last = turns[turns.length - 1] ?? '';
  const answers = blocks(last, 'answer');
  if (answers.length === 0) return 0;
  const answer = pyStrip(answers[answers.length - 1] ?? '');
  const gold = bestF1(answer, golds);
  const f1 = aug.length > 0 ? 0.7 * gold + 0.3 * Math.max(bestF1(answer, aug), gold) : gold;
  const score = turns.every(asearcherTurnOk) ? f1 : 0;
  return ['question', 'invalid', 'appropriate', 'valid'].some((word) => answer.includes(word)) ? -0.5 : score;
}

const asearcherTemplate =
  'A conversation between User and Assistant. The user asks a question, and the assistant solves it. Think inside <think> and </think>; ' +
  'search with <search> query </search> or open a page with <access> url </access>; results come inside <information> and </information>. ' +
  'Give the final answer inside <answer> and </answer>. If the question is invalid, say so.';

/** An ASearcher rollout: the model's turns (one action each) and the framework's results between them. */
function asearcherRollout(row: PoolRow, corpus: Passages): { output: string; turns: string[]; aug: string[] } {
  const rng = createRng(['real-rewards-c', 'asearcher', row.id]);
  // Augmented answers for a third of the questions: a longer phrasing of the gold.
  const aug = createRng(['real-rewards-c', 'asearcher-aug', row.question_id]).chance(0.35) ? row.gold.answers.map((g) => `${g} area`) : [];
  const turns: string[] = [];
  let output = '';
  for (const step of row.steps) {
    if (step.type !== 'search') continue;
    const turn = `<think> I should look up ${step.query}. </think>\n<search>${step.query}</search>`;
    const docs = step.results.map((id, k) => `[Doc ${k + 1}](https://en.wikipedia.org/wiki/${encodeURIComponent(passage(corpus, id).title)}):\n${passage(corpus, id).text}`).join('\n\n');
    turns.push(turn);
    output += `${turn}\n\n<information>\n${docs}\n</information>\n\n`;
  }
  // A turn with no action: the framework simply generates the next one.
  if (rng.chance(0.15)) {
    const turn = rng.chance(0.3) ? '<think> As the assistant I check once more. </think>' : '<think> Let me weigh the passages. </think> They agree. </think>';
    turns.push(turn);
    output += `${turn}\n`;
  }
  if (row.final === null || rng.chance(0.04)) return { output, turns, aug };
  const form = rng.int(20);
  const answer = form === 0 ? 'the question is invalid' : form === 1 ? `${row.final.answer} area` : form === 2 ? `${row.question.split(' ').slice(-2).join(' ')}` : row.final.answer;
  const turn = `<think> I have what I need. </think>\n<answer>${answer}</answer>`;
  turns.push(turn);
  output += turn;
  return { output, turns, aug };
}

// ---- MMSearch-R1 (SOURCES.md §11) ----

const directAnswer = /^\s*<reason>[\s\S]*<\/reason>[\s\S]*<answer>[\s\S]*<\/answer>\s*$/u;
const imageSearch = /^\s*<reason>[\s\S]*<\/reason>[\s\S]*<search><img><\/search>\s*$/u;
const textSearch = /^\s*<reason>[\s\S]*<\/reason>[\s\S]*<text_search>[\s\S]*<\/text_search>\s*$/u;
function once(turn: string, tags: readonly string[]): boolean {
  return tags.every((tag) => countOf(turn, `<${tag}>`) === 1 && countOf(turn, `</${tag}>`) === 1);
}
function absent(turn: string, tags: readonly string[]): boolean {
  return tags.every((tag) => countOf(turn, `<${tag}>`) === 0 && countOf(turn, `</${tag}>`) === 0);
}
function isAnswer(turn: string): boolean {
  return directAnswer.test(turn) && once(turn, ['reason', 'answer']) && absent(turn, ['search', 'text_search', 'img']);
}
function isImage(turn: string): boolean {
  return imageSearch.test(turn) && once(turn, ['reason', 'search']) && absent(turn, ['answer', 'text_search']);
}
function isText(turn: string): boolean {
  return textSearch.test(turn) && once(turn, ['reason', 'text_search']) && absent(turn, ['answer', 'search']);
}
function mmsearchFormat(turns: readonly string[]): number {
  const [a, b, c] = turns;
  if (turns.length === 1) return isAnswer(a ?? '') ? 1 : 0;
  if (turns.length === 2) return (isImage(a ?? '') || isText(a ?? '')) && isAnswer(b ?? '') ? 1 : 0;
  if (turns.length === 3) return isImage(a ?? '') && isText(b ?? '') && isAnswer(c ?? '') ? 1 : 0;
  return 0;
}
/** compute_score: 0.9 × (EM, × 0.9 when some turn before the last searched) + 0.1 × format. */
function mmsearchScore(turns: readonly string[], golds: readonly string[]): number {
  const answers = blocks(turns[turns.length - 1] ?? '', 'answer');
  const answer = answers.length === 0 ? null : squad(pyStrip(answers[answers.length - 1] ?? ''));
  const em = answer !== null && golds.some((g) => squad(g) === answer) ? 1 : 0;
  const searched = turns.slice(0, -1).some((t) => t.includes('<search><img></search>') || (t.includes('<text_search>') && t.includes('</text_search>')));
  const score = em * (searched ? 0.9 : 1);
  return 0.9 * score + 0.1 * mmsearchFormat(turns);
}

const mmsearchInstructions =
  'Answer the question about the image. Reason inside <reason> and </reason>. To search the image, write <search><img></search>; ' +
  'to search the web, write <text_search>your query here</text_search>. When you know the answer, write it as <answer>Titanic</answer>.';
function mmsearchPrompt(question: string): string {
  return `<|im_start|>system\nYou are a helpful assistant.<|im_end|>\n<|im_start|>user\n<|vision_start|><|image_pad|><|vision_end|>${question}\n${mmsearchInstructions}<|im_end|>\n<|im_start|>assistant\n`;
}

/** An MMSearch-R1 rollout: at most an image search and a text search, each result in the framework's turn. */
function mmsearchRollout(row: PoolRow, corpus: Passages): { output: string; turns: string[] } {
  const rng = createRng(['real-rewards-c', 'mmsearch_r1', row.id]);
  const searches = row.steps.filter((s) => s.type === 'search');
  const turns: string[] = [];
  let output = '';
  const result = (turn: string, header: string, ids: readonly string[]): void => {
    turns.push(turn);
    const lines = ids.map((id, k) => `${k + 1}. ${passage(corpus, id).text}`).join('\n');
    // The framework's turn: the results, the question and the instructions again, then the next assistant turn.
    output += `${turn}\n<information>${header}\n${lines}\n</information>\n${row.question}\n${mmsearchInstructions}<|im_end|>\n<|im_start|>assistant\n`;
  };
  const [first, second] = searches;
  if (first !== undefined && rng.chance(0.5)) {
    result('<reason> The image may show what the question is about. </reason>\n<search><img></search>', '[Image Search Results] The results of the image search:', first.results);
    // A second search is a text search, or (a format error) another image search.
    if (second !== undefined) {
      const again = rng.chance(0.1);
      result(again ? '<reason> Another look at the image. </reason>\n<search><img></search>' : `<reason> I need more about ${second.query}. </reason>\n<text_search>${second.query}</text_search>`, again ? '[Image Search Results] The results of the image search:' : '[Text Search Results] Below are the text search results:', second.results);
    }
  } else if (first !== undefined) {
    result(`<reason> I need to know about ${first.query}. </reason>\n<text_search>${first.query}</text_search>`, '[Text Search Results] Below are the text search results:', first.results);
    // A second text search: three turns without the image search, which the format rejects.
    if (second !== undefined && rng.chance(0.3)) result(`<reason> And about ${second.query}. </reason>\n<text_search>${second.query}</text_search>`, '[Text Search Results] Below are the text search results:', second.results);
  }
  if (row.final === null || rng.chance(0.04)) {
    const turn = '<reason> The results do not settle it. </reason>';
    turns.push(turn);
    return { output: output + turn, turns };
  }
  // A direct answer, sometimes without its reasoning (a format error).
  const turn = rng.chance(0.1) ? `<answer>${row.final.answer}</answer>` : `<reason> The passages point to one answer. </reason>\n<answer>${row.final.answer}</answer>`;
  turns.push(turn);
  return { output: output + turn, turns };
}

interface Log {
  readonly name: string;
  readonly render: (row: PoolRow) => { input: string; output: string; target: readonly string[]; score: number; extra?: Record<string, unknown> };
}

export function realRewardLogsC(corpus: Passages): Log[] {
  return [
    {
      name: 'asearcher',
      render: (row) => {
        const { output, turns, aug } = asearcherRollout(row, corpus);
        const input = `<|im_start|>system\n${asearcherTemplate}<|im_end|>\n<|im_start|>user\nQuestion: ${row.question}\n<|im_end|>\n<|im_start|>assistant\n`;
        return { input, output, target: row.gold.answers, score: asearcherScore(turns, row.gold.answers, aug), extra: { aug_answer: aug } };
      },
    },
    {
      name: 'mmsearch_r1',
      render: (row) => {
        const { output, turns } = mmsearchRollout(row, corpus);
        return { input: mmsearchPrompt(row.question), output, target: row.gold.answers, score: mmsearchScore(turns, row.gold.answers) };
      },
    },
  ];
}

function main(): void {
  const poolsDir = option('--pools', 'samples/pools');
  const outDir = option('--out', 'samples/real-rewards/logs');
  const corpus = corpusOf(poolsDir);
  const rows = stepLogRows(poolsDir);
  for (const log of realRewardLogsC(corpus)) {
    writeStepLog(path.join(outDir, log.name), rows, (row, step) => {
      const { input, output, target, score, extra = {} } = log.render(row);
      return { file: `${step}.jsonl`, line: JSON.stringify({ input, output, gts: { target }, score, step, ...extra }), score };
    });
  }
}

if (process.argv[1]?.endsWith('real-rewards-logs-c.js')) main();
