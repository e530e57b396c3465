import type { CandidateList, Corpus, Loaded } from '../pool/types.js';
import { buildBm25Index, createBm25Generator, type Bm25Index } from './generators/bm25.js';
import { createFileGenerator, describeDrops, type FileGenerator } from './generators/candidates-file.js';
import type { CandidateGenerator } from './generators/generator.js';
import { buildLexicalIndex, createLexicalGenerator, type LexicalIndex } from './generators/lexical.js';
import type { AttackPlan, GeneratorPlan } from './plan.js';
import type { CandidateSource } from './run-audit.js';

/**
 * Builds each attack's generators once, sharing the corpus indexes between attacks, and merges
 * their candidates in the order the spec lists the generators, without repeats.
 */
export function createCandidateSource(corpus: Corpus, candidateFiles: ReadonlyMap<string, Loaded<CandidateList>>): CandidateSource {
  let lexicalIndex: LexicalIndex | undefined;
  let bm25Index: Bm25Index | undefined;
  const perAttack = new Map<AttackPlan, CandidateGenerator[]>();
  const fileGenerators = new Map<AttackPlan, FileGenerator[]>();

  const build = (plan: AttackPlan, g: GeneratorPlan): CandidateGenerator => {
    switch (g.kind) {
      case 'lexical':
        return createLexicalGenerator((lexicalIndex ??= buildLexicalIndex(corpus)), g.budget);
      case 'bm25':
        return createBm25Generator((bm25Index ??= buildBm25Index(corpus)), g.budget);
      case 'file': {
        const generator = createFileGenerator(candidateFiles.get(g.path)?.items ?? [], corpus, Infinity, g.label);
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
    notes(plan) {
      return (fileGenerators.get(plan) ?? []).flatMap((g) => {
        const note = describeDrops(g.dropped);
        return note === undefined ? [] : [`${g.label}: ${note}`];
      });
    },
  };
}
