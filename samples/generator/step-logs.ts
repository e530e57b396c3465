// How the verl-style real-reward logs are laid out (real-rewards-logs.ts, -a, -c): the rollouts of
// 30 questions × 8 samples of the HotpotQA-style pool, 6 questions per training step, one record
// line each, in the file of its step.
import * as fs from 'node:fs';
import * as path from 'node:path';
import { readJsonl } from './log-inputs.js';
import type { PoolRow } from './pool-row.js';

/** The rows every verl-style real-reward log renders: the first 240 of the HotpotQA-style pool. */
export function stepLogRows(poolsDir: string): PoolRow[] {
  return readJsonl<PoolRow>(path.join(poolsDir, 'hotpot.jsonl')).slice(0, 240);
}

/** One rollout as its framework logs it: the file (relative to the log's folder), the line and the logged score. */
export interface StepRecord {
  readonly file: string;
  readonly line: string;
  readonly score: number;
}

/**
 * Writes `dir` anew from the rows: `record` gets each row with its step (from 1, six questions a step)
 * and its question's index (from 0, in order of first sight); lines are kept in row order per file.
 */
export function writeStepLog(dir: string, rows: readonly PoolRow[], record: (row: PoolRow, step: number, question: number) => StepRecord): void {
  fs.rmSync(dir, { recursive: true, force: true });
  fs.mkdirSync(dir, { recursive: true });
  const questionOf = new Map<string, number>();
  const byFile = new Map<string, string[]>();
  const scores = new Map<number, number>();
  for (const row of rows) {
    if (!questionOf.has(row.question_id)) questionOf.set(row.question_id, questionOf.size);
    const question = questionOf.get(row.question_id)!;
    const { file, line, score } = record(row, Math.floor(question / 6) + 1, question);
    byFile.set(file, [...(byFile.get(file) ?? []), line]);
    scores.set(score, (scores.get(score) ?? 0) + 1);
  }
  for (const [file, lines] of byFile) {
    fs.mkdirSync(path.dirname(path.join(dir, file)), { recursive: true });
    fs.writeFileSync(path.join(dir, file), `${lines.join('\n')}\n`);
  }
  console.log(`${dir}: ${rows.length} rollouts, scores ${[...scores].sort((a, b) => a[0] - b[0]).map(([s, n]) => `${s}×${n}`).join(' ')}`);
}
