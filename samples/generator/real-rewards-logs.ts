/**
 * Writes sample logs for the real rewards of samples/real-rewards/: verl-style rollout dumps
 * (`logs/NAME/STEP.jsonl`, one `{input, output, gts, score, step}` per rollout; SkyRL's eval dumps
 * `logs/skyrl_search/global_step_N_evals/DATA_SOURCE.jsonl` for SkyRL) rendered from the
 * synthetic HotpotQA-style pool in each framework's tags, with the `score` each framework's reward
 * gives the rollout. The scorers below are written from the facts in samples/real-rewards/SOURCES.md
 * (what each source computes), independently of the product and of the specs, so a spec that
 * computes the same number on every row is that reward.
 *   node out/samples/generator/real-rewards-logs.js [--pools samples/pools] [--out samples/real-rewards/logs]
 * Deterministic: the same pool gives byte-identical files.
 */
import * as path from 'node:path';
import type { PoolRow } from './pool-row.js';
import { createRng, type Rng } from './prng.js';
import { validFormat, type CorpusPassage } from './search-r1-dump.js';
import { corpusOf, option } from './log-inputs.js';
import { blocks, countOf, dropArticles, punctuation, pySplit, pyStrip, sharedTokens, squad } from './python-text.js';
import { stepLogRows, writeStepLog } from './step-logs.js';

interface Rollout {
  readonly input: string;
  readonly output: string;
  readonly gts: { readonly target: readonly string[] };
  readonly score: number;
  readonly step: number;
}

// ---- text helpers of the scorers (Python's own in ./python-text.ts) ----

/** R1-Searcher's normalize_answer: "_" to space, lower, punctuation and ‘ ’ ´ ` to spaces, articles, whitespace. */
function r1Normalize(text: string): string {
  const extra = new Set(['‘', '’', '´', '`']);
  const spaced = [...text.replace(/_/gu, ' ').toLowerCase()].map((ch) => (punctuation.has(ch) || extra.has(ch) ? ' ' : ch)).join('');
  return pySplit(dropArticles(spaced)).join(' ');
}
function boolMapping(text: string): string {
  return text === 'True' ? 'yes' : text === 'False' ? 'no' : text;
}
/** Token F1 of two normalised texts, repeats counted, null when no token is shared. */
function f1Tokens(prediction: string[], gold: string[]): number | null {
  const same = sharedTokens(prediction, gold);
  if (same === 0) return null;
  const p = same / prediction.length;
  const r = same / gold.length;
  return (2 * p * r) / (p + r);
}
/** F1 with the yes/no/noanswer rule (AutoRefine, ReSearch, R1-Searcher): a gold is skipped when either side is one of them and they differ. */
function f1YesNo(prediction: string, golds: readonly string[], normalize: (t: string) => string): number {
  let best = 0;
  const np = normalize(prediction);
  for (const gold of golds) {
    const ng = normalize(gold);
    const special = ['yes', 'no', 'noanswer'];
    if ((special.includes(np) || special.includes(ng)) && np !== ng) continue;
    best = Math.max(best, f1Tokens(np.split(' ').filter((w) => w !== ''), ng.split(' ').filter((w) => w !== '')) ?? 0);
  }
  return best;
}
// ---- the scorers, one per reward, from SOURCES.md ----

/** Search-R1 qa_em: the last of two or more <answer> matches of prompt + response, EM. */
function searchR1QaEm(text: string, golds: readonly string[]): number {
  const answers = blocks(text, 'answer');
  if (answers.length < 2) return 0;
  const answer = squad(pyStrip(answers[answers.length - 1] ?? ''));
  return golds.some((g) => squad(g) === answer) ? 1 : 0;
}


/** Search-R1 qa_em_format with the v0.3 weights (structure 0.2, final 0.1, retrieval 0). */
function searchR1QaEmFormat(text: string, golds: readonly string[]): number {
  const valid = validFormat(text);
  const answers = blocks(text, 'answer');
  if (answers.length < 2) return valid ? 0.2 : 0;
  const answer = squad(pyStrip(answers[answers.length - 1] ?? ''));
  if (golds.some((g) => squad(g) === answer)) return valid ? 1 : 0.8;
  return valid ? 0.2 : 0.1;
}

/** ZeroSearch f1: the max over gold of F1 (0 when nothing is shared) of Search-R1's answer. */
function zeroSearchF1(text: string, golds: readonly string[]): number {
  const answers = blocks(text, 'answer');
  if (answers.length < 2) return 0;
  const prediction = squad(squad(pyStrip(answers[answers.length - 1] ?? '')));
  const words = prediction.split(' ').filter((w) => w !== '');
  return Math.max(0, ...golds.map((g) => f1Tokens(words, squad(squad(g)).split(' ').filter((w) => w !== '')) ?? 0));
}

/** AutoRefine compute_reward: F1 (yes/no rule) of the response's last <answer>, else 0.1 when the joined <refine> text covers a gold. */
function autoRefine(response: string, golds: readonly string[]): number {
  const answers = blocks(response, 'answer');
  if (answers.length === 0) return 0;
  const f1 = f1YesNo(pyStrip(answers[answers.length - 1] ?? ''), golds, squad);
  if (f1 > 0) return f1;
  const refines = blocks(response, 'refine');
  if (refines.length === 0) return 0;
  const joined = squad(pyStrip(refines.join(' ')));
  return golds.some((g) => joined.includes(squad(g))) ? 0.1 : 0;
}

/** ReSearch compute_score: validate_format, the end-of-sequence check, the last balanced \boxed{} of the first <answer>, F1 (yes/no rule) or 0.1. */
function reSearch(text: string, golds: readonly string[]): number {
  const parts = text.split('<|im_start|>assistant\n');
  let response = parts[1] ?? '';
  if (countOf(response, '<think>') !== countOf(response, '</think>') || countOf(response, '<think>') === 0) return 0;
  if (countOf(response, '<answer>') !== 1 || countOf(response, '</answer>') !== 1) return 0;
  let at = 0;
  for (;;) {
    const search = response.indexOf('<search>', at);
    if (search === -1) break;
    const result = response.indexOf('<result>', search);
    const searchEnd = response.indexOf('</search>', search);
    const resultEnd = response.indexOf('</result>', result);
    if (result === -1 || searchEnd === -1 || resultEnd === -1) return 0;
    if (!(search < searchEnd && searchEnd < result && result < resultEnd)) return 0;
    at = resultEnd;
  }
  const answerStart = response.indexOf('<answer>');
  const answerEnd = response.indexOf('</answer>');
  if (answerStart > answerEnd) return 0;
  const span = response.slice(answerStart, answerEnd);
  if (!span.includes('\\boxed{') || !span.includes('}')) return 0;
  if (!response.endsWith('<|im_end|>')) return 0;
  response = response.slice(0, -'<|im_end|>'.length);
  const inside = /<answer>([\s\S]*?)<\/answer>/u.exec(pyStrip(response))?.[1];
  if (inside === undefined) return 0;
  const box = inside.lastIndexOf('\\boxed');
  let depth = 0;
  let close = -1;
  for (let i = box; i < inside.length; i++) {
    if (inside[i] === '{') depth++;
    if (inside[i] === '}') {
      depth--;
      if (depth === 0) {
        close = i;
        break;
      }
    }
  }
  if (close === -1 || !inside.startsWith('\\boxed{', box)) return 0;
  const f1 = f1YesNo(inside.slice(box + '\\boxed{'.length, close), golds, squad);
  return f1 > 0 ? f1 : 0.1;
}

const llamaAssistant = '<|eot_id|><|start_header_id|>assistant<|end_header_id|>\n\n<think>';
const r1Markers = ['<|begin_of_documents|>\n', '<|end_of_documents|>\n\n', '<|begin_of_query|>', '<|end_of_query|>', '<|begin_of_documents|>', '<|end_of_documents|>', '<|begin_of_documents|>\n(1)'];

function r1Solution(text: string): { solution: string; prediction: string } {
  const query = `${text.replace(/(?:<\|eot_id\|>)+$/u, '')}<|eot_id|>`;
  const solution = pyStrip(query.split(llamaAssistant).at(-1) ?? '');
  return { solution, prediction: pyStrip((solution.split('<answer>').at(-1) ?? '').split('</answer>')[0] ?? '') };
}
function r1OnceEach(solution: string): boolean {
  return countOf(solution, '<think>') === 0 && countOf(solution, '</think>') === 1 && countOf(solution, '<answer>') === 1 && countOf(solution, '</answer>') === 1;
}
function r1CountsEqual(solution: string): boolean {
  const counts = r1Markers.map((m) => countOf(solution, m));
  return counts.every((c) => c === counts[0]);
}

/** R1-Searcher stage 1: ±1 on cover-EM, +0.5 retrieval format, +0.5 answer format. */
function r1Stage1(text: string, golds: readonly string[]): number {
  const { solution, prediction } = r1Solution(text);
  const gold = golds[0] ?? '';
  const predWords = r1Normalize(boolMapping(prediction)).split(' ');
  const cover = r1Normalize(boolMapping(gold)).split(' ').every((w) => predWords.includes(w));
  let score = solution.includes('<answer>') && solution.includes('</answer>') && cover ? 1 : -1;
  if (r1CountsEqual(solution) && countOf(solution, r1Markers[2] ?? '') >= 1) score += 0.5;
  if (r1OnceEach(solution)) score += 0.5;
  return score;
}

/** R1-Searcher stage 2: F1 (yes/no rule, 0 without answer tags) − 1 for a broken format. */
function r1Stage2(text: string, golds: readonly string[]): number {
  const { solution, prediction } = r1Solution(text);
  let score = f1YesNo(boolMapping(prediction), golds.map(boolMapping), r1Normalize);
  if (!solution.includes('<answer>') || !solution.includes('</answer>')) score = 0;
  const outside = solution.replace(/<\|begin_of_documents\|>[\s\S]*?<\|end_of_documents\|>/gu, '');
  const cjk = [...outside].some((ch) => ch >= '\u4e00' && ch <= '\u9fff');
  if (!r1CountsEqual(solution) || !r1OnceEach(solution) || cjk) score -= 1;
  return score;
}

/** DeepResearcher's tag balance: per tag, equal counts, and each opening (searched after the last closing) has a closing after it. */
function deepResearcherBalanced(text: string): boolean {
  for (const tag of ['tool_call', 'think', 'answer']) {
    const open = `<${tag}>`;
    const close = `</${tag}>`;
    if (countOf(text, open) !== countOf(text, close)) return false;
    let last = -1;
    for (;;) {
      const start = text.indexOf(open, last + 1);
      if (start === -1) break;
      const end = text.indexOf(close, start);
      if (end === -1) return false;
      last = end;
    }
  }
  return true;
}
/** DeepResearcher's preprocess_text: each ASCII punctuation character a space, whitespace runs one space, stripped. */
function deepResearcherText(text: string): string {
  return [...text].map((ch) => (punctuation.has(ch) ? ' ' : ch)).join('').replace(/\s+/gu, ' ').trim();
}
/** DeepResearcher compute_score (val_type f1): −1 for unbalanced tags or no answer, else the best word-set F1 over the split gold. */
function deepResearcher(response: string, golds: readonly string[]): number {
  const text = response.toLowerCase();
  if (!deepResearcherBalanced(text)) return -1;
  const found = /<answer>([\s\S]*?)<\/answer>/u.exec(text);
  if (found === null) return -1;
  const answer = new Set(pySplit(deepResearcherText(pyStrip(found[1] ?? ''))));
  let best = 0;
  for (const gold of golds.join('<|answer_split|>').toLowerCase().split('<|answer_split|>')) {
    const words = new Set(pySplit(deepResearcherText(gold)));
    if (words.size === 0 || answer.size === 0) continue;
    const common = [...answer].filter((w) => words.has(w)).length;
    const p = common / answer.size;
    const r = common / words.size;
    if (p + r > 0) best = Math.max(best, (2 * p * r) / (p + r));
  }
  return best;
}

/** SkyRL SearchEnv at the end of an episode: EM of the last <answer> match of the joined history, 0 without one. */
function skyrlSearch(history: string, golds: readonly string[]): number {
  const answers = blocks(history, 'answer');
  if (answers.length === 0) return 0;
  const answer = squad(pyStrip(answers[answers.length - 1] ?? ''));
  return golds.some((g) => squad(g) === answer) ? 1 : 0;
}

// ---- rendering pool rows as each framework's rollouts ----

const searchR1Template =
  'Answer the given question. You must conduct reasoning inside <think> and </think> first every time you get new information. ' +
  'After reasoning, if you find you lack some knowledge, you can call a search engine by <search> query </search> and it will return the top searched results between <information> and </information>. ' +
  'You can search as many times as your want. If you find no further external knowledge needed, you can directly provide the answer inside <answer> and </answer>, without detailed illustrations. For example, <answer> Beijing </answer>.';
const autoRefineTemplate =
  'Answer the given question. Think inside <think> and </think>, search with <search> query </search>; the documents come back between <documents> and </documents>. ' +
  'Refine what they say inside <refine> and </refine>. Give the answer inside <answer> and </answer>, for example <answer> Beijing </answer>.';
const reSearchTemplate =
  'Answer the question. Think inside <think> and </think>; search with <search> query </search>, the results come back inside <result> and </result>. ' +
  'Put the final answer inside <answer> and </answer>, in \\boxed{} form.';
const r1Template =
  'Answer the question. Search with <|begin_of_query|> query <|end_of_query|>; the documents come back between <|begin_of_documents|> and <|end_of_documents|>. ' +
  'Close your reasoning with </think> and give the answer inside <answer> and </answer>.';

const invalidMessage = '\nMy previous action is invalid. If I want to search, I should put the query between <search> and </search>. If I want to give the final answer, I should put the answer between <answer> and </answer>. Let me try again.\n';

type Passages = ReadonlyMap<string, CorpusPassage>;
/** Search-R1's `_passages2string`: `Doc k(Title: T) text`, one passage a line. */
function titledDocs(passages: readonly CorpusPassage[]): string {
  return passages.map((p, k) => `Doc ${k + 1}(Title: ${p.title}) ${p.text}`).join('\n');
}

function passage(corpus: Passages, id: string): CorpusPassage {
  const found = corpus.get(id);
  if (found === undefined) throw new Error(`result ${id} is not in the corpus`);
  return found;
}

interface Variation {
  readonly skipThinkAt: number;
  readonly trailing: boolean;
  readonly dropAnswer: boolean;
}
function variationOf(rng: Rng, row: PoolRow): Variation {
  return { skipThinkAt: rng.chance(0.08) ? rng.int(row.steps.length + 1) : -1, trailing: rng.chance(0.05), dropAnswer: rng.chance(0.04) };
}

function qwenPrompt(instructions: string, question: string): string {
  return `<|im_start|>system\nYou are a helpful assistant.<|im_end|>\n<|im_start|>user\n${instructions} Question: ${question}\n<|im_end|>\n<|im_start|>assistant\n`;
}

type Dialect = 'search_r1' | 'zerosearch' | 'autorefine' | 'research';
function observation(dialect: Dialect, ids: readonly string[], corpus: Passages): string {
  const docs = ids.map((id) => passage(corpus, id));
  if (dialect === 'zerosearch') return `\n\n<information>${docs.map((p, k) => `Doc ${k + 1}: ${p.text}`).join('\n')}</information>\n\n`;
  if (dialect === 'research') return ` <result>\n${docs.map((p) => `${p.title}\n${p.text}`).join('\n\n')}\n</result>\n`;
  const text = titledDocs(docs);
  return dialect === 'autorefine' ? `\n\n<documents>${text}</documents>\n\n` : `\n\n<information>${text}</information>\n\n`;
}

function taggedResponse(row: PoolRow, dialect: Dialect, corpus: Passages): string {
  const rng = createRng(['real-rewards', dialect, row.id]);
  const v = variationOf(rng, row);
  let out = '';
  row.steps.forEach((step, index) => {
    if (index !== v.skipThinkAt) out += `<think> ${index === 0 ? 'I need to find out' : 'I still need'} what the question asks about. </think>\n`;
    if (step.type === 'search') {
      out += `<search> ${step.query} </search>${observation(dialect, step.results, corpus)}`;
      if (dialect === 'autorefine') {
        const first = passage(corpus, step.results[0] ?? '');
        out += `<refine> ${rng.chance(0.5) ? first.text : first.title} </refine>\n`;
      }
    } else {
      out += `${step.text}${dialect === 'research' ? '\n' : invalidMessage}`;
    }
  });
  if (row.final === null || v.dropAnswer) return dialect === 'research' ? `${out}<|im_end|>` : out;
  if (v.skipThinkAt !== row.steps.length) out += '<think> I have what I need. </think>\n';
  out += dialect === 'research' ? `<answer> The answer is \\boxed{${row.final.answer}}. </answer>` : `<answer> ${row.final.answer} </answer>`;
  if (v.trailing) out += ' I am confident in this answer.';
  if (dialect === 'research' && !rng.chance(0.05)) out += '<|im_end|>';
  return out;
}

function r1Response(row: PoolRow, corpus: Passages): string {
  const rng = createRng(['real-rewards', 'r1_searcher', row.id]);
  const v = variationOf(rng, row);
  let out = ' I need to find out what the question asks about.';
  for (const step of row.steps) {
    if (step.type !== 'search') {
      out += ` ${step.text}`;
      continue;
    }
    const docs = step.results.map((id, k) => `(${k + 1})${passage(corpus, id).text}`).join('\n');
    out += ` <|begin_of_query|> ${step.query} <|end_of_query|>\n\n<|begin_of_documents|>\n${docs}\n<|end_of_documents|>\n\n`;
  }
  if (v.skipThinkAt !== -1) out += ' Let me think. <think>';
  out += ' I have what I need. </think>\n';
  if (row.final === null || v.dropAnswer) return `${out}<|eot_id|>`;
  out += `<answer> ${row.final.answer} </answer>`;
  if (v.trailing) out += ' </answer>';
  return `${out}<|eot_id|>`;
}

const deepResearcherTemplate =
  'Answer the question. Think inside <think> and </think>; call the search tool inside <tool_call> and </tool_call> as {"name": "search", "arguments": {"query_list": [...]}}, ' +
  'its results come back inside <tool_response> and </tool_response>. Put the final answer inside <answer> and </answer>.';

/** A DeepResearcher rollout: Hermes tool calls in Qwen turns, results as verl's search tool returns them. */
function deepResearcherResponse(row: PoolRow, corpus: Passages): string {
  const rng = createRng(['real-rewards', 'deepresearcher', row.id]);
  const v = variationOf(rng, row);
  let out = '';
  row.steps.forEach((step, index) => {
    if (index !== v.skipThinkAt) out += `<think> ${index === 0 ? 'I need to find out' : 'I still need'} what the question asks about. </think>\n`;
    if (step.type === 'search') {
      const docs = titledDocs(step.results.map((id) => passage(corpus, id)));
      out += `<tool_call>\n${JSON.stringify({ name: 'search', arguments: { query_list: [step.query] } })}\n</tool_call><|im_end|>\n`;
      out += `<|im_start|>user\n<tool_response>\n${JSON.stringify({ result: docs })}\n</tool_response><|im_end|>\n<|im_start|>assistant\n`;
    } else {
      out += `${step.text}\n`;
    }
  });
  // A stray opening tag breaks check_tags_balance (−1); upper-case tags are read lower-cased.
  if (rng.chance(0.05)) out += '<think> ';
  if (row.final === null || v.dropAnswer) return `${out}<|im_end|>`;
  if (v.skipThinkAt !== row.steps.length) out += '<think> I have what I need. </think>\n';
  out += rng.chance(0.1) ? `<ANSWER> ${row.final.answer} </ANSWER>` : `<answer> ${row.final.answer} </answer>`;
  if (v.trailing) out += ' <answer> a second answer </answer>';
  return `${out}<|im_end|>`;
}

/** A SkyRL search-env episode: the assistant turns and the observations joined, the prompt left out. */
function skyrlHistory(row: PoolRow, corpus: Passages): string {
  const rng = createRng(['real-rewards', 'skyrl', row.id]);
  const v = variationOf(rng, row);
  let out = '';
  row.steps.forEach((step, index) => {
    if (index !== v.skipThinkAt) out += `<think> ${index === 0 ? 'I need to find out' : 'I still need'} what the question asks about. </think>\n`;
    if (step.type === 'search') {
      const docs = titledDocs(step.results.map((id) => passage(corpus, id)));
      out += `<search> ${step.query} </search>\n<information>${docs}</information>\n`;
    } else {
      out += `${step.text}\n`;
    }
  });
  if (row.final === null || v.dropAnswer) return out;
  out += `<think> I have what I need. </think>\n<answer> ${row.final.answer} </answer>`;
  // The last <answer> of the history counts: a turn that answers again replaces the first.
  if (v.trailing) out += ' <answer> not sure </answer>';
  return out;
}

interface Log {
  readonly name: string;
  /** verl's rollout dump (`STEP.jsonl`, the default) or SkyRL's eval dump (`global_step_N_evals/DATA_SOURCE.jsonl`). */
  readonly format?: 'skyrl';
  readonly render: (row: PoolRow) => { input: string; output: string; target: readonly string[] };
  readonly score: (input: string, output: string, target: readonly string[]) => number;
}

export function realRewardLogs(corpus: Passages): Log[] {
  const tagged = (dialect: Dialect, template: string) => (row: PoolRow) => ({ input: qwenPrompt(template, row.question), output: taggedResponse(row, dialect, corpus), target: row.gold.answers });
  const r1 = (row: PoolRow) => ({
    input: `<|begin_of_text|><|start_header_id|>user<|end_header_id|>\n\n${r1Template} Question: ${row.question}${llamaAssistant}`,
    output: r1Response(row, corpus),
    target: row.gold.answers.slice(0, 1),
  });
  return [
    { name: 'search_r1_qa_em', render: tagged('search_r1', searchR1Template), score: (i, o, t) => searchR1QaEm(i + o, t) },
    { name: 'search_r1_qa_em_format', render: tagged('search_r1', searchR1Template), score: (i, o, t) => searchR1QaEmFormat(i + o, t) },
    { name: 'zerosearch', render: tagged('zerosearch', searchR1Template), score: (i, o, t) => zeroSearchF1(i + o, t) },
    { name: 'autorefine', render: tagged('autorefine', autoRefineTemplate), score: (_i, o, t) => autoRefine(o, t) },
    { name: 'research', render: tagged('research', reSearchTemplate), score: (i, o, t) => reSearch(i + o, t) },
    { name: 'r1_searcher_stage1', render: r1, score: (i, o, t) => r1Stage1(i + o, t) },
    { name: 'r1_searcher_stage2', render: r1, score: (i, o, t) => r1Stage2(i + o, t) },
    {
      name: 'deepresearcher',
      render: (row) => ({ input: qwenPrompt(deepResearcherTemplate, row.question), output: deepResearcherResponse(row, corpus), target: [row.gold.answers.join('<|answer_split|>')] }),
      score: (_i, o, t) => deepResearcher(o, t),
    },
    {
      name: 'skyrl_search',
      format: 'skyrl',
      render: (row) => ({ input: qwenPrompt(searchR1Template, row.question), output: skyrlHistory(row, corpus), target: row.gold.answers }),
      score: (_i, o, t) => skyrlSearch(o, t),
    },
  ];
}


function main(): void {
  const poolsDir = option('--pools', 'samples/pools');
  const outDir = option('--out', 'samples/real-rewards/logs');
  const corpus = corpusOf(poolsDir);
  const rows = stepLogRows(poolsDir);
  for (const log of realRewardLogs(corpus)) {
    writeStepLog(path.join(outDir, log.name), rows, (row, step, question) => {
      const { input, output, target } = log.render(row);
      const score = log.score(input, output, target);
      if (log.format !== 'skyrl') return { file: `${step}.jsonl`, line: JSON.stringify({ input, output, gts: { target }, score, step } satisfies Rollout), score };
      const line = JSON.stringify({
        input_prompt: input, output_response: output, score, stop_reason: 'stop', env_class: 'search',
        env_extras: { reward_spec: { method: 'rule', ground_truth: { target } }, extra_info: { index: question } },
        data_source: 'searchR1_hotpotqa',
      });
      return { file: path.join(`global_step_${step}_evals`, 'searchR1_hotpotqa.jsonl'), line, score };
    });
  }
}

if (process.argv[1]?.endsWith('real-rewards-logs.js')) main();
