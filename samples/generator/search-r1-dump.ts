/**
 * Renders pool rows (v1) as the rollouts a Search-R1 run on verl writes to its rollout dump folder:
 * one JSON line per rollout, `{input, output, gts, score, step}` (TRAJECTORIES.md, "Containers").
 * The output is the agent's side of the Search-R1 protocol: `<think>`, `<search>`, the retriever's
 * `<information>` block with "Doc k(Title: T) text" lines, and a final `<answer>`. Search-R1 never
 * writes passage ids, so an importer has to find them again in the corpus by title and text.
 *
 * `score` is what Search-R1's EM + format reward gives the rollout, computed here independently of
 * the product (below), so a spec that writes the same reward can be checked against the log.
 */
import type { PoolRow } from './pool-row.js';
import { createRng } from './prng.js';
import { pyStrip } from './python-text.js';

export interface CorpusPassage {
  readonly title: string;
  readonly text: string;
}

export interface VerlDumpRecord {
  readonly input: string;
  readonly output: string;
  readonly gts: { readonly target: readonly string[] };
  readonly score: number;
  readonly step: number;
}

/** The weights of Search-R1's format-aware EM reward used for the sample (its config's structure_format_score, final_format_score, retrieval_score). */
export const searchR1Weights = { structure: 0.2, final: 0.1, retrieval: 0.1 } as const;

// The prompt as the chat template renders it: instructions, one example answer (which is why the
// reward takes the *last* `<answer>` and needs two), the question after "Question: ".
export const fullInstructions =
  'Answer the question. Think inside <think> and </think> whenever you get new information. ' +
  'To look something up, write <search> query </search>; the results come back between <information> and </information>. ' +
  'Search as often as you need. When you know the answer, write it inside <answer> and </answer> with no explanation, ' +
  'for example <answer> Paris </answer>.';

/** A shorter prompt of the same shape (instructions, an example answer, the question), for dumps that must stay small. */
export const shortInstructions = 'Think in <think>, search with <search> q </search>, answer as <answer> Paris </answer>.';

function promptOf(question: string, instructions: string): string {
  return `<|im_start|>system\nYou are a helpful assistant.<|im_end|>\n<|im_start|>user\n${instructions} Question: ${question}\n<|im_end|>\n<|im_start|>assistant\n`;
}

function informationBlock(ids: readonly string[], corpus: ReadonlyMap<string, CorpusPassage>): string {
  const docs = ids.map((id, k) => {
    const passage = corpus.get(id);
    if (passage === undefined) throw new Error(`result ${id} is not in the corpus`);
    return `Doc ${k + 1}(Title: ${passage.title}) ${passage.text}`;
  });
  return `\n\n<information>${docs.join('\n')}</information>\n\n`;
}

// The environment's answer to an action that is neither a search nor an answer.
const invalidObservation = '\nMy previous action is invalid. To search, put the query between <search> and </search>; to answer, put the answer between <answer> and </answer>. Let me try again.\n';

/**
 * The response text of one rollout. A small share of rollouts breaks the format in the ways real
 * ones do (a search with no thought before it, text after the answer), so the format term varies.
 */
function responseOf(row: PoolRow, corpus: ReadonlyMap<string, CorpusPassage>): string {
  const rng = createRng(['search-r1', row.id]);
  const skipThinkAt = rng.chance(0.06) ? rng.int(row.steps.length + 1) : -1;
  let out = '';
  row.steps.forEach((step, index) => {
    if (index !== skipThinkAt) out += `<think> ${index === 0 ? 'I need to find out' : 'I still need'} what the question asks about. </think>\n`;
    if (step.type === 'search') out += `<search> ${step.query} </search>${informationBlock(step.results, corpus)}`;
    else out += `${step.text}${invalidObservation}`;
  });
  if (row.final === null) return out;
  if (skipThinkAt !== row.steps.length) out += '<think> I have what I need. </think>\n';
  out += `<answer> ${row.final.answer} </answer>`;
  if (rng.chance(0.03)) out += ' I am confident in this answer.';
  return out;
}

/** One rollout per pool row; rows of one question sampled together share a training step. */
export function verlDumpRecords(rows: readonly PoolRow[], corpus: ReadonlyMap<string, CorpusPassage>, questionsPerStep: number, instructions = fullInstructions): VerlDumpRecord[] {
  const stepOfQuestion = new Map<string, number>();
  return rows.map((row) => {
    if (!stepOfQuestion.has(row.question_id)) stepOfQuestion.set(row.question_id, Math.floor(stepOfQuestion.size / questionsPerStep) + 1);
    const input = promptOf(row.question, instructions);
    const output = responseOf(row, corpus);
    const gts = { target: row.gold.answers };
    return { input, output, gts, score: searchR1Score(input + output, gts.target), step: stepOfQuestion.get(row.question_id) ?? 0 };
  });
}

// ---- Search-R1's reward, written from its definition (qa_em_format), independently of the product ----

const punctuation = new Set('!"#$%&\'()*+,-./:;<=>?@[\\]^_`{|}~');

/** SQuAD's normalize_answer: lower case, drop ASCII punctuation, drop the articles, collapse whitespace. */
function normalizeAnswer(text: string): string {
  const lower = text.toLowerCase();
  const noPunct = [...lower].filter((ch) => !punctuation.has(ch)).join('');
  const noArticles = noPunct.replace(/(?<![\p{L}\p{N}_])(a|an|the)(?![\p{L}\p{N}_])/gu, ' ');
  return noArticles.split(/\s+/u).filter((w) => w !== '').join(' ');
}

function exactMatch(prediction: string, golds: readonly string[]): boolean {
  const p = normalizeAnswer(prediction);
  return golds.some((g) => normalizeAnswer(g) === p);
}

/** The last `<answer>` of prompt + response, when there are at least two (the prompt holds one). */
function lastAnswer(text: string): string | null {
  const answers = [...text.matchAll(/<answer>([\s\S]*?)<\/answer>/gu)];
  return answers.length <= 1 ? null : (answers[answers.length - 1]?.[1] ?? '').trim();
}

const tags = ['think', 'search', 'information', 'answer'] as const;

/** The format state machine: after the assistant marker, think, then (search, information, think)*, then answer, and only whitespace between tags. */
export function validFormat(text: string): boolean {
  const marker = /<\|im_start\|>assistant\s*/u.exec(text);
  if (marker === null) return false;
  const content = text.slice(marker.index + marker[0].length);
  for (const tag of tags) {
    if (content.split(`<${tag}>`).length !== content.split(`</${tag}>`).length) return false;
  }
  const next: Record<string, Record<string, string>> = {
    start: { '<think>': 'in_think' },
    information: { '<think>': 'in_think' },
    in_think: { '</think>': 'after_think' },
    after_think: { '<search>': 'in_search', '<answer>': 'in_answer' },
    in_search: { '</search>': 'after_search' },
    after_search: { '<information>': 'in_information' },
    in_information: { '</information>': 'information' },
    in_answer: { '</answer>': 'end' },
  };
  let state = 'start';
  for (const part of content.split(/(<\/?(?:think|search|information|answer)>)/u)) {
    if (pyStrip(part) === '') continue;
    if (/^<\/?(?:think|search|information|answer)>$/u.test(part)) {
      const to = next[state]?.[part];
      if (to === undefined) return false;
      state = to;
    } else if (!state.startsWith('in_')) {
      return false;
    }
  }
  return state === 'end';
}

function retrievalCorrect(text: string, golds: readonly string[]): boolean {
  const blocks = [...text.matchAll(/<information>([\s\S]*?)<\/information>/gu)].map((m) => normalizeAnswer((m[1] ?? '').trim()));
  return blocks.some((block) => golds.some((g) => block.includes(normalizeAnswer(g))));
}

/** Search-R1's format-aware EM reward of prompt + response, with the sample's weights. */
export function searchR1Score(text: string, golds: readonly string[]): number {
  const { structure, final, retrieval } = searchR1Weights;
  const valid = validFormat(text);
  const answer = lastAnswer(text);
  const formatOnly = valid ? structure + (retrievalCorrect(text, golds) ? retrieval : 0) : 0;
  if (answer === null) return formatOnly;
  if (exactMatch(answer, golds)) return valid ? 1 : 1 - structure;
  return valid ? formatOnly : final;
}
