// The audit vocabularies (attack kinds, generators, metrics, selections) and their docs. The
// built-in fields and functions of expressions are in language/builtins.ts.
import { prelude } from './prelude.js';

/** The penalty-scale sweep of an audit that sets none. */
export const defaultSweep: readonly number[] = [0, 0.25, 0.5, 1, 2];

/** The built-in attack kinds: the prelude's edits, with their docs (hover and completion use these). */
export const attackKinds: Readonly<Record<string, string>> = Object.fromEntries([...prelude.edits].map(([name, edit]) => [name, edit.doc]));

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
