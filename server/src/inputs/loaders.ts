// The three fixture loaders (pool, corpus, candidate file). Each is async, opens its file read-only
// through `openInput` under the given trust rule (the CLI's and tests' default: everything), and
// reports bad rows as issues while loading the rest.
import type { StreamOptions } from './jsonl.js';
import { loadRows, type RowParser } from './load-rows.js';
import { parseCandidateRow, parseCorpusRow, parsePoolRow } from '../pool/schemas.js';
import type { CandidateList, Corpus, Loaded, Passage, Trajectory } from '../pool/types.js';
import { WorkspaceTrust } from './trust.js';

/** A loaded corpus: the passages in file order, and the same passages by id. */
export interface LoadedCorpus extends Loaded<Passage> {
  readonly corpus: Corpus;
}

/** How a pool's rows are read; `poolName` is the name the spec gives it, kept on every row. */
export function poolRows(file: string, poolName: string): RowParser<Trajectory> {
  return {
    parse: (value, line) => parsePoolRow(value, { pool: poolName, file, line }),
    key: (row) => row.id,
    duplicateReason: (id, first) => `duplicate id '${id}' (first on line ${first})`,
  };
}

export const corpusRows: RowParser<Passage> = {
  parse: (value) => parseCorpusRow(value),
  key: (passage) => passage.id,
  duplicateReason: (id, first) => `duplicate passage id '${id}' (first on line ${first})`,
};

/**
 * Two lists for the same (traj_id, citation_index) would make the candidates depend on which one
 * a lookup meets, so the second is an issue.
 */
export const candidateRows: RowParser<CandidateList> = {
  parse: (value) => parseCandidateRow(value),
  key: (list) => candidateKey(list.traj_id, list.citation_index),
  duplicateReason: (key, first) => {
    const [trajId, index] = splitCandidateKey(key);
    return `duplicate candidate list for traj_id '${trajId}', citation_index ${index} (first on line ${first})`;
  },
};

/** Loads a pool of trajectories; `poolName` is the name the spec gives it, kept on every row. */
export function loadPool(file: string, poolName: string, trust = WorkspaceTrust.everything, options: StreamOptions = {}): Promise<Loaded<Trajectory>> {
  return loadRows(file, poolRows(file, poolName), trust, options);
}

/** Loads a passage corpus. Map order is file order, which the generators use to break ties. */
export async function loadCorpus(file: string, trust = WorkspaceTrust.everything, options: StreamOptions = {}): Promise<LoadedCorpus> {
  const loaded = await loadRows(file, corpusRows, trust, options);
  return { ...loaded, corpus: { file, passages: new Map(loaded.items.map((p) => [p.id, p])) } };
}

/** Loads a user-supplied candidate file. */
export function loadCandidates(file: string, trust = WorkspaceTrust.everything, options: StreamOptions = {}): Promise<Loaded<CandidateList>> {
  return loadRows(file, candidateRows, trust, options);
}

// The index after the last separator is a number, so the key splits back unambiguously whatever the id holds.
const keySeparator = '\u0000';

/** The lookup key of a candidate list. */
export function candidateKey(trajId: string, citationIndex: number): string {
  return `${trajId}${keySeparator}${citationIndex}`;
}

function splitCandidateKey(key: string): [string, string] {
  const at = key.lastIndexOf(keySeparator);
  return [key.slice(0, at), key.slice(at + 1)];
}
