/**
 * Behaviour profiles of the simulated agents. The numbers are chosen so the pools land near the
 * paper's setting (answer accuracy 40-60%, a few percent of each violation), not measured from any
 * real model; the names only say which row of the paper's replication table a pool stands in for.
 */
export interface AgentProfile {
  model: string;
  /** Probability of a correct answer given how many of the two gold passages were retrieved. */
  correctGiven: readonly [number, number, number];
  /** Probability that a query garbles the entity it searches for. */
  queryNoise: number;
  /** Weights of a search budget of 1, 2, 3, 4, 5 calls. */
  budget: readonly number[];
  /** Probability of one extra confirming search after both hops are done. */
  confirm: number;
  /** Probability of answering as soon as the first hop's passage is found, skipping the second hop. */
  stopEarly: number;
  /** Per trajectory: answer without any search. */
  noSearch: number;
  /** Per trajectory: cite a real passage that no search returned. */
  unretrievedCitation: number;
  /** Per trajectory: cite an id that is not in the corpus. */
  fakeCitation: number;
  /** Per trajectory: end without a valid final. */
  noFinal: number;
  /** Per search: an invalid action right before it. */
  invalidAction: number;
  /** Per search after the first: repeat the previous query verbatim. */
  repeatQuery: number;
  /** Per final: give no citations at all. */
  noCitation: number;
  /** Per final: cite the top results of the last search instead of passages that hold the answer. */
  sloppyCitation: number;
  /** Per correct final: a partial form of the answer (surname only, "city, country", ...). */
  partialAnswer: number;
}

export const QWEN3_8B: AgentProfile = {
  model: 'qwen3-8b',
  correctGiven: [0.1, 0.42, 0.74],
  queryNoise: 0.15,
  budget: [10, 38, 30, 15, 7],
  confirm: 0.15,
  stopEarly: 0.3,
  noSearch: 0.015,
  unretrievedCitation: 0.025,
  fakeCitation: 0.008,
  noFinal: 0.03,
  invalidAction: 0.02,
  repeatQuery: 0.04,
  noCitation: 0.03,
  sloppyCitation: 0.12,
  partialAnswer: 0.08,
};

export const QWEN3_1_7B: AgentProfile = {
  model: 'qwen3-1.7b',
  correctGiven: [0.07, 0.36, 0.66],
  queryNoise: 0.32,
  budget: [22, 40, 24, 10, 4],
  confirm: 0.08,
  stopEarly: 0.45,
  noSearch: 0.03,
  unretrievedCitation: 0.035,
  fakeCitation: 0.015,
  noFinal: 0.05,
  invalidAction: 0.045,
  repeatQuery: 0.08,
  noCitation: 0.05,
  sloppyCitation: 0.22,
  partialAnswer: 0.12,
};

export const QWEN3_14B: AgentProfile = {
  model: 'qwen3-14b',
  correctGiven: [0.11, 0.45, 0.75],
  queryNoise: 0.1,
  budget: [6, 34, 34, 18, 8],
  confirm: 0.2,
  stopEarly: 0.2,
  noSearch: 0.008,
  unretrievedCitation: 0.018,
  fakeCitation: 0.004,
  noFinal: 0.02,
  invalidAction: 0.012,
  repeatQuery: 0.03,
  noCitation: 0.02,
  sloppyCitation: 0.08,
  partialAnswer: 0.06,
};

export const LLAMA3_8B: AgentProfile = {
  model: 'llama3-8b',
  correctGiven: [0.08, 0.38, 0.68],
  queryNoise: 0.2,
  budget: [14, 40, 28, 12, 6],
  confirm: 0.1,
  stopEarly: 0.38,
  noSearch: 0.02,
  unretrievedCitation: 0.03,
  fakeCitation: 0.012,
  noFinal: 0.04,
  invalidAction: 0.035,
  repeatQuery: 0.06,
  noCitation: 0.04,
  sloppyCitation: 0.16,
  partialAnswer: 0.1,
};
