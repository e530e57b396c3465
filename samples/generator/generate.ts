/**
 * Writes the corpus, every pool of POOL_SHAPES, the dense-candidate file and the simulated training
 * and evaluation logs of two reward arms (training-logs.ts) into one directory.
 * Rows are produced one at a time and streamed, so memory stays flat as --scale grows.
 */
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { runAgent } from './agent.js';
import { buildCorpus } from './corpus.js';
import { createDenseCandidateGenerator } from './dense-candidates.js';
import { type LineWriter, openLineWriter } from './line-writer.js';
import { goldOf, type PoolRow } from './pool-row.js';
import { type Arm, POOL_SHAPES, type QuestionSet } from './pools.js';
import { createRng } from './prng.js';
import { createQuestionSampler } from './question-sampler.js';
import { buildSearchIndex, memoisedSearch } from './retrieval.js';
import { createStatsTally, type PoolStats, type StatsTally } from './stats.js';
import { writeTrainingLogs } from './training-logs.js';

export interface GenerateOptions {
  outDir: string;
  seed: string;
  /** Multiplies every pool's question count; samples per question stay fixed. */
  scale: number;
  corpusSize: number;
}

export interface FileReport {
  file: string;
  lines: number;
  bytes: number;
  /** For pools; null for the corpus and the candidate file. */
  stats: PoolStats | null;
}

export const DEFAULT_SEED = '2608';
export const DEFAULT_CORPUS_SIZE = 3000;

function questionId(set: QuestionSet, index: number, count: number): string {
  return `${set.prefix}-${String(index + 1).padStart(Math.max(4, String(count).length), '0')}`;
}

function rowId(set: QuestionSet, arm: Arm, questionIdText: string, sample: number): string {
  const sampleSuffix = set.samples > 1 ? `#${sample}` : '';
  const armSuffix = arm.tag === null ? '' : `@${arm.tag}`;
  return `${questionIdText}${sampleSuffix}${armSuffix}`;
}

/** The RL group of a best-of-n sample set; single-sample pools have none. */
function groupId(set: QuestionSet, arm: Arm, questionIdText: string): string | undefined {
  if (set.samples <= 1) return undefined;
  return arm.tag === null ? questionIdText : `${questionIdText}@${arm.tag}`;
}

interface OpenArm {
  arm: Arm;
  writer: LineWriter;
  candidates: LineWriter | null;
  tally: StatsTally;
}

export function generate(options: GenerateOptions): FileReport[] {
  const { outDir, seed, scale, corpusSize } = options;
  mkdirSync(outDir, { recursive: true });
  const { world, corpus } = buildCorpus(seed, corpusSize);
  const reports: FileReport[] = [];

  const corpusWriter = openLineWriter(join(outDir, 'corpus.jsonl'));
  for (const passage of corpus.passages) corpusWriter.write({ id: passage.id, title: passage.title, text: passage.text });
  reports.push({ file: 'corpus.jsonl', ...corpusWriter.close(), stats: null });

  const index = buildSearchIndex(corpus);
  const sampler = createQuestionSampler(world, corpus, seed);
  const dense = createDenseCandidateGenerator(corpus);
  const inCorpus = (id: string): boolean => corpus.byId.has(id);

  for (const set of POOL_SHAPES) {
    const open: OpenArm[] = set.arms.map((arm) => ({
      arm,
      writer: openLineWriter(join(outDir, arm.file)),
      candidates: arm.candidatesFile === null ? null : openLineWriter(join(outDir, arm.candidatesFile)),
      tally: createStatsTally(inCorpus),
    }));
    const largestCutoff = Math.max(...set.arms.map((arm) => arm.cutoff));
    const count = Math.max(1, Math.round(set.questions * scale));
    for (let q = 0; q < count; q++) {
      const qid = questionId(set, q, count);
      const question = sampler.draw(set.style, qid);
      // At least 8: the agent's lookup of a passage it "remembers" asks for eight results.
      const search = memoisedSearch(index, Math.max(largestCutoff, 8));
      for (const { arm, writer, candidates, tally } of open) {
        for (let sample = 0; sample < set.samples; sample++) {
          const run = runAgent(question, {
            corpus,
            search,
            cutoff: arm.cutoff,
            profile: arm.profile,
            difficulty: set.difficulty,
            // Each file is its own run, as the paper's pools were: the stream is keyed by the file.
            rng: createRng([seed, 'agent', arm.file, qid, sample]),
          });
          const group = groupId(set, arm, qid);
          const pool = arm.file.replace(/\.jsonl$/, '');
          const row: PoolRow = {
            id: rowId(set, arm, qid, sample),
            question_id: qid,
            question: question.text,
            steps: run.steps,
            final: run.final,
            gold: goldOf(question),
            meta: group === undefined ? { model: arm.profile.model, sample, pool } : { model: arm.profile.model, sample, group, pool },
          };
          writer.write(row);
          tally.add(row);
          if (candidates !== null) for (const line of dense(row)) candidates.write(line);
        }
      }
    }
    for (const { arm, writer, candidates, tally } of open) {
      reports.push({ file: arm.file, ...writer.close(), stats: tally.result() });
      if (candidates !== null && arm.candidatesFile !== null) reports.push({ file: arm.candidatesFile, ...candidates.close(), stats: null });
    }
  }
  // After every pool: the logs draw questions from the same sampler, and the pools stay as they were.
  reports.push(...writeTrainingLogs(outDir, seed, corpus, index, sampler));
  return reports;
}
