// The audit vocabularies (attack kinds, generators, metrics, selections) and their docs. The
// built-in fields and functions of expressions are in language/builtins.ts.

/** The penalty-scale sweep of an audit that sets none. */
export const defaultSweep: readonly number[] = [0, 0.25, 0.5, 1, 2];

/** The words of an audit block, with what they mean (hover and completion use these). */
export const attackKinds: Readonly<Record<string, string>> = {
  same_final: 'Delete every search action and its observations; keep the question, answer, ordered citations and raw final. The paper targets {U, L}.',
  fake_id: 'Replace one citation with an id that is not in the corpus. The paper targets {F}.',
  launder: 'Replace one citation with a real corpus id the agent never retrieved (candidates from the generators). The paper targets {L}.',
};

export const generatorKinds: Readonly<Record<string, string>> = {
  lexical: 'Up to K unretrieved corpus passages ranked by word overlap with the question and the answer (visible fields only).',
  bm25: 'Up to K unretrieved corpus passages ranked by BM25 for the question and the answer (visible fields only); words in more than 1% (and more than 1,000) of the passages are left out.',
};

export const metricKinds: Readonly<Record<string, string>> = {
  asr: 'Attack success rate on isolated-eligible edits: the mean over question clusters of the share of edits with margin ≥ 0.',
  upper: "The ASR's upper 95% bound: exact one-sided `1 − 0.05^(1/n)` at zero successes, else the bootstrap upper limit.",
  mean_margin: 'The mean paired margin R(A(τ)) − R(τ) over isolated-eligible edits.',
  worst_margin: 'The largest paired margin (the attack closest to winning, or the biggest win).',
  minimal_repair: 'The observed inclusion-minimal subset of the lattice: sufficient, and no proper subset is.',
};

export const selectionKinds: Readonly<Record<string, string>> = {
  first_visible: "The generator's top candidate: label-free selection.",
  oracle_worst: 'The candidate that maximises the audited reward\'s margin: an oracle upper bound whenever the reward reads gold.',
};
