/**
 * Writes the sample log of samples/real-rewards/trl_grpo_agent.reward: TRL's GRPO completions tables
 * (completions/completions_{step:05d}.parquet; columns step, prompt, completion, one per reward
 * function, advantage), for BioGRID yes/no questions answered with SQL tool calls. The three reward
 * columns are computed here from the facts in samples/real-rewards/SOURCES.md (TRL entry), with the
 * label TRL does not log, independently of the product and of the spec.
 *
 * Layout: pandas' `to_parquet` (pyarrow) infers nested types, so prompt and completion are
 * list<struct>, a call's `arguments` a struct (TRL parses them into a dict). One Parquet column holds
 * one type, so a tool message's content (the query's rows, a list in memory, beside the assistant's
 * text) is logged as the JSON text of that list; the scorer reads the list, as the reward function does.
 *   node out/samples/generator/real-rewards-logs-d.js [--out samples/real-rewards/logs]
 * Deterministic: byte-identical files on every run.
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import { parquetWriteBuffer } from 'hyparquet-writer';
import { option } from './log-inputs.js';
import { createRng } from './prng.js';
import type { Rng } from './prng.js';
import { pyStrip } from './python-text.js';

interface Call { type: 'function'; function: { name: string; arguments: { sql_command: string } } }
interface Message { role: string; content: string; name: string | null; tool_calls: Call[] | null }
/** A completion as the reward functions see it: a tool message's content is the rows, a list. */
interface Turn { role: string; content: string | unknown[]; tool_calls?: Call[] }

const genes = ['TP53', 'MDM2', 'BRCA1', 'BARD1', 'JNKK', 'MAPKK4', 'EGFR', 'GRB2', 'SOS1', 'AKT1', 'PTEN', 'MYC', 'MAX', 'CDK2', 'CCNE1', 'RAD51'];

// ---- the reward functions (SOURCES.md §17) ----

function correctness(completion: readonly Turn[], answer: string): number {
  const last = completion.at(-1)?.content;
  const raw = typeof last === 'string' ? last.toLowerCase() : '';
  const guess = /\*(yes|no)\*/u.exec(raw)?.[1];
  if (guess === undefined) return -0.5;
  return guess === answer ? 0.6 : -1;
}

function structure(completion: readonly Turn[]): number {
  let call = false;
  let response = false;
  let other = false;
  for (const turn of completion) {
    if (turn.role === 'assistant' && (turn.tool_calls?.length ?? 0) > 0) call = true;
    else if (turn.role === 'tool') response = true;
    else if (typeof turn.content === 'string' && turn.content !== '' && !['', '<think>'].includes(pyStrip(turn.content))) other = true;
  }
  if (call && response) return other ? 0.1 : 0.05;
  return call ? -0.15 : 0;
}

function query(completion: readonly Turn[], answer: string): number {
  const queries = completion.flatMap((t) => t.tool_calls ?? []).map((c) => c.function.arguments.sql_command.toLowerCase());
  // A tool message counts when its content is truthy (a nonempty list or text).
  const results = completion.filter((t) => t.role === 'tool' && t.content.length > 0).map((t) => t.content);
  let reward = queries.length > 3 ? -1.5 : 0;
  let where = 0;
  for (const q of queries) {
    if (q.includes('limit 1')) reward -= 1;
    if (!q.includes(' where ')) reward -= 0.5;
    else where++;
  }
  reward += Math.min(where, 3) * 0.4;
  // Errors arrive as strings, never as a dict: the −2 branch is never taken.
  if (queries.length === 0) return reward - 1.5;
  const hits = results.some((r) => Array.isArray(r) && r.length > 0);
  return reward + ((hits && answer === 'yes') || (!hits && answer === 'no') ? 2 : -1.5);
}

// ---- the rollouts ----

function sqlFor(rng: Rng, a: string, b: string): string {
  const pick = rng.next();
  if (pick < 0.1) return 'PRAGMA table_info(interactions);';
  if (pick < 0.2) return 'SELECT * FROM interactions LIMIT 1;';
  return `SELECT Alt_IDs_Interactor_A, Alt_IDs_Interactor_B FROM interactions WHERE Alt_IDs_Interactor_A LIKE '%${a}%' AND Alt_IDs_Interactor_B LIKE '%${b}%';`;
}

function rowsFor(sql: string, answer: string, a: string, b: string): unknown[] {
  if (sql.startsWith('PRAGMA')) return [[0, 'Alt_IDs_Interactor_A', 'TEXT', 0, null, 0], [1, 'Alt_IDs_Interactor_B', 'TEXT', 0, null, 0]];
  if (sql.includes('LIMIT 1')) return [['entrez gene/locuslink:MAP2K4', 'entrez gene/locuslink:FLNC']];
  return answer === 'yes' ? [[`entrez gene/locuslink:${a}`, `entrez gene/locuslink:${b}`]] : [];
}

function completionOf(rng: Rng, answer: string, a: string, b: string): Turn[] {
  const turns: Turn[] = [];
  const plan = rng.next();
  if (plan >= 0.1) {
    const calls = 1 + Math.floor(rng.next() * (rng.chance(0.1) ? 5 : 2));
    for (let k = 0; k < calls; k++) {
      const sql = sqlFor(rng, a, b);
      const text = rng.chance(0.3) ? '<think>' : rng.chance(0.3) ? 'Let me query the interactions table.' : '';
      turns.push({ role: 'assistant', content: text, tool_calls: [{ type: 'function', function: { name: 'query_biogrid', arguments: { sql_command: sql } } }] });
      // A rollout cut at the completion length leaves its last call unanswered.
      if (plan < 0.15 && k === calls - 1) return turns;
      turns.push({ role: 'tool', content: rowsFor(sql, answer, a, b) });
    }
  }
  const said = rng.next();
  const other = answer === 'yes' ? 'no' : 'yes';
  const cap = (w: string): string => `${w[0]?.toUpperCase() ?? ''}${w.slice(1)}`;
  const content = said < 0.04 ? '' : said < 0.12 ? `${cap(answer)}, they interact.` : said < 0.27 ? `*${cap(other)}*` : `Based on the query results, the answer is *${cap(answer)}*.`;
  turns.push({ role: 'assistant', content });
  return turns;
}

/** The completion as TRL's table logs it (one struct type per message; the rows as JSON text). */
function logged(turn: Turn): Message {
  const content = typeof turn.content === 'string' ? turn.content : JSON.stringify(turn.content);
  return { role: turn.role, content, name: turn.role === 'tool' ? 'query_biogrid' : null, tool_calls: turn.tool_calls ?? null };
}

/** GRPO's group-normalised advantage: (r − mean) / (std + 1e-4), std with Bessel's correction (torch.std). */
function advantages(rewards: readonly number[]): number[] {
  const mean = rewards.reduce((s, r) => s + r, 0) / rewards.length;
  const std = Math.sqrt(rewards.reduce((s, r) => s + (r - mean) ** 2, 0) / (rewards.length - 1));
  return rewards.map((r) => (r - mean) / (std + 1e-4));
}

const str = { type: 'BYTE_ARRAY', converted_type: 'UTF8', repetition_type: 'OPTIONAL' } as const;
const list = (name: string, children: number) =>
  [{ name, repetition_type: 'OPTIONAL', converted_type: 'LIST', num_children: 1 }, { name: 'list', repetition_type: 'REPEATED', num_children: 1 }, { name: 'element', repetition_type: 'OPTIONAL', num_children: children }] as const;

/** pyarrow's schema for the table pandas writes: nested lists as `list`/`element` (compliant nested types). */
const schema: NonNullable<Parameters<typeof parquetWriteBuffer>[0]['schema']> = [
  { name: 'schema', num_children: 7 },
  { name: 'step', type: 'INT64', repetition_type: 'OPTIONAL' },
  ...list('prompt', 2), { name: 'role', ...str }, { name: 'content', ...str },
  ...list('completion', 4), { name: 'role', ...str }, { name: 'content', ...str }, { name: 'name', ...str },
  ...list('tool_calls', 2), { name: 'type', ...str }, { name: 'function', repetition_type: 'OPTIONAL', num_children: 2 },
  { name: 'name', ...str }, { name: 'arguments', repetition_type: 'OPTIONAL', num_children: 1 }, { name: 'sql_command', ...str },
  { name: 'correctness_reward', type: 'DOUBLE', repetition_type: 'OPTIONAL' },
  { name: 'structure_reward', type: 'DOUBLE', repetition_type: 'OPTIONAL' },
  { name: 'query_reward', type: 'DOUBLE', repetition_type: 'OPTIONAL' },
  { name: 'advantage', type: 'DOUBLE', repetition_type: 'OPTIONAL' },
];

function main(): void {
  const dir = path.join(option('--out', 'samples/real-rewards/logs'), 'trl_grpo_agent', 'completions');
  fs.rmSync(path.dirname(dir), { recursive: true, force: true });
  fs.mkdirSync(dir, { recursive: true });
  const totals = new Map<number, number>();
  // 5 logged steps × 6 questions × 8 generations.
  for (let step = 1; step <= 5; step++) {
    const table = { step: [] as bigint[], prompt: [] as object[], completion: [] as object[], correctness_reward: [] as number[], structure_reward: [] as number[], query_reward: [] as number[], advantage: [] as number[] };
    for (let q = 0; q < 6; q++) {
      const rng = createRng(['real-rewards-d', 'trl', step, q]);
      const a = genes[Math.floor(rng.next() * genes.length)] ?? 'TP53';
      const b = genes[Math.floor(rng.next() * genes.length)] ?? 'MDM2';
      const answer = rng.chance(0.5) ? 'yes' : 'no';
      const prompt = [{ role: 'user', content: `You have access to the BioGRID SQLite database. Final answer must be enclosed in stars, e.g. *Yes* or *No*.\nQuestion: Does the gene ${a} interact with the gene ${b} in humans (taxid:9606)?` }];
      const group: number[] = [];
      for (let g = 0; g < 8; g++) {
        const completion = completionOf(rng, answer, a, b);
        const scores = [correctness(completion, answer), structure(completion), query(completion, answer)];
        table.step.push(BigInt(step));
        table.prompt.push(prompt);
        table.completion.push(completion.map(logged));
        table.correctness_reward.push(scores[0] ?? 0);
        table.structure_reward.push(scores[1] ?? 0);
        table.query_reward.push(scores[2] ?? 0);
        const total = scores.reduce((s, r) => s + r, 0);
        group.push(total);
        totals.set(total, (totals.get(total) ?? 0) + 1);
      }
      table.advantage.push(...advantages(group));
    }
    const buffer = parquetWriteBuffer({ columnData: Object.entries(table).map(([name, data]) => ({ name, data })), schema, codec: 'SNAPPY' });
    fs.writeFileSync(path.join(dir, `completions_${String(step).padStart(5, '0')}.parquet`), new Uint8Array(buffer));
  }
  console.log(`${dir}: 240 completions, ${totals.size} distinct summed rewards`);
}

if (process.argv[1]?.endsWith('real-rewards-logs-d.js')) main();
