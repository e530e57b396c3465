/**
 * A stand-in for a dense retriever, producing the optional user-supplied candidate file of DESIGN.md.
 * It ranks passages by the named entities they share with the question, the answer and the cited
 * passage (weighted by rarity), which orders passages differently from word overlap or BM25: a
 * passage can rank high while sharing no other word with the question.
 *
 * It reads only visible fields: the question, the final answer, the citations, the retrieved ids and
 * the corpus. An entity is a name the corpus passages mention; matching names in text needs nothing
 * a user could not recompute from the corpus.
 */
import { type Corpus } from './corpus.js';
import { type CandidateRow, type PoolRow } from './pool-row.js';
import { at } from './prng.js';
import { normalizeAnswer } from './text.js';

/** Candidates per citation: the budget of the paper's primary lexical generator. */
const CANDIDATES_PER_CITATION = 8;
/** Entities of the cited passage count half as much as those of the question and answer. */
const CITED_ENTITY_WEIGHT = 0.5;

interface EntityPostings {
  passages: number[];
  weight: number;
}

export type DenseCandidateGenerator = (row: PoolRow) => CandidateRow[];

export function createDenseCandidateGenerator(corpus: Corpus): DenseCandidateGenerator {
  const entities = new Map<string, EntityPostings>();
  const passageEntities: string[][] = [];
  corpus.passages.forEach((passage, index) => {
    const names = new Set(passage.mentions.filter((m) => m.kind !== 'year').map((m) => normalizeAnswer(m.name)));
    passageEntities.push([...names]);
    for (const name of names) {
      const postings = entities.get(name);
      if (postings === undefined) entities.set(name, { passages: [index], weight: 0 });
      else postings.passages.push(index);
    }
  });
  let longestName = 1;
  for (const [name, postings] of entities) {
    postings.weight = Math.log(corpus.passages.length / postings.passages.length) + 1;
    longestName = Math.max(longestName, name.split(' ').length);
  }
  const positionOf = new Map(corpus.passages.map((p, index) => [p.id, index]));
  // Names in very many passages (countries, the busiest cities) carry little signal and dominate the
  // cost on large corpora, as stop words would; the floor keeps every name on small corpora.
  const limit = Math.max(2000, Math.floor(corpus.passages.length * 0.02));

  const entitiesIn = (text: string): string[] => {
    const words = normalizeAnswer(text).split(' ');
    const found = new Set<string>();
    for (let start = 0; start < words.length; start++) {
      for (let length = 1; length <= longestName && start + length <= words.length; length++) {
        const phrase = words.slice(start, start + length).join(' ');
        if (entities.has(phrase)) found.add(phrase);
      }
    }
    return [...found];
  };

  // Scratch space reused by every ranking: scores stay zero outside `touched`.
  const scores = new Float64Array(corpus.passages.length);
  const touched: number[] = [];
  const credit = (names: readonly string[], factor: number): void => {
    for (const name of names) {
      const postings = entities.get(name);
      if (postings === undefined || postings.passages.length > limit) continue;
      for (const passage of postings.passages) {
        if (scores[passage] === 0) touched.push(passage);
        scores[passage] = (scores[passage] ?? 0) + factor * postings.weight;
      }
    }
  };
  const rank = (excluded: ReadonlySet<string>): string[] => {
    const ranked = touched
      .filter((passage) => !excluded.has(at(corpus.passages, passage).id))
      .sort((a, b) => (scores[b] ?? 0) - (scores[a] ?? 0) || a - b)
      .slice(0, CANDIDATES_PER_CITATION)
      .map((passage) => at(corpus.passages, passage).id);
    for (const passage of touched) scores[passage] = 0;
    touched.length = 0;
    return ranked;
  };

  return (row) => {
    if (row.final === null || row.final.citations.length === 0) return [];
    const excluded = new Set(row.final.citations);
    for (const step of row.steps) if (step.type === 'search') for (const id of step.results) excluded.add(id);
    const asked = entitiesIn(`${row.question} ${row.final.answer}`);
    return row.final.citations.flatMap((citation, citationIndex): CandidateRow[] => {
      credit(asked, 1);
      const cited = positionOf.get(citation);
      if (cited !== undefined) credit(at(passageEntities, cited), CITED_ENTITY_WEIGHT);
      const candidates = rank(excluded);
      return candidates.length === 0 ? [] : [{ traj_id: row.id, citation_index: citationIndex, candidates }];
    });
  };
}
