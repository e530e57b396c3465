import type { CandidateList, Corpus, Loaded } from '../pool/types.js';
import { buildBm25Index, createBm25Generator, type Bm25Index } from './bm25.js';
import { createFileGenerator, type FileGenerator } from './candidates-file.js';
import type { CandidateGenerator } from './generator.js';
import { buildLexicalIndex, createLexicalGenerator } from './lexical.js';
import type { RankedGenerator, RankingStore } from '../inputs/ranking-cache.js';
import { createRanker, type RankFunction, type Ranker } from './ranker.js';
import type { GeneratorPlan } from '../edits/attack-plan.js';
import type { AttackPlan } from '../edits/attack-plan.js';
import type { CandidateSource } from '../edits/prepare.js';
import type { CommandRecord } from '../report/generator-schema.js';

/** A command generator's answers, already run (inputs/command-runner.ts) and read (command.ts). */
export interface CommandAnswers {
  readonly lists: readonly CandidateList[];
  readonly record: CommandRecord;
}

export interface CandidateSourceOptions {
  /** Rankings kept from earlier runs (on disk), per generator; the corpus is indexed only on a miss. */
  readonly store?: (generator: RankedGenerator) => RankingStore | undefined;
  /** Each command generator's answers, by the command as written. */
  readonly commands?: ReadonlyMap<string, CommandAnswers>;
  /** The corpus's BM25 index, loaded or built once for the run (`bm25IndexOf`); built here on a miss otherwise. */
  readonly bm25Index?: (() => Bm25Index) | undefined;
}

/**
 * Builds each attack's generators once, sharing the corpus indexes between attacks, and merges
 * their candidates in the order the spec lists the generators, without repeats. An index is
 * built only when a ranking is not already stored.
 */
export function createCandidateSource(corpus: Corpus, candidateFiles: ReadonlyMap<string, Loaded<CandidateList>>, options: CandidateSourceOptions = {}): CandidateSource {
  const rankers = new Map<RankedGenerator, Ranker>();
  const rankerOf = (generator: RankedGenerator): { ranker: Ranker } => {
    let ranker = rankers.get(generator);
    if (ranker === undefined) {
      let index: { rank: RankFunction } | undefined;
      const built = () => (index ??= generator === 'bm25' ? options.bm25Index?.() ?? buildBm25Index(corpus) : buildLexicalIndex(corpus));
      const store = options.store?.(generator);
      ranker = createRanker((text, limit) => built().rank(text, limit), store === undefined ? {} : { store });
      rankers.set(generator, ranker);
    }
    return { ranker };
  };
  const perAttack = new Map<AttackPlan, CandidateGenerator[]>();
  const fileGenerators = new Map<AttackPlan, FileGenerator[]>();

  const build = (plan: AttackPlan, g: GeneratorPlan): CandidateGenerator => {
    switch (g.kind) {
      case 'lexical':
        return createLexicalGenerator(rankerOf('lexical'), g.budget);
      case 'bm25':
        return createBm25Generator(rankerOf('bm25'), g.budget);
      case 'file': {
        const generator = createFileGenerator(candidateFiles.get(g.path)?.items ?? [], corpus, Infinity, g.label);
        fileGenerators.set(plan, [...(fileGenerators.get(plan) ?? []), generator]);
        return generator;
      }
      case 'command': {
        // Answers are read like a candidates file: the same checks against the corpus and exclusions.
        const generator = createFileGenerator(options.commands?.get(g.command)?.lists ?? [], corpus, Infinity, g.label);
        fileGenerators.set(plan, [...(fileGenerators.get(plan) ?? []), generator]);
        return generator;
      }
    }
  };
  const generatorsOf = (plan: AttackPlan): CandidateGenerator[] => {
    let generators = perAttack.get(plan);
    if (generators === undefined) perAttack.set(plan, (generators = plan.generators.map((g) => build(plan, g))));
    return generators;
  };

  return {
    candidatesFor(plan, trajectory, position, exclude) {
      const generators = generatorsOf(plan);
      if (generators.length === 1) return generators[0]!.candidates({ trajectory, citationIndex: position, exclude });
      const merged = new Set<string>();
      for (const generator of generators) for (const id of generator.candidates({ trajectory, citationIndex: position, exclude })) merged.add(id);
      return [...merged];
    },
    origins(plan, trajectory, position, exclude) {
      // Which of the attack's generators proposed each id (bit g for plan.generators[g]); an id
      // several generators propose belongs to each, so the certificate per generator covers it for each.
      const origins = new Map<string, number>();
      generatorsOf(plan).forEach((generator, g) => {
        for (const id of generator.candidates({ trajectory, citationIndex: position, exclude })) origins.set(id, (origins.get(id) ?? 0) | (1 << g));
      });
      return origins;
    },
    commands(plan) {
      return plan.generators.flatMap((g) => {
        const record = g.kind === 'command' ? options.commands?.get(g.command)?.record : undefined;
        return record === undefined ? [] : [record];
      });
    },
    drops(plan) {
      return (fileGenerators.get(plan) ?? []).map((g) => ({ label: g.label, dropped: g.dropped }));
    },
  };
}
