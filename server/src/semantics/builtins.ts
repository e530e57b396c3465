import type { Type, Visibility } from './types.js';

/** The penalty-scale sweep of an audit that sets none. */
export const defaultSweep: readonly number[] = [0, 0.25, 0.5, 1, 2];

export interface BuiltinField {
  readonly name: string;
  readonly type: Type;
  readonly visibility: Visibility;
  readonly doc: string;
}

/** The trajectory view every expression can read. Only `gold` is oracle. */
export const builtinFields: readonly BuiltinField[] = [
  { name: 'question', type: 'text', visibility: 'visible', doc: 'The question text.' },
  { name: 'answer', type: 'text', visibility: 'visible', doc: 'The final answer; `""` when the trajectory has no valid final.' },
  { name: 'final_text', type: 'text', visibility: 'visible', doc: 'The raw final output, citations included.' },
  { name: 'citations', type: 'ids', visibility: 'visible', doc: "The final's citation ids in order: C(τ)." },
  { name: 'retrieved', type: 'ids', visibility: 'visible', doc: 'Every passage id a search returned to the agent: E(τ).' },
  { name: 'searches', type: 'steps', visibility: 'visible', doc: 'The search actions in order; each has `.query` (text) and `.results` (id set).' },
  { name: 'corpus', type: 'ids', visibility: 'visible', doc: "The ids of the audit's corpus: P." },
  { name: 'has_final', type: 'boolean', visibility: 'visible', doc: 'The trajectory ends with a valid final answer.' },
  { name: 'search_calls', type: 'number', visibility: 'visible', doc: 'The number of search actions.' },
  { name: 'invalid_actions', type: 'number', visibility: 'visible', doc: 'The number of invalid actions.' },
  { name: 'gold', type: 'gold', visibility: 'oracle', doc: 'Gold labels (oracle): `gold.answers` (text set) and `gold.support` (id set).' },
];

export interface BuiltinMember {
  readonly name: string;
  readonly type: Type;
  readonly doc: string;
}

export const builtinMembers: Partial<Record<Type, readonly BuiltinMember[]>> = {
  gold: [
    { name: 'answers', type: 'texts', doc: 'The gold answers (oracle).' },
    { name: 'support', type: 'ids', doc: 'The gold support passage ids (oracle).' },
  ],
  step: [
    { name: 'query', type: 'text', doc: "The search step's query." },
    { name: 'results', type: 'ids', doc: 'The passage ids the search returned.' },
  ],
};

export interface BuiltinParameter {
  readonly name: string;
  readonly types: readonly Type[];
}

export interface BuiltinFunction {
  readonly name: string;
  readonly parameters: readonly BuiltinParameter[];
  /** Parameters from this index on are optional. */
  readonly required: number;
  /** The last parameter repeats (mean, min, max). */
  readonly variadic: boolean;
  readonly result: Type;
  readonly doc: string;
}

const numeric: readonly Type[] = ['number', 'boolean'];
const answers: readonly Type[] = ['texts', 'text'];
const collections: readonly Type[] = ['ids', 'texts', 'steps'];

function fn(name: string, parameters: BuiltinParameter[], result: Type, doc: string, options: { required?: number; variadic?: boolean } = {}): BuiltinFunction {
  return { name, parameters, result, doc, required: options.required ?? parameters.length, variadic: options.variadic ?? false };
}

/** A call is oracle exactly when one of its arguments is: functions never read gold on their own. */
export const builtinFunctions: readonly BuiltinFunction[] = [
  fn('exact_match', [{ name: 'text', types: ['text'] }, { name: 'answers', types: answers }], 'number',
    '1 when the normalised text equals one of the normalised answers (SQuAD normalisation), else 0.'),
  fn('token_f1', [{ name: 'text', types: ['text'] }, { name: 'answers', types: answers }], 'number',
    'The best token-level F1 of the text against any of the answers (normalised tokens).'),
  fn('grounding', [{ name: 'ids', types: ['ids'] }, { name: 'answers', types: answers }], 'number',
    'The share of the cited passages whose text contains one of the answers (normalised); 0 without citations.'),
  fn('tokens', [{ name: 'text', types: ['text'] }], 'number', 'The number of whitespace-separated tokens in the text.'),
  fn('count', [{ name: 'collection', types: collections }], 'number', 'The number of elements of an id set, text set or search steps.'),
  fn('repeated_queries', [{ name: 'threshold', types: ['number'] }], 'number',
    'The number of searches whose query repeats an earlier one: token Jaccard similarity at or above the threshold (default 1: identical after normalisation).',
    { required: 0 }),
  fn('recall', [{ name: 'found', types: ['ids'] }, { name: 'wanted', types: ['ids'] }], 'number',
    'The share of `wanted` ids that appear in `found`; 0 when `wanted` is empty.'),
  fn('precision', [{ name: 'found', types: ['ids'] }, { name: 'wanted', types: ['ids'] }], 'number',
    'The share of `found` ids that appear in `wanted`; 0 when `found` is empty.'),
  fn('misses', [{ name: 'found', types: ['ids'] }, { name: 'wanted', types: ['ids'] }], 'boolean',
    '`wanted` is nonempty and shares no id with `found` (e.g. citations that miss every gold support passage).'),
  fn('mean', [{ name: 'value', types: numeric }], 'number', 'The mean of numbers or 0/1 indicators (a violation rate).', { variadic: true }),
  fn('min', [{ name: 'value', types: numeric }], 'number', 'The smallest of the values.', { variadic: true }),
  fn('max', [{ name: 'value', types: numeric }], 'number', 'The largest of the values.', { variadic: true }),
];

export const builtinFieldsByName = new Map(builtinFields.map((f) => [f.name, f]));
export const builtinFunctionsByName = new Map(builtinFunctions.map((f) => [f.name, f]));

export function functionSignature(f: BuiltinFunction): string {
  const params = f.parameters.map((p, i) => `${p.name}${i >= f.required ? '?' : ''}: ${p.types.join(' | ')}`);
  return `${f.name}(${params.join(', ')}${f.variadic ? ', …' : ''}) → ${f.result}`;
}

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
