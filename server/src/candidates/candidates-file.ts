// Candidates a user supplies in a file (e.g. from a dense retriever or an LLM), closing the gap
// the paper leaves open. The file is trusted for order only: every id is checked against the
// corpus and the exclusions, and the drops are counted so the report can say what was ignored.
import { candidateKey } from '../inputs/loaders.js';
import type { CandidateList, Corpus } from '../pool/types.js';
import { budgetCount, type CandidateGenerator, type CandidateRequest } from './generator.js';
import type { DropCounts } from '../edits/candidate-drops.js';

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
