/**
 * Counts, per pool, the shares that say whether the pool looks like the paper's: answer accuracy and
 * how often each visible violation occurs. The checks restate the sample spec's detectors and signals
 * (samples/paper.reward) so the printed rates are the rates an audit of these files will see.
 */
import { type PoolRow } from './pool-row.js';
import { exactMatch, terms } from './text.js';

export interface PoolStats {
  rows: number;
  questions: number;
  /** Exact match against a gold answer; rows without a final count as wrong. */
  exactMatch: number;
  meanSearches: number;
  /** U: a nonempty final answer and no search. */
  noSearch: number;
  /** L: a citation that is a corpus id but was never retrieved. */
  unretrievedCitation: number;
  /** F: a citation that is not a corpus id. */
  fakeCitation: number;
  noFinal: number;
  invalidAction: number;
  repeatedQuery: number;
  /** Finals without citations. */
  noCitation: number;
  /** Finals whose citations include no gold support id. */
  supportMiss: number;
}

export interface StatsTally {
  add(row: PoolRow): void;
  result(): PoolStats;
}

export function createStatsTally(inCorpus: (id: string) => boolean): StatsTally {
  const questions = new Set<string>();
  const counts = { rows: 0, exactMatch: 0, searches: 0, noSearch: 0, unretrievedCitation: 0, fakeCitation: 0, noFinal: 0, invalidAction: 0, repeatedQuery: 0, noCitation: 0, supportMiss: 0 };
  return {
    add: (row) => {
      counts.rows++;
      questions.add(row.question_id);
      const retrieved = new Set<string>();
      const queries = new Set<string>();
      let searches = 0;
      let repeated = false;
      for (const step of row.steps) {
        if (step.type === 'invalid') continue;
        searches++;
        for (const id of step.results) retrieved.add(id);
        const key = terms(step.query).join(' ');
        if (queries.has(key)) repeated = true;
        queries.add(key);
      }
      counts.searches += searches;
      if (repeated) counts.repeatedQuery++;
      if (row.steps.some((step) => step.type === 'invalid')) counts.invalidAction++;
      const final = row.final;
      if (final === null) {
        counts.noFinal++;
        return;
      }
      if (exactMatch(final.answer, row.gold.answers)) counts.exactMatch++;
      if (final.answer !== '' && searches === 0) counts.noSearch++;
      if (final.citations.some((c) => inCorpus(c) && !retrieved.has(c))) counts.unretrievedCitation++;
      if (final.citations.some((c) => !inCorpus(c))) counts.fakeCitation++;
      if (final.citations.length === 0) counts.noCitation++;
      if (!final.citations.some((c) => row.gold.support_ids.includes(c))) counts.supportMiss++;
    },
    result: () => {
      const share = (n: number): number => (counts.rows === 0 ? 0 : n / counts.rows);
      return {
        rows: counts.rows,
        questions: questions.size,
        exactMatch: share(counts.exactMatch),
        meanSearches: share(counts.searches),
        noSearch: share(counts.noSearch),
        unretrievedCitation: share(counts.unretrievedCitation),
        fakeCitation: share(counts.fakeCitation),
        noFinal: share(counts.noFinal),
        invalidAction: share(counts.invalidAction),
        repeatedQuery: share(counts.repeatedQuery),
        noCitation: share(counts.noCitation),
        supportMiss: share(counts.supportMiss),
      };
    },
  };
}
