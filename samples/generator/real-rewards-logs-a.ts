/**
 * Writes sample logs for three more real rewards of samples/real-rewards/, verl-style rollout dumps
 * (`logs/NAME/STEP.jsonl`, one `{input, output, gts, score, step, …}` per rollout) rendered from the
 * synthetic HotpotQA-style pool: verl's `search_r1_like_qa_em` (Hermes tool calls), WebThinker's
 * accuracy metric (its `<|begin_search_query|>` transcripts) and R-Search's `compute_score_f1`
 * (with the evidence model's score logged as reward extra info, `evidence_f1`, which R-Search itself
 * does not log). As in real-rewards-logs.ts, each scorer is written from the facts in
 * samples/real-rewards/SOURCES.md, independently of the product and of the specs.
 *   node out/samples/generator/real-rewards-logs-a.js [--pools samples/pools] [--out samples/real-rewards/logs]
 * Deterministic: the same pool gives byte-identical files.
 */
import * as path from 'node:path';
import type { PoolRow } from './pool-row.js';
import { createRng } from './prng.js';
import type { CorpusPassage } from './search-r1-dump.js';
import { corpusOf, option } from './log-inputs.js';
import { blocks, countOf, pySplit, pyStrip, sharedTokens, squad } from './python-text.js';
import { stepLogRows, writeStepLog } from './step-logs.js';

// ---- text helpers (Python semantics where the sources use Python) ----

/** Token F1 of two normalised texts, repeats counted, 0 when no token is shared. */
function f1(prediction: string, gold: string): number {
  const p = pySplit(prediction);
  const g = pySplit(gold);
  const same = sharedTokens(p, g);
  if (same === 0) return 0;
  const precision = same / p.length;
  const recall = same / g.length;
  return (2 * precision * recall) / (precision + recall);
}
/** Python's round(x, 2): to the nearest hundredth, an exact half to the even one. */
function round2(x: number): number {
  const scaled = x * 100;
  const floor = Math.floor(scaled);
  const diff = scaled - floor;
  const hundredths = diff > 0.5 ? floor + 1 : diff < 0.5 ? floor : floor % 2 === 0 ? floor : floor + 1;
  return hundredths / 100;
}

// ---- the scorers, from SOURCES.md ----

/** verl search_r1_like_qa_em: the last <answer> of the response, EM → 1 (1/4 past ten tags), else 0. */
function verlSearchR1Like(response: string, golds: readonly string[]): number {
  const answers = blocks(response, 'answer');
  if (answers.length === 0) return 0;
  const answer = squad(pyStrip(answers[answers.length - 1] ?? ''));
  if (!golds.some((g) => squad(g) === answer)) return 0;
  return countOf(response, '<answer>') > 10 || countOf(response, '</answer>') > 10 ? 0.25 : 1;
}

/** WebThinker's extract_answer_fn (QA, extraction on): the text scored and whether it is an answer. */
function webThinkerAnswer(output: string): string {
  // re.findall(r'\\boxed\{(.*)\}', output): the dot stops at a line break, the star greedy.
  const boxed = [...output.matchAll(/\\boxed\{(.*)\}/gu)].map((m) => m[1] ?? '');
  if (boxed.length > 0) return boxed[boxed.length - 1] ?? '';
  const at = output.lastIndexOf('ANSWER:');
  if (at !== -1) return output.slice(at + 'ANSWER:'.length).replace(/^\*+|\*+$/gu, '');
  // No answer: the last five lines, newline pairs collapsed first.
  return output.replace(/\n\n/gu, '\n').split('\n').slice(-5).join('\n');
}
/** WebThinker's acc: a normalised gold inside the normalised answer, for a gold sharing a token with it. */
function webThinkerAcc(output: string, golds: readonly string[]): number {
  const answer = squad(webThinkerAnswer(output));
  let acc = 0;
  for (const gold of golds) {
    const g = squad(gold);
    if (sharedTokens(pySplit(answer), pySplit(g)) === 0) continue;
    if (answer.includes(g)) acc = 1;
  }
  return acc;
}

/** R-Search compute_score_f1: answer format 0.2 + evidence format 0.2 + accuracy + the evidence model's score. */
function rSearch(text: string, golds: readonly string[], evidenceF1: number): number {
  const answers = blocks(text, 'answer');
  const evidence = blocks(text, 'original_evidence');
  const observations = blocks(text, 'observation');
  let answerFormat = 0;
  let accuracy = 0;
  if (answers.length >= 2) {
    const answer = pyStrip(answers[answers.length - 1] ?? '');
    if (answers.length === 2 && answer !== '' && answer !== 'and') answerFormat = 0.2;
    accuracy = round2(Math.max(0, ...golds.map((g) => f1(squad(answer), squad(g)))));
  }
  let evidenceFormat = 0;
  if (evidence.length === 1) evidenceFormat = observations.length === 1 ? 0.2 : 0;
  else if (evidence.length === 2 && observations.length >= 2 && pyStrip(evidence[1] ?? '') !== '') evidenceFormat = 0.2;
  return answerFormat + evidenceFormat + accuracy + evidenceF1;
}
/** The evidence model's score a run would log: its reply's F1 against gold, rounded; the reply is simulated. */
function evidenceScore(response: string, golds: readonly string[], question: string): number {
  const found = blocks(response, 'original_evidence');
  if (found.length === 0) return 0;
  const evidence = squad(found[found.length - 1] ?? '');
  // The simulated model answers the gold when the evidence holds it, else the question's last words.
  const gold = golds.find((g) => evidence.includes(squad(g)));
  const reply = gold ?? question.split(' ').slice(-2).join(' ');
  return round2(Math.max(0, ...golds.map((g) => f1(squad(reply), squad(g)))));
}

// ---- rendering ----

type Passages = ReadonlyMap<string, CorpusPassage>;
function passage(corpus: Passages, id: string): CorpusPassage {
  const found = corpus.get(id);
  if (found === undefined) throw new Error(`result ${id} is not in the corpus`);
  return found;
}
function qwenPrompt(system: string, question: string): string {
  return `<|im_start|>system\n${system}<|im_end|>\n<|im_start|>user\nQuestion: ${question}\n<|im_end|>\n<|im_start|>assistant\n`;
}

const verlTemplate =
  'Answer the given question. Reason first; call the search tool when you lack knowledge, its results come back inside <tool_response> and </tool_response>. ' +
  'When you know the answer, give it inside <answer> and </answer> without detailed illustrations.';

/** A verl multi-turn search_r1_like rollout, decoded with special tokens skipped (role names stay). */
function verlResponse(row: PoolRow, corpus: Passages): string {
  const rng = createRng(['real-rewards-a', 'verl_search_r1_like', row.id]);
  let out = '';
  for (const step of row.steps) {
    out += `<think> I need to look up what the question asks about. </think>\n`;
    if (step.type !== 'search') {
      // The pool's malformed call (`<tool_call>{"name": "search"}`, no arguments) is closed and
      // answered with the tool's error, as a multi-turn rollout answers every call it ran.
      const open = countOf(step.text, '<tool_call>') > countOf(step.text, '</tool_call>');
      out += open ? `${step.text}\n</tool_call>user\n<tool_response>\n${JSON.stringify({ result: 'Error: no query_list given' })}\n</tool_response>\nassistant\n` : `${step.text}\n`;
      continue;
    }
    const docs = step.results.map((id, k) => `Doc ${k + 1} (Title: ${passage(corpus, id).title})\n${passage(corpus, id).text}`).join('\n\n');
    out += `<tool_call>\n${JSON.stringify({ name: 'search', arguments: { query_list: [step.query] } })}\n</tool_call>user\n`;
    out += `<tool_response>\n${JSON.stringify({ result: docs })}\n</tool_response>\nassistant\n`;
  }
  if (row.final === null || rng.chance(0.04)) return out;
  // A model that loops on its answer: more than ten tags cut the score to 1/4.
  if (rng.chance(0.1)) out += `<answer> ${row.final.answer} </answer>\n`.repeat(10 + rng.int(3));
  out += `<think> I have what I need. </think>\n<answer> ${row.final.answer} </answer>`;
  return out;
}

const webThinkerTemplate =
  'You are a reasoning assistant with web search. To search, write <|begin_search_query|> your query <|end_search_query|>; the results come back as ' +
  '<|begin_search_result|> … <|end_search_result|>. Give the final answer as \\boxed{YOUR_ANSWER}.';

/** A WebThinker main-chain transcript: searches with the engine's pages, then the boxed answer. */
function webThinkerResponse(row: PoolRow, corpus: Passages): string {
  const rng = createRng(['real-rewards-a', 'webthinker', row.id]);
  let out = 'Okay, I need to work out what the question asks about.\n\n';
  for (const step of row.steps) {
    if (step.type !== 'search') {
      out += `${step.text}\n\n`;
      continue;
    }
    const pages = step.results.map((id, k) => `***Web Page ${k + 1}:***\n${JSON.stringify({ title: passage(corpus, id).title, snippet: passage(corpus, id).text }, null, 2)}`).join('\n');
    out += `<|begin_search_query|>${step.query}<|end_search_query|>\n\n<|begin_search_result|>\n${pages}\n<|end_search_result|>\n\nLet me read what came back.\n\n`;
  }
  // No answer: the evaluation scores the last five lines, here the model's own closing words.
  if (row.final === null || rng.chance(0.04)) return `${out}I cannot settle this.\nNothing fits.\nI stop here.\nNo answer.\nDone.`;
  const form = rng.int(10);
  if (form === 0) return `${out}So the result is clear.\n\nANSWER: **${row.final.answer}**`;
  if (form === 1) return `${out}**Final Answer**\n\\boxed{${row.final.answer} (according to my search)}`;
  return `${out}**Final Answer**\n\\boxed{${row.final.answer}}`;
}

const rSearchTemplate =
  'You are a helpful assistant that can solve the given question step by step. If additional information is needed, provide a specific query enclosed in <search> and </search>. ' +
  'The system will return the top search results within <observation> and </observation>. When you know the final answer, use <original_evidence> and </original_evidence> ' +
  'to provide all potentially relevant original information from the observations. Finally, provide the final answer within <answer> and </answer> tags.';

/** An R-Search rollout: searches with observations, the copied evidence, the answer. */
function rSearchResponse(row: PoolRow, corpus: Passages): string {
  const rng = createRng(['real-rewards-a', 'r_search', row.id]);
  let out = '';
  const seen: string[] = [];
  for (const step of row.steps) {
    out += 'I need more information about the question.\n';
    if (step.type !== 'search') {
      out += `${step.text}\n`;
      continue;
    }
    const docs = step.results.map((id, k) => `(${k + 1}) ${passage(corpus, id).title}: ${passage(corpus, id).text}`);
    seen.push(...step.results.map((id) => passage(corpus, id).text));
    out += `<search> ${step.query} </search>\n<observation>\n${docs.join('\n')}\n</observation>\n`;
  }
  // Evidence: usually the first passages seen; sometimes left out, or given with no search at all.
  if (seen.length > 0 && !rng.chance(0.1)) out += `<original_evidence> ${seen.slice(0, 2).join(' ')} </original_evidence>\n`;
  else if (seen.length === 0 && rng.chance(0.5)) out += '<original_evidence> </original_evidence>\n';
  if (row.final === null || rng.chance(0.04)) return out;
  out += `<answer> ${row.final.answer} </answer>`;
  if (rng.chance(0.05)) out += '\n<answer> and </answer>';
  return out;
}

interface Log {
  readonly name: string;
  readonly render: (row: PoolRow) => { input: string; output: string; target: readonly string[]; extra?: Record<string, number> };
  readonly score: (input: string, output: string, target: readonly string[], extra: Record<string, number>) => number;
}

export function realRewardLogsA(corpus: Passages): Log[] {
  return [
    {
      name: 'verl_search_r1_like_qa_em',
      render: (row) => ({ input: qwenPrompt(verlTemplate, row.question), output: verlResponse(row, corpus), target: row.gold.answers }),
      score: (_i, o, t) => verlSearchR1Like(o, t),
    },
    {
      name: 'webthinker',
      render: (row) => ({ input: qwenPrompt(webThinkerTemplate, row.question), output: webThinkerResponse(row, corpus), target: row.gold.answers }),
      score: (_i, o, t) => webThinkerAcc(o, t),
    },
    {
      name: 'r_search',
      render: (row) => {
        const output = rSearchResponse(row, corpus);
        return { input: qwenPrompt(rSearchTemplate, row.question), output, target: row.gold.answers, extra: { evidence_f1: evidenceScore(output, row.gold.answers, row.question) } };
      },
      score: (i, o, t, extra) => rSearch(i + o, t, extra['evidence_f1'] ?? 0),
    },
  ];
}


function main(): void {
  const poolsDir = option('--pools', 'samples/pools');
  const outDir = option('--out', 'samples/real-rewards/logs');
  const corpus = corpusOf(poolsDir);
  const rows = stepLogRows(poolsDir);
  for (const log of realRewardLogsA(corpus)) {
    writeStepLog(path.join(outDir, log.name), rows, (row, step) => {
      const { input, output, target, extra = {} } = log.render(row);
      const score = log.score(input, output, target, extra);
      return { file: `${step}.jsonl`, line: JSON.stringify({ input, output, gts: { target }, score, step, ...extra }), score };
    });
  }
}

if (process.argv[1]?.endsWith('real-rewards-logs-a.js')) main();
