/**
 * More training seeds of the two reward arms (for `runs logs` comparisons): seeds 2 and 3 of each
 * arm, evaluated on the same questions and samples as `eval-<arm>.jsonl` (seed 1). A seed's final
 * policy is seed 1's with its rates nudged by a seed-keyed draw (invented, like the learning rule:
 * two training seeds end at slightly different policies), so the runs differ by more than
 * sampling noise. Written after every other file; no other file's streams change.
 */
import { join } from 'node:path';
import { runAgent } from './agent.js';
import { type Corpus } from './corpus.js';
import { openLineWriter } from './line-writer.js';
import { type AgentProfile } from './models.js';
import { goldOf, type PoolRow } from './pool-row.js';
import { createRng } from './prng.js';
import { type Question, type QuestionStyle } from './questions.js';
import { type SearchIndex, memoisedSearch } from './retrieval.js';
import { createStatsTally, type PoolStats } from './stats.js';

/** The extra seeds written per arm (seed 1 is the arm's `eval-<arm>.jsonl`). */
export const EXTRA_SEEDS = [2, 3] as const;

export interface EvalQuestion {
  readonly qid: string;
  readonly style: { readonly style: QuestionStyle; readonly benchmark: string; readonly difficulty: number };
  readonly question: Question;
}

/** How far a seed moves the policy: a factor on the unretrieved-citation rate, and on correctness. */
function seedProfile(profile: AgentProfile, seed: string, arm: string, run: number): AgentProfile {
  const rng = createRng([seed, 'seed-run', arm, run]);
  const unretrieved = profile.unretrievedCitation * (0.6 + 0.8 * rng.next());
  const better = 0.97 + 0.06 * rng.next();
  const correctGiven: AgentProfile['correctGiven'] = [
    Math.min(0.95, profile.correctGiven[0] * better), Math.min(0.95, profile.correctGiven[1] * better), Math.min(0.95, profile.correctGiven[2] * better),
  ];
  return { ...profile, unretrievedCitation: unretrieved, correctGiven };
}

export interface SeedLogReport {
  file: string;
  lines: number;
  bytes: number;
  stats: PoolStats;
}

/** Writes `eval-<arm>-s<k>.jsonl` for each extra seed of one arm, from the arm's final policy. */
export function writeSeedRuns(outDir: string, seed: string, arm: string, final: AgentProfile, questions: readonly EvalQuestion[], samples: number, corpus: Corpus, index: SearchIndex): SeedLogReport[] {
  const inCorpus = (id: string): boolean => corpus.byId.has(id);
  return EXTRA_SEEDS.map((run) => {
    const profile = seedProfile(final, seed, arm, run);
    const file = `eval-${arm}-s${run}.jsonl`;
    const writer = openLineWriter(join(outDir, file));
    const tally = createStatsTally(inCorpus);
    for (const { qid, style, question } of questions) {
      const search = memoisedSearch(index, 8);
      for (let sample = 0; sample < samples; sample++) {
        const agent = runAgent(question, { corpus, search, cutoff: 3, profile, difficulty: style.difficulty, rng: createRng([seed, 'eval-seed', run, arm, qid, sample]) });
        const row: PoolRow & { meta: { benchmark: string; arm: string; run: number } } = {
          id: `${qid}#${sample}@${arm}-s${run}`, question_id: qid, question: question.text, steps: agent.steps, final: agent.final,
          gold: goldOf(question),
          meta: { model: profile.model, sample, pool: `eval-${arm}-s${run}`, benchmark: style.benchmark, arm, run },
        };
        writer.write(row);
        tally.add(row);
      }
    }
    return { file, ...writer.close(), stats: tally.result() };
  });
}
