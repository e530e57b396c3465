// Candidates a user supplies in a file (e.g. from a dense retriever or an LLM), closing the gap
// the paper leaves open. The file is trusted for order only: every id is checked against the
// corpus and the exclusions, and the drops are counted so the report can say what was ignored.
import { candidateKey } from '../../inputs/loaders.js';
import type { CandidateList, Corpus } from '../../pool/types.js';
import { budgetCount, type CandidateGenerator, type CandidateRequest } from './generator.js';

export interface DropCounts {
  /** Supplied ids that are not passages of the corpus. */
  readonly notInCorpus: number;
  /** Supplied ids the trajectory already retrieved or cites (the request's `exclude`). */
  readonly excluded: number;
  /** Repeats of an id earlier in the same list. */
  readonly duplicates: number;
}

export interface FileGenerator extends CandidateGenerator {
  /** Drops so far, counted once per (trajectory, citation position) however often it is asked. */
  readonly dropped: DropCounts;
}

/**
 * Looks candidates up by (traj_id, citation_index); a position without a list has none. When
 * lists repeat a key, the first wins (the loader already reports the repeat).
 */
export function createFileGenerator(lists: readonly CandidateList[], corpus: Corpus, budget = Infinity, label = 'candidates file'): FileGenerator {
  const byKey = new Map<string, readonly string[]>();
  for (const list of lists) {
    const key = candidateKey(list.traj_id, list.citation_index);
    if (!byKey.has(key)) byKey.set(key, list.candidates);
  }
  const limit = budgetCount(budget);
  const counted = new Set<string>();
  let notInCorpus = 0;
  let excluded = 0;
  let duplicates = 0;

  return {
    label,
    get dropped(): DropCounts {
      return { notInCorpus, excluded, duplicates };
    },
    candidates(request: CandidateRequest): readonly string[] {
      const key = candidateKey(request.trajectory.id, request.citationIndex);
      const supplied = byKey.get(key);
      if (supplied === undefined) return [];
      const count = !counted.has(key);
      counted.add(key);
      const seen = new Set<string>();
      const out: string[] = [];
      for (const id of supplied) {
        let drop: 'corpus' | 'excluded' | 'duplicate' | undefined;
        if (seen.has(id)) drop = 'duplicate';
        else if (!corpus.passages.has(id)) drop = 'corpus';
        else if (request.exclude.has(id)) drop = 'excluded';
        seen.add(id);
        if (drop === undefined) {
          if (out.length < limit) out.push(id);
        } else if (count) {
          if (drop === 'duplicate') duplicates += 1;
          else if (drop === 'corpus') notInCorpus += 1;
          else excluded += 1;
        }
      }
      return out;
    },
  };
}

/** One file or command generator's drops, under its label as the spec writes it. */
export interface GeneratorDrops {
  readonly label: string;
  readonly dropped: DropCounts;
}

/** The drops of several parts of one attack (the same generators in each), generator by generator. */
export function sumDrops(parts: readonly (readonly GeneratorDrops[])[]): GeneratorDrops[] {
  return (parts[0] ?? []).map(({ label }, g) => {
    const total = { notInCorpus: 0, excluded: 0, duplicates: 0 };
    for (const part of parts) {
      const counts = part[g]!.dropped;
      total.notInCorpus += counts.notInCorpus;
      total.excluded += counts.excluded;
      total.duplicates += counts.duplicates;
    }
    return { label, dropped: total };
  });
}

/** The report's notes on an attack's dropped candidates, one per generator that dropped any. */
export function dropNotes(drops: readonly GeneratorDrops[]): string[] {
  return drops.flatMap(({ label, dropped }) => {
    const note = describeDrops(dropped);
    return note === undefined ? [] : [`${label}: ${note}`];
  });
}

/** A note for the report ("supplied candidates ignored: 12 not corpus ids, 3 already retrieved or cited"), or undefined. */
export function describeDrops(counts: DropCounts): string | undefined {
  const parts: string[] = [];
  if (counts.notInCorpus > 0) parts.push(`${counts.notInCorpus} not ${counts.notInCorpus === 1 ? 'a corpus id' : 'corpus ids'}`);
  if (counts.excluded > 0) parts.push(`${counts.excluded} already retrieved or cited`);
  if (counts.duplicates > 0) parts.push(`${counts.duplicates} repeated within a list`);
  return parts.length === 0 ? undefined : `supplied candidates ignored: ${parts.join(', ')}`;
}
