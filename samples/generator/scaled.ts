/**
 * Training-sized pools for benchmarks: one best-of-8 HotpotQA-style pool of exactly N trajectories
 * (the paper's policy run logged 58,368 per arm) over a corpus of a given size, built from the same
 * corpus, question sampler and simulated agent as the shipped samples. Every size draws the same
 * question sequence, so a smaller pool is a prefix of a larger one.
 *
 * Files are reused when a stamp next to them says they were written with the same parameters, so
 * a benchmark pays for generation once. A stamp is written last: an interrupted run leaves no stamp.
 */
import { existsSync, mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { runAgent } from './agent.js';
import { buildCorpus } from './corpus.js';
import { openLineWriter } from './line-writer.js';
import { QWEN3_8B } from './models.js';
import { goldOf, type PoolRow } from './pool-row.js';
import { createRng } from './prng.js';
import { createQuestionSampler } from './question-sampler.js';
import { buildSearchIndex, memoisedSearch } from './retrieval.js';

export interface ScaledOptions {
  /** Holds `corpus.jsonl` and one `<size>/pool.jsonl` per size. */
  readonly outDir: string;
  readonly seed: string;
  readonly corpusSize: number;
  /** Trajectories per pool. */
  readonly sizes: readonly number[];
}

export interface ScaledFiles {
  readonly corpus: string;
  /** Pool file per size. */
  readonly pools: ReadonlyMap<number, string>;
  /** Files written by this call (empty when everything was reused). */
  readonly written: readonly string[];
}

/** Samples per question, as in the paper's best-of-8 pools. */
const SAMPLES = 8;
const CUTOFF = 3;
/** Bumped when the generator's output for the same parameters changes, so stale files are rewritten. */
const FORMAT = 1;

function stampOf(file: string): string {
  return `${file}.params.json`;
}

function isFresh(file: string, params: object): boolean {
  try {
    return existsSync(file) && readFileSync(stampOf(file), 'utf8') === JSON.stringify(params);
  } catch {
    return false;
  }
}

function markFresh(file: string, params: object): void {
  writeFileSync(stampOf(file), JSON.stringify(params));
}

/** Writes to a temporary name and renames, so a half-written file never has the final name. */
function writeLines(file: string, fill: (write: (value: unknown) => void) => void): void {
  const partial = `${file}.partial`;
  const writer = openLineWriter(partial);
  fill((value) => writer.write(value));
  writer.close();
  renameSync(partial, file);
}

/** Generates (or reuses) the corpus and one pool per size. */
export function generateScaled(options: ScaledOptions): ScaledFiles {
  const { outDir, seed, corpusSize } = options;
  mkdirSync(outDir, { recursive: true });
  const corpusFile = join(outDir, 'corpus.jsonl');
  const corpusParams = { format: FORMAT, seed, corpusSize };
  const pools = new Map(options.sizes.map((size) => [size, join(outDir, String(size), 'pool.jsonl')]));
  const poolParams = (size: number): object => ({ ...corpusParams, trajectories: size, samples: SAMPLES, cutoff: CUTOFF });
  const stale = options.sizes.filter((size) => !isFresh(pools.get(size)!, poolParams(size)));
  const written: string[] = [];
  if (stale.length === 0 && isFresh(corpusFile, corpusParams)) return { corpus: corpusFile, pools, written };

  // Pools depend on the corpus, so a rewritten corpus makes every pool stale.
  const { world, corpus } = buildCorpus(seed, corpusSize);
  const corpusFresh = isFresh(corpusFile, corpusParams);
  if (!corpusFresh) {
    writeLines(corpusFile, (write) => {
      for (const passage of corpus.passages) write({ id: passage.id, title: passage.title, text: passage.text });
    });
    markFresh(corpusFile, corpusParams);
    written.push(corpusFile);
  }
  const index = buildSearchIndex(corpus);
  for (const size of corpusFresh ? stale : options.sizes) {
    const file = pools.get(size)!;
    mkdirSync(join(outDir, String(size)), { recursive: true });
    const sampler = createQuestionSampler(world, corpus, seed);
    const questions = Math.ceil(size / SAMPLES);
    const width = String(questions).length;
    writeLines(file, (write) => {
      let rows = 0;
      for (let q = 0; q < questions && rows < size; q++) {
        const qid = `bench-${String(q + 1).padStart(width, '0')}`;
        const question = sampler.draw('hotpot', qid);
        const search = memoisedSearch(index, 8);
        for (let sample = 0; sample < SAMPLES && rows < size; sample++, rows++) {
          const run = runAgent(question, { corpus, search, cutoff: CUTOFF, profile: QWEN3_8B, difficulty: 1, rng: createRng([seed, 'agent', 'bench', qid, sample]) });
          const row: PoolRow = {
            id: `${qid}#${sample}`,
            question_id: qid,
            question: question.text,
            steps: run.steps,
            final: run.final,
            gold: goldOf(question),
            meta: { model: QWEN3_8B.model, sample, group: qid, pool: 'bench' },
          };
          write(row);
        }
      }
    });
    markFresh(file, poolParams(size));
    written.push(file);
  }
  return { corpus: corpusFile, pools, written };
}
