/**
 * Simulated GRPO training and evaluation logs for the training-signal audit and the paired policy
 * comparison. Two arms share everything (questions, groups, random streams) and differ only in the
 * reward they "train" with: R0, or R_L = R0 − 1.2·L. The learning rule is invented, not fitted:
 * both arms answer better as training goes on; under R0 citing an unretrieved passage drifts up
 * (grounding pays for it), under R_L it falls a little each time L reaches the optimizer, which is
 * only in groups where L fires on some samples but not all (a group mean absorbs the rest).
 * Training rows of the two arms share their random streams (same seed, same schedule); the final
 * policies are different networks, so their evaluation samples are drawn independently, paired
 * only by question id and sample index.
 */
import { join } from 'node:path';
import { type AgentRun, runAgent } from './agent.js';
import { type Corpus } from './corpus.js';
import { openLineWriter } from './line-writer.js';
import { type AgentProfile, QWEN3_8B } from './models.js';
import { goldOf, type PoolRow } from './pool-row.js';
import { createRng } from './prng.js';
import { type QuestionSampler } from './question-sampler.js';
import { type QuestionStyle } from './questions.js';
import { type SearchIndex, memoisedSearch } from './retrieval.js';
import { createStatsTally, type PoolStats } from './stats.js';
import { writeSeedRuns } from './seed-runs.js';

export const TRAINING_ARMS = ['R0', 'R_L'] as const;
export type TrainingArm = (typeof TRAINING_ARMS)[number];

/** 32 updates of 4 groups of 8 samples: small, but enough for the exposure curve to show its sparsity. */
export const TRAINING_SHAPE = { steps: 32, groupsPerStep: 4, groupSize: 8 };
/** Per benchmark style: questions evaluated with two fixed-seed samples each. */
export const EVAL_SHAPE = { questions: 128, samples: 2 };

const STYLES: readonly { style: QuestionStyle; benchmark: string; difficulty: number }[] = [
  { style: 'hotpot', benchmark: 'hotpot', difficulty: 1 },
  { style: '2wiki', benchmark: '2wiki', difficulty: 0.95 },
  { style: 'musique', benchmark: 'musique', difficulty: 0.75 },
];

/** Per group: every sample cites an unretrieved passage (a question whose answer the policy "remembers"). */
const STICKY_GROUP = 0.03;
const START_UNRETRIEVED = 0.012;
/** What one update that carries L does to the R_L policy. */
const L_UPDATE = { unretrieved: 0.85, sloppy: 0.97 };

interface Policy {
  unretrieved: number;
  sloppy: number;
}

function profileAt(policy: Policy, progress: number): AgentProfile {
  const better = 1 + 0.25 * progress;
  return {
    ...QWEN3_8B,
    model: 'qwen3-8b-grpo',
    correctGiven: [Math.min(0.95, QWEN3_8B.correctGiven[0] * better), Math.min(0.95, QWEN3_8B.correctGiven[1] * better), Math.min(0.95, QWEN3_8B.correctGiven[2] * better)],
    unretrievedCitation: policy.unretrieved,
    sloppyCitation: policy.sloppy,
  };
}

/** L as the spec defines it: a citation that is a corpus id and was never returned by a search. */
function firesL(run: AgentRun, corpus: Corpus): boolean {
  const retrieved = new Set(run.steps.flatMap((s) => (s.type === 'search' ? s.results : [])));
  return (run.final?.citations ?? []).some((id) => corpus.byId.has(id) && !retrieved.has(id));
}

export interface LogReport {
  file: string;
  lines: number;
  bytes: number;
  stats: PoolStats;
}

/** Writes `train-<arm>.jsonl` and `eval-<arm>.jsonl` for both arms; draws its questions after every pool's. */
export function writeTrainingLogs(outDir: string, seed: string, corpus: Corpus, index: SearchIndex, sampler: QuestionSampler): LogReport[] {
  const inCorpus = (id: string): boolean => corpus.byId.has(id);
  const { steps, groupsPerStep, groupSize } = TRAINING_SHAPE;
  const trainingQuestions = Array.from({ length: steps * groupsPerStep }, (_, i) => {
    const style = STYLES[i % STYLES.length]!;
    const qid = `train-${String(i + 1).padStart(4, '0')}`;
    return { qid, style, question: sampler.draw(style.style, qid) };
  });
  const evalQuestions = STYLES.flatMap((style) => Array.from({ length: EVAL_SHAPE.questions }, (_, i) => {
    const qid = `eval-${style.benchmark}-${String(i + 1).padStart(4, '0')}`;
    return { qid, style, question: sampler.draw(style.style, qid) };
  }));

  const reports: LogReport[] = [];
  for (const arm of TRAINING_ARMS) {
    const policy: Policy = { unretrieved: START_UNRETRIEVED, sloppy: QWEN3_8B.sloppyCitation };
    const file = `train-${arm}.jsonl`;
    const writer = openLineWriter(join(outDir, file));
    const tally = createStatsTally(inCorpus);
    for (let step = 0; step < steps; step++) {
      const progress = step / steps;
      if (arm === 'R0') policy.unretrieved = START_UNRETRIEVED * (1 + 0.5 * progress);
      let carried = 0;
      for (let g = 0; g < groupsPerStep; g++) {
        const { qid, style, question } = trainingQuestions[step * groupsPerStep + g]!;
        const group = `s${String(step).padStart(3, '0')}-g${g}`;
        // Drawn from a stream both arms share, so a sticky question is sticky in both.
        const sticky = createRng([seed, 'train-sticky', step, g]).chance(STICKY_GROUP);
        const profile = profileAt(sticky ? { ...policy, unretrieved: 1 } : policy, progress);
        const search = memoisedSearch(index, 8);
        let firing = 0;
        for (let sample = 0; sample < groupSize; sample++) {
          const run = runAgent(question, {
            corpus, search, cutoff: 3, profile, difficulty: style.difficulty, rng: createRng([seed, 'train', step, g, sample]),
          });
          if (firesL(run, corpus)) firing++;
          const row: PoolRow & { meta: { step: number; arm: string } } = {
            id: `${qid}#${sample}@${arm}`, question_id: qid, question: question.text, steps: run.steps, final: run.final,
            gold: goldOf(question),
            meta: { model: profile.model, sample, group, pool: `train-${arm}`, step, arm },
          };
          writer.write(row);
          tally.add(row);
        }
        if (firing > 0 && firing < groupSize) carried++;
      }
      if (arm === 'R_L') {
        policy.unretrieved *= L_UPDATE.unretrieved ** carried;
        policy.sloppy *= L_UPDATE.sloppy ** carried;
      }
    }
    reports.push({ file, ...writer.close(), stats: tally.result() });

    const evalFile = `eval-${arm}.jsonl`;
    const evalWriter = openLineWriter(join(outDir, evalFile));
    const evalTally = createStatsTally(inCorpus);
    const final = profileAt(policy, 1);
    for (const { qid, style, question } of evalQuestions) {
      const search = memoisedSearch(index, 8);
      for (let sample = 0; sample < EVAL_SHAPE.samples; sample++) {
        const run = runAgent(question, { corpus, search, cutoff: 3, profile: final, difficulty: style.difficulty, rng: createRng([seed, 'eval', arm, qid, sample]) });
        const row: PoolRow & { meta: { benchmark: string; arm: string } } = {
          id: `${qid}#${sample}@${arm}`, question_id: qid, question: question.text, steps: run.steps, final: run.final,
          gold: goldOf(question),
          meta: { model: final.model, sample, pool: `eval-${arm}`, benchmark: style.benchmark, arm },
        };
        evalWriter.write(row);
        evalTally.add(row);
      }
    }
    reports.push({ file: evalFile, ...evalWriter.close(), stats: evalTally.result() });
    reports.push(...writeSeedRuns(outDir, seed, arm, final, evalQuestions, EVAL_SHAPE.samples, corpus, index));
  }
  return reports;
}
