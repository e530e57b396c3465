/**
 * Writes sample logs for the chat-format real rewards of samples/real-rewards/, each with the score
 * the framework's reward gives the rollout, computed here from the facts in
 * samples/real-rewards/SOURCES.md (independently of the product and of the specs):
 * - browsecomp_plus/: BrowseComp-Plus run files (runs/QUERY.json, rendered by browsecomp-run.ts), the
 *   query file and the evaluation's per-query record (judge.jsonl: the judge's verdict `correct`, and
 *   `score`, the query's accuracy as the evaluation counts it);
 * - rllm_search/: rllm episode files (val_step_N_epoch_0/episode_hash…_id….json), the trajectory's
 *   `reward` as RewardSearchFn gives it;
 * - art_e/: ART trajectories in the JSONL form (one group per line), `metrics` the ART·E rubric and
 *   `reward` what calculate_reward makes of it.
 * TRL's completions are Parquet; see real-rewards/README.md for why they have no sample log.
 *   node out/samples/generator/real-rewards-logs-b.js [--pools samples/pools] [--out samples/real-rewards/logs]
 * Deterministic: the same pools give byte-identical files.
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import { docidOf, runFileOf } from './browsecomp-run.js';
import type { PoolRow } from './pool-row.js';
import { createRng } from './prng.js';
import type { CorpusPassage } from './search-r1-dump.js';
import { corpusOf, option, readJsonl } from './log-inputs.js';

type Passages = ReadonlyMap<string, CorpusPassage>;

// ---- SQuAD normalisation and token F1 (Python semantics) ----

const punctuation = new Set('!"#$%&\'()*+,-./:;<=>?@[\\]^_`{|}~');
function squad(text: string): string {
  const noPunct = [...text.toLowerCase()].filter((ch) => !punctuation.has(ch)).join('');
  return noPunct.replace(/(?<![\p{L}\p{N}_])(a|an|the)(?![\p{L}\p{N}_])/gu, ' ').split(/\s+/u).filter((w) => w !== '').join(' ');
}
function tokenF1(prediction: string, gold: string): number {
  const p = prediction.split(' ').filter((w) => w !== '');
  const g = gold.split(' ').filter((w) => w !== '');
  const left = new Map<string, number>();
  for (const w of g) left.set(w, (left.get(w) ?? 0) + 1);
  let same = 0;
  for (const w of p) {
    const n = left.get(w) ?? 0;
    if (n > 0) {
      same++;
      left.set(w, n - 1);
    }
  }
  if (same === 0) return 0;
  const precision = same / p.length;
  const recall = same / g.length;
  return (2 * precision * recall) / (precision + recall);
}

// ---- BrowseComp-Plus ----

interface EvalRecord {
  readonly query_id: string;
  readonly judge: { readonly correct: boolean; readonly judged: boolean; readonly score: number };
}

/**
 * The evaluation's record of one run: a run that is not `completed`, or whose last item is not a
 * nonempty `output_text`, is not judged (counted wrong); else the judge's verdict is the accuracy.
 * The judge is simulated: it accepts the `Exact Answer:` line when it equals a gold answer, case aside.
 */
function bcpEvaluation(run: ReturnType<typeof runFileOf>['run'], golds: readonly string[]): EvalRecord {
  const last = run.result.at(-1);
  const response = last?.type === 'output_text' && typeof last.output === 'string' ? last.output : '';
  const judged = run.status === 'completed' && response.trim() !== '';
  const line = /^Exact Answer:\s*(.*)$/mu.exec(response)?.[1]?.trim() ?? '';
  const correct = judged && golds.some((g) => g.toLowerCase() === line.toLowerCase());
  return { query_id: run.query_id, judge: { correct, judged, score: correct ? 1 : 0 } };
}

function writeBrowseComp(rows: readonly PoolRow[], corpus: Passages, dir: string): string {
  fs.mkdirSync(path.join(dir, 'runs'), { recursive: true });
  const queries: string[] = [];
  const records: string[] = [];
  let score = 0;
  for (const row of rows) {
    const rng = createRng(['real-rewards-b', 'browsecomp_plus', row.id]);
    let { run } = runFileOf(row, corpus);
    // Some runs hit the agent's turn limit after writing an answer: logged `incomplete`, not judged.
    if (run.status === 'completed' && rng.chance(0.06)) run = { ...run, status: 'incomplete' };
    fs.writeFileSync(path.join(dir, 'runs', `${run.query_id}.json`), `${JSON.stringify(run, null, 2)}\n`);
    const evidence = row.gold.support_ids.map((id) => ({ docid: docidOf(id) }));
    queries.push(JSON.stringify({ query_id: row.question_id, query: row.question, answer: row.gold.answers[0] ?? '', gold_docs: evidence, evidence_docs: evidence }));
    const record = bcpEvaluation(run, row.gold.answers);
    score += record.judge.score;
    records.push(JSON.stringify(record));
  }
  fs.writeFileSync(path.join(dir, 'queries.jsonl'), `${queries.join('\n')}\n`);
  fs.writeFileSync(path.join(dir, 'judge.jsonl'), `${records.join('\n')}\n`);
  return `${rows.length} runs, accuracy ${(score / rows.length).toFixed(4)}`;
}

// ---- rllm ----

/** The inside of the first `boxed{…}` with its braces balanced, after removing <think> blocks. */
function firstBoxed(text: string): string | null {
  const clean = text.replace(/<think>[\s\S]*?<\/think>/gu, '').replace(/\s+/gu, ' ');
  const at = clean.indexOf('boxed{');
  if (at === -1) return null;
  let depth = 1;
  for (let k = at + 'boxed{'.length; k < clean.length; k++) {
    if (clean[k] === '{') depth++;
    else if (clean[k] === '}' && --depth === 0) return clean.slice(at + 'boxed{'.length, k);
  }
  return null;
}

/** RewardSearchFn on a response with a `\boxed{}`: 1 on EM; else the best F1 (yes/no/noanswer rule) when at least 0.3. */
function rllmScore(response: string, golds: readonly string[]): number {
  const boxed = firstBoxed(response);
  if (boxed === null) throw new Error('the sample keeps to responses with a \\boxed{} answer');
  const answer = squad(boxed.trim());
  if (golds.some((g) => squad(g) === answer)) return 1;
  let best = 0;
  for (const gold of golds) {
    const ng = squad(gold);
    const special = ['yes', 'no', 'noanswer'];
    if ((special.includes(answer) || special.includes(ng)) && answer !== ng) continue;
    best = Math.max(best, tokenF1(answer, ng));
  }
  return best >= 0.3 ? best : 0;
}

interface ChatMessage {
  role: string;
  content: string;
  tool_calls?: { id: string; type: 'function'; function: { name: string; arguments: string } }[];
  tool_call_id?: string;
}

function searchMessages(row: PoolRow, corpus: Passages, idOf: (id: string) => string): ChatMessage[] {
  const messages: ChatMessage[] = [];
  row.steps.forEach((step, k) => {
    if (step.type !== 'search') {
      messages.push({ role: 'assistant', content: step.text });
      messages.push({ role: 'user', content: 'Call the search tool or give the final answer.' });
      return;
    }
    const id = `call_${k}`;
    messages.push({ role: 'assistant', content: `<think>I need ${step.query}.</think>`, tool_calls: [{ id, type: 'function', function: { name: 'search', arguments: JSON.stringify({ query: step.query }) } }] });
    // A snippet of each hit, as search tools return: the id is what the audit reads.
    const hits = step.results.map((r) => ({ id: idOf(r), title: corpus.get(r)?.title ?? '', text: (corpus.get(r)?.text ?? '').slice(0, 120) }));
    messages.push({ role: 'tool', tool_call_id: id, content: JSON.stringify(hits) });
  });
  return messages;
}

function writeRllm(rows: readonly PoolRow[], corpus: Passages, dir: string): string {
  const scores = new Map<number, number>();
  const taskIndex = new Map<string, number>();
  for (const row of rows) {
    if (!taskIndex.has(row.question_id)) taskIndex.set(row.question_id, taskIndex.size);
    const task = taskIndex.get(row.question_id) ?? 0;
    const step = Math.floor(task / 6) + 1;
    const rollout = row.meta.sample;
    const rng = createRng(['real-rewards-b', 'rllm', row.id]);
    const messages: ChatMessage[] = [
      { role: 'system', content: 'You answer questions with the search tool. Put the final answer in \\boxed{}.' },
      { role: 'user', content: row.question },
      ...searchMessages(row, corpus, (id) => id),
    ];
    let reward = 0;
    let termination = 'MAX_TURNS_EXCEEDED';
    if (row.final === null) {
      // Out of turns: the last call never ran, and the environment gave no reward.
      messages.push({ role: 'assistant', content: '<think>One more search.</think>', tool_calls: [{ id: 'call_last', type: 'function', function: { name: 'search', arguments: '{"query": "more"}' } }] });
    } else {
      // Answers with extra words, or a shortened gold, score by F1 (kept at 0.3 or more).
      const gold = row.gold.answers[0] ?? row.final.answer;
      const pick = rng.next();
      const answer = pick < 0.12 ? `${row.final.answer} in the north` : pick < 0.2 ? (gold.split(' ')[0] ?? gold) : row.final.answer;
      const content = `<think>The passages give ${row.final.answer}; maybe \\boxed{guess}.</think>The answer is \\boxed{${answer}}.`;
      messages.push({ role: 'assistant', content });
      reward = rllmScore(content, row.gold.answers);
      termination = 'ENV_DONE';
    }
    scores.set(reward, (scores.get(reward) ?? 0) + 1);
    const hash = `h${row.question_id.replace(/\D/gu, '')}`;
    const episodeId = `${row.question_id}:${rollout}`;
    const steps = messages
      .map((m, k) => ({ m, k }))
      .filter(({ m }) => m.role === 'assistant')
      .map(({ m, k }) => ({ thought: '', action: m.content, reward: 0, done: false, chat_completions: messages.slice(0, k + 1) }));
    const episode = {
      training_step: step,
      episode_id: episodeId,
      task: { question: row.question, ground_truth: row.gold.answers, support_ids: row.gold.support_ids },
      task_hash: hash,
      is_correct: reward === 1,
      termination_reason: termination,
      trajectories: [{ name: 'search_agent', uid: `${episodeId}/0`, reward, steps }],
    };
    const folder = path.join(dir, `val_step_${step}_epoch_0`);
    fs.mkdirSync(folder, { recursive: true });
    fs.writeFileSync(path.join(folder, `episode_hash${hash}_id${row.question_id}_${rollout}.json`), `${JSON.stringify(episode)}\n`);
  }
  return `${rows.length} episodes, rewards ${[...scores].sort((a, b) => a[0] - b[0]).map(([s, n]) => `${s.toFixed(3)}×${n}`).join(' ')}`;
}

// ---- ART·E ----

interface ArtRubric {
  answer_correct: number;
  sources_correct: number;
  num_turns: number;
  attempted_answer: number;
  ever_found_right_email: number;
  ever_read_right_email: number;
  ever_tried_to_read_invalid_email: number;
  cant_parse_tool_call: number;
  bad_tool_call_name: number;
  bad_tool_call_args: number;
  ran_out_of_turns: number;
  returned_i_dont_know: number;
  num_sources: number;
}

/** calculate_reward (rollout.py), not the 1/0 ablation; max_turns 10, num_sources never set (0). */
function artReward(r: ArtRubric): number {
  const partial = 0.1 * r.ever_found_right_email + 0.1 * r.ever_read_right_email + 0.1 * (1 - r.ever_tried_to_read_invalid_email) + 0.1 * r.sources_correct;
  if (r.cant_parse_tool_call) return -2 + partial;
  if (r.bad_tool_call_name) return -1.9 + partial;
  if (r.bad_tool_call_args) return -1.8 + partial;
  if (r.attempted_answer && !r.answer_correct) return -1 + partial;
  if (r.returned_i_dont_know || r.ran_out_of_turns) return 0 + partial;
  if (r.answer_correct) return 1 + 0.3 * r.sources_correct + (r.num_sources > 0 ? 0.1 / r.num_sources : 0) + 0.1 * (1 - r.num_turns / 10);
  return 0;
}

function artTrajectory(row: PoolRow, corpus: Passages): { reward: number; metrics: ArtRubric; metadata: object; messages_and_choices: object[] } {
  const rng = createRng(['real-rewards-b', 'art', row.id]);
  const gold = row.gold.support_ids[0] ?? '';
  const messages: ChatMessage[] = [
    { role: 'system', content: 'You search a corpus to answer the question. Cite the passage ids you used.' },
    { role: 'user', content: row.question },
    ...searchMessages(row, corpus, (id) => id),
  ];
  const found = row.steps.some((s) => s.type === 'search' && s.results.includes(gold));
  const rubric: ArtRubric = {
    answer_correct: 0, sources_correct: 0, num_turns: 0, attempted_answer: 0, ever_found_right_email: found ? 1 : 0,
    ever_read_right_email: 0, ever_tried_to_read_invalid_email: 0, cant_parse_tool_call: 0, bad_tool_call_name: 0,
    bad_tool_call_args: 0, ran_out_of_turns: 0, returned_i_dont_know: 0, num_sources: 0,
  };
  const call = (name: string, args: string, output: string): void => {
    const id = `read_${messages.length}`;
    messages.push({ role: 'assistant', content: '', tool_calls: [{ id, type: 'function', function: { name, arguments: args } }] });
    messages.push({ role: 'tool', tool_call_id: id, content: output });
  };
  // Reads: the gold passage when a search found it (often), an id that does not exist (rarely).
  if (found && rng.chance(0.7)) {
    call('read_email', JSON.stringify({ message_id: gold }), corpus.get(gold)?.text ?? '');
    rubric.ever_read_right_email = 1;
  }
  if (rng.chance(0.08)) {
    call('read_email', JSON.stringify({ message_id: 'w:999999' }), 'Error: email not found');
    rubric.ever_tried_to_read_invalid_email = 1;
  }
  const failure = rng.next();
  if (failure < 0.04) {
    messages.push({ role: 'assistant', content: 'search_emails(keywords=' });
    rubric.cant_parse_tool_call = 1;
  } else if (failure < 0.07) {
    call('lookup', '{"id": "1"}', 'Error: no such tool');
    rubric.bad_tool_call_name = 1;
  } else if (failure < 0.1) {
    call('search', '{"keywords": 3}', 'Error: bad arguments');
    rubric.bad_tool_call_args = 1;
  } else if (row.final === null) {
    rubric.ran_out_of_turns = 1;
  } else if (rng.chance(0.08)) {
    messages.push({ role: 'assistant', content: "I don't know" });
    rubric.returned_i_dont_know = 1;
  } else {
    const cites = row.final.citations.map((c) => `[${c}]`).join(' ');
    messages.push({ role: 'assistant', content: `${row.final.answer} ${cites}` });
    rubric.attempted_answer = 1;
    rubric.answer_correct = row.gold.answers.some((g) => g.toLowerCase() === row.final?.answer.toLowerCase()) ? 1 : 0;
    rubric.sources_correct = row.final.citations.includes(gold) ? 1 : 0;
  }
  rubric.num_turns = messages.filter((m) => m.role === 'assistant').length;
  if (rubric.num_turns > 10) rubric.ran_out_of_turns = 1;
  const metadata = { id: row.id, question_id: row.question_id, question: row.question, answers: row.gold.answers, support_ids: row.gold.support_ids };
  return { reward: artReward(rubric), metrics: rubric, metadata, messages_and_choices: messages };
}

function writeArt(rows: readonly PoolRow[], corpus: Passages, dir: string): string {
  fs.mkdirSync(dir, { recursive: true });
  const byStep = new Map<number, Map<string, object[]>>();
  const taskIndex = new Map<string, number>();
  const scores = new Map<number, number>();
  for (const row of rows) {
    if (!taskIndex.has(row.question_id)) taskIndex.set(row.question_id, taskIndex.size);
    const step = Math.floor((taskIndex.get(row.question_id) ?? 0) / 6) + 1;
    const t = artTrajectory(row, corpus);
    scores.set(t.reward, (scores.get(t.reward) ?? 0) + 1);
    const groups = byStep.get(step) ?? new Map<string, object[]>();
    groups.set(row.question_id, [...(groups.get(row.question_id) ?? []), t]);
    byStep.set(step, groups);
  }
  for (const [step, groups] of byStep) {
    const lines = [...groups.values()].map((trajectories) => JSON.stringify({ trajectories }));
    fs.writeFileSync(path.join(dir, `${String(step).padStart(4, '0')}.jsonl`), `${lines.join('\n')}\n`);
  }
  return `${rows.length} trajectories, rewards ${[...scores].sort((a, b) => a[0] - b[0]).map(([s, n]) => `${Number(s.toFixed(4))}×${n}`).join(' ')}`;
}

// ---- main ----


function main(): void {
  const poolsDir = option('--pools', 'samples/pools');
  const outDir = option('--out', 'samples/real-rewards/logs');
  const corpus = corpusOf(poolsDir);
  // 30 questions × 8 rollouts of the HotpotQA-style pool; BrowseComp-Plus runs one run per query, so
  // 240 queries of one model's pool.
  const hotpot = readJsonl<PoolRow>(path.join(poolsDir, 'hotpot.jsonl')).slice(0, 240);
  const model = readJsonl<PoolRow>(path.join(poolsDir, 'model-qwen3-8b.jsonl')).slice(0, 240);
  const jobs: [string, (dir: string) => string][] = [
    ['browsecomp_plus', (dir) => writeBrowseComp(model, corpus, dir)],
    ['rllm_search', (dir) => writeRllm(hotpot, corpus, dir)],
    ['art_e', (dir) => writeArt(hotpot, corpus, dir)],
  ];
  for (const [name, write] of jobs) {
    const dir = path.join(outDir, name);
    fs.rmSync(dir, { recursive: true, force: true });
    fs.mkdirSync(dir, { recursive: true });
    console.log(`${dir}: ${write(dir)}`);
  }
}

if (process.argv[1]?.endsWith('real-rewards-logs-b.js')) main();
