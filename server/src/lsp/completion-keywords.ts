/** A keyword offered as a completion, with the snippet that writes out its construct. */
export interface KeywordSnippet {
  readonly label: string;
  readonly keyword: string;
  readonly snippet: string;
  readonly detail: string;
}

export const declarationSnippets: readonly KeywordSnippet[] = [
  { label: 'corpus', keyword: 'corpus', snippet: 'corpus ${1:name} = "${2:corpus.jsonl}"', detail: 'corpus NAME = "path.jsonl"' },
  { label: 'pool', keyword: 'pool', snippet: 'pool ${1:name} = "${2:pool.jsonl}"', detail: 'pool NAME = "path.jsonl"' },
  { label: 'signal', keyword: 'signal', snippet: 'signal ${1:name} "${2:what it measures}" = $0', detail: 'signal NAME "doc" = EXPR' },
  { label: 'detector', keyword: 'detector', snippet: 'detector ${1:name} "${2:the violation it flags}" = $0', detail: 'detector NAME "doc" = EXPR' },
  { label: 'reward', keyword: 'reward', snippet: 'reward ${1:name} "${2:description}" {\n\t${3:term} ${4:1.0} * $0\n}', detail: 'reward NAME "doc" { TERM… }' },
  { label: 'reward =', keyword: 'reward', snippet: 'reward ${1:name} "${2:description}" = ${3:base} - ${4:1.0} * $0', detail: 'reward NAME "doc" = BASE - W * X' },
  {
    label: 'audit',
    keyword: 'audit',
    snippet: 'audit ${1:name} "${2:description}" {\n\treward ${3:reward}\n\tcorpus ${4:corpus}\n\tpools ${5:pool}\n\tattack ${6:launder} targets ${7:detector} using lexical(${8:8})\n\t$0\n}',
    detail: 'audit NAME "doc" { … }',
  },
  {
    label: 'training',
    keyword: 'training',
    snippet: 'training ${1:name} "${2:description}" {\n\treward ${3:reward}\n\tcorpus ${4:corpus}\n\tlog ${5:pool}\n\tmin_groups ${6:5}\n}',
    detail: 'training NAME "doc" { … }',
  },
  {
    label: 'comparison',
    keyword: 'comparison',
    snippet: 'comparison ${1:name} "${2:description}" {\n\treward ${3:reward}\n\tcorpus ${4:corpus}\n\tbase ${5:pool}\n\ttreatment ${6:pool}\n\t$0\n}',
    detail: 'comparison NAME "doc" { … }',
  },
];

export const auditItemSnippets: readonly KeywordSnippet[] = [
  { label: 'reward', keyword: 'reward', snippet: 'reward ${1:reward}', detail: 'reward R' },
  { label: 'compare', keyword: 'compare', snippet: 'compare ${1:reward}', detail: 'compare R1, R2' },
  { label: 'corpus', keyword: 'corpus', snippet: 'corpus ${1:corpus}', detail: 'corpus C' },
  { label: 'pools', keyword: 'pools', snippet: 'pools ${1:pool}', detail: 'pools P1, P2' },
  { label: 'attack', keyword: 'attack', snippet: 'attack ${1:launder} targets ${2:detector}', detail: 'attack NAME = KIND targets D…' },
  { label: 'lattice', keyword: 'lattice', snippet: 'lattice ${1:detector} = ${2:1.0}', detail: 'lattice D = λ, …' },
  { label: 'expect', keyword: 'expect', snippet: 'expect ${1:asr}(${2:reward}, ${3:attack}, ${4:oracle_worst}) ${5:==} ${6:0}', detail: 'expect METRIC(R, A, S) OP VALUE' },
  { label: 'seed', keyword: 'seed', snippet: 'seed ${1:0}', detail: 'seed N' },
  { label: 'bootstrap', keyword: 'bootstrap', snippet: 'bootstrap ${1:1000}', detail: 'bootstrap N' },
  { label: 'sweep', keyword: 'sweep', snippet: 'sweep ${1:0, 0.25, 0.5, 1, 2}', detail: 'sweep s1, s2, …' },
];

/** Keywords that start an operand: quantifiers, negation and the boolean constants. */
export const operandKeywordSnippets: readonly KeywordSnippet[] = [
  { label: 'any', keyword: 'any', snippet: 'any ${1:c} in ${2:citations}: $0', detail: 'any x in COLL: BOOL' },
  { label: 'all', keyword: 'all', snippet: 'all ${1:c} in ${2:citations}: $0', detail: 'all x in COLL: BOOL' },
  { label: 'count', keyword: 'count', snippet: 'count ${1:s} in ${2:searches}: $0', detail: 'count x in COLL: BOOL' },
  { label: 'not', keyword: 'not', snippet: 'not ', detail: 'not BOOL' },
  { label: 'true', keyword: 'true', snippet: 'true', detail: 'boolean' },
  { label: 'false', keyword: 'false', snippet: 'false', detail: 'boolean' },
];
