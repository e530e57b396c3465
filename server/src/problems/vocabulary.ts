// The keywords of the .reward language, each declared once: where it may stand, what it does, and
// how completion writes out what it starts. The lexer's keyword tokens (syntax/tokens.ts), the
// parser's messages (syntax/parse.ts), completion's keyword lists (ide/completion-keywords.ts) and
// the keyword hovers (ide/keyword-docs.ts) are all derived from this table. Plain data with no
// dependencies, so that any stage may read the language's words.
//
// Words that are names rather than keywords (attack kinds, generators, metrics, selections, block
// options) live with their meaning in semantics/.

/** How completion writes out a construct that a keyword starts. */
export interface KeywordForm {
  /** The construct as the docs write it, e.g. `corpus NAME = "path.jsonl"` (completion's detail). */
  readonly usage: string;
  /** What completion inserts, in LSP snippet syntax. */
  readonly snippet: string;
  /** A label other than the word, when one word starts two constructs (`reward =`). */
  readonly label?: string;
}

/**
 * One keyword. Each optional field is a role the word plays; a word may play several (`reward`
 * declares a reward and names the audited one in an audit block).
 */
export interface KeywordDef {
  readonly word: string;
  /** One line on what the word does: hover and completion show it. */
  readonly doc: string;
  /** Starts a declaration at the top level. */
  readonly declaration?: readonly KeywordForm[];
  /** Starts an item of an audit block (training and comparison blocks borrow some); `doc` is the word's doc there. */
  readonly auditItem?: KeywordForm & { readonly doc?: string };
  /** An audit item that sets numbers: `seed 0`, `sweep 0, 0.5, 1`. */
  readonly setting?: true;
  /** A clause of an attack item or one of its generators. */
  readonly attackClause?: true;
  /** Starts an operand of an expression. */
  readonly operand?: KeywordForm;
  /** Binds a variable to each element of a collection: `any c in citations: …`. */
  readonly quantifier?: true;
  /** Joins two operands: `and`, `or`, `in`, `not in`. */
  readonly operator?: true;
  /** A constant value. */
  readonly constant?: true;
  /** A word of the conditional expression `if … then … else …`. */
  readonly conditional?: true;
}

export const vocabulary = [
  {
    word: 'corpus',
    doc: '`corpus NAME = "path.jsonl"` declares a passage corpus: one `{"id","title","text"}` object per line, the path relative to the spec.',
    declaration: [{ usage: 'corpus NAME = "path.jsonl"', snippet: 'corpus ${1:name} = "${2:corpus.jsonl}"' }],
    auditItem: { usage: 'corpus C', snippet: 'corpus ${1:corpus}', doc: '`corpus C` names the corpus that `corpus` and the candidate generators read.' },
  },
  {
    word: 'pool',
    doc: '`pool NAME = "path.jsonl"` declares a pool of logged trajectories, one JSON object per line.',
    declaration: [{ usage: 'pool NAME = "path.jsonl"', snippet: 'pool ${1:name} = "${2:pool.jsonl}"' }],
  },
  {
    word: 'field',
    doc: '`field NAME "doc" : TYPE = meta.PATH` declares a value logged with each row (`meta.judge.score`), typed number, boolean, text, texts or ids; visible unless declared `oracle field`. A row without it, or with a value of another type, is skipped with the reason.',
    declaration: [
      { usage: 'field NAME "doc" : TYPE = meta.PATH', snippet: 'field ${1:name} "${2:what was logged}" : ${3:number} = meta.${4:path}' },
      // `oracle` is a modifier, not a reserved word: specs may still name a reward `oracle`.
      { label: 'oracle field', usage: 'oracle field NAME "doc" : TYPE = meta.PATH', snippet: 'oracle field ${1:name} "${2:what was logged}" : ${3:number} = meta.${4:path}' },
    ],
  },
  {
    word: 'signal',
    doc: '`signal NAME "doc" = EXPR` names a number or boolean computed from a trajectory; it may read oracle fields (`gold`).',
    declaration: [{ usage: 'signal NAME "doc" = EXPR', snippet: 'signal ${1:name} "${2:what it measures}" = $0' }],
  },
  {
    word: 'detector',
    doc: '`detector NAME "doc" = EXPR` names an exact 0/1 check of a violation; it must be boolean and visible (no `gold`).',
    declaration: [{ usage: 'detector NAME "doc" = EXPR', snippet: 'detector ${1:name} "${2:the violation it flags}" = $0' }],
  },
  {
    word: 'reward',
    doc: '`reward NAME "doc" { TERM… }` is a weighted sum of terms; `reward NAME = BASE - W * X` derives one reward from another.',
    declaration: [
      { usage: 'reward NAME "doc" { TERM… }', snippet: 'reward ${1:name} "${2:description}" {\n\t${3:term} ${4:1.0} * $0\n}' },
      { label: 'reward =', usage: 'reward NAME "doc" = BASE - W * X', snippet: 'reward ${1:name} "${2:description}" = ${3:base} - ${4:1.0} * $0' },
    ],
    auditItem: { usage: 'reward R', snippet: 'reward ${1:reward}', doc: '`reward R` names the audited reward (exactly one per audit).' },
  },
  {
    word: 'audit',
    doc: '`audit NAME "doc" { … }` is a HERALD audit: counterfactual attacks on logged trajectories, scored by the audited reward.',
    declaration: [{
      usage: 'audit NAME "doc" { … }',
      snippet: 'audit ${1:name} "${2:description}" {\n\treward ${3:reward}\n\tcorpus ${4:corpus}\n\tpools ${5:pool}\n\tattack ${6:launder} targets ${7:detector} using lexical(${8:8})\n\t$0\n}',
    }],
  },
  {
    word: 'training',
    doc: '`training NAME "doc" { reward R; corpus C; log P; normalize std; min_groups N }` audits the training signal: in how many logged update groups a detector\'s penalty changes the group-normalised (GRPO) advantages, and in how many the group mean cancels it.',
    declaration: [{
      usage: 'training NAME "doc" { … }',
      snippet: 'training ${1:name} "${2:description}" {\n\treward ${3:reward}\n\tcorpus ${4:corpus}\n\tlog ${5:pool}\n\tmin_groups ${6:5}\n}',
    }],
  },
  {
    word: 'comparison',
    doc: '`comparison NAME "doc" { reward R0; corpus C; base P; treatment Q; detectors D; attack …; margin 2; claim 1 }` pairs two trained policies\' evaluation logs by question and sample: paired differences with question-cluster bootstrap intervals and an EM non-inferiority gate.',
    declaration: [{
      usage: 'comparison NAME "doc" { … }',
      snippet: 'comparison ${1:name} "${2:description}" {\n\treward ${3:reward}\n\tcorpus ${4:corpus}\n\tbase ${5:pool}\n\ttreatment ${6:pool}\n\t$0\n}',
    }],
  },
  {
    word: 'compare',
    doc: '`compare R1, R2` names further rewards scored on the same attacked trajectories.',
    auditItem: { usage: 'compare R1, R2', snippet: 'compare ${1:reward}' },
  },
  {
    word: 'pools',
    doc: '`pools P1, P2` names the pools the audit reads; rows sharing a `question_id` form one cluster.',
    auditItem: { usage: 'pools P1, P2', snippet: 'pools ${1:pool}' },
  },
  {
    word: 'attack',
    doc: '`attack NAME = KIND targets D…` (or `attack KIND targets D…`) declares an edit of the trajectories: same_final, fake_id or launder.',
    auditItem: { usage: 'attack NAME = KIND targets D…', snippet: 'attack ${1:launder} targets ${2:detector}' },
  },
  {
    word: 'targets',
    doc: '`targets D1, D2` names the detectors the attack is meant to trip.',
    attackClause: true,
  },
  {
    word: 'using',
    doc: '`using G1, G2` lists the candidate generators of a launder attack: lexical(K), bm25(K), candidates "file.jsonl", candidates command "PROGRAM".',
    attackClause: true,
  },
  {
    word: 'candidates',
    doc: '`candidates "file.jsonl"` reads user-supplied laundering candidates (e.g. from dense retrieval); `candidates command "PROGRAM ARGS"` runs a program that ranks them (docs/generators.md).',
    attackClause: true,
  },
  {
    word: 'lattice',
    doc: '`lattice D = λ, …` gives the detectors whose subsets are searched for a minimal repair, with their penalties λ > 0.',
    auditItem: { usage: 'lattice D = λ, …', snippet: 'lattice ${1:detector} = ${2:1.0}' },
  },
  {
    word: 'expect',
    doc: '`expect METRIC(REWARD, ATTACK, SELECTION) OP VALUE` or `expect minimal_repair == {D…}` states what the audit must find.',
    auditItem: { usage: 'expect METRIC(R, A, S) OP VALUE', snippet: 'expect ${1:asr}(${2:reward}, ${3:attack}, ${4:oracle_worst}) ${5:==} ${6:0}' },
  },
  {
    word: 'conforms',
    doc: '`conforms A to B within TOL` states that A (a reward, signal or field) reproduces B on every original row of the audit, to TOL (default 1e-6): her command against the trainer\'s logged score, or her spec against her command.',
    auditItem: { usage: 'conforms A to B within TOL', snippet: 'conforms ${1:reward} to ${2:logged_score} within ${3:1e-6}' },
  },
  {
    word: 'seed',
    doc: '`seed N` fixes the bootstrap seed (default 0).',
    auditItem: { usage: 'seed N', snippet: 'seed ${1:0}' },
    setting: true,
  },
  {
    word: 'bootstrap',
    doc: '`bootstrap N` sets the number of bootstrap resamples (default 1000).',
    auditItem: { usage: 'bootstrap N', snippet: 'bootstrap ${1:1000}' },
    setting: true,
  },
  {
    word: 'sweep',
    doc: '`sweep s1, s2, …` sets the penalty scales swept over the lattice (default 0, 0.25, 0.5, 1, 2).',
    auditItem: { usage: 'sweep s1, s2, …', snippet: 'sweep ${1:0, 0.25, 0.5, 1, 2}' },
    setting: true,
  },
  {
    word: 'any',
    doc: '`any x in COLL: BOOL` holds when the body holds for at least one element (`any x in COLL where F: BOOL`: one that passes the filter); the body reaches as far right as it can.',
    operand: { usage: 'any x in COLL: BOOL', snippet: 'any ${1:c} in ${2:citations}: $0' },
    quantifier: true,
  },
  {
    word: 'all',
    doc: '`all x in COLL: BOOL` holds when the body holds for every element (`all x in COLL where F: BOOL`: every one that passes the filter); the body reaches as far right as it can.',
    operand: { usage: 'all x in COLL: BOOL', snippet: 'all ${1:c} in ${2:citations}: $0' },
    quantifier: true,
  },
  {
    word: 'count',
    doc: '`count x in COLL: BOOL` is the number of elements for which the body holds (`where F` after the collection: among those that pass F); `count(COLL)` is the number of elements.',
    operand: { usage: 'count x in COLL: BOOL', snippet: 'count ${1:s} in ${2:searches}: $0' },
    quantifier: true,
  },
  {
    word: 'in',
    doc: '`X in IDS` tests membership (an id in an id set, a text in a text set); in a quantifier it introduces the collection.',
    operator: true,
  },
  {
    word: 'not',
    doc: '`not A` negates a boolean; `X not in IDS` tests non-membership.',
    operand: { usage: 'not BOOL', snippet: 'not ' },
    operator: true,
  },
  { word: 'and', doc: '`A and B` holds when both sides hold.', operator: true },
  { word: 'or', doc: '`A or B` holds when either side holds.', operator: true },
  {
    word: 'if',
    doc: '`if BOOL then A else B` is A where the condition holds and B elsewhere; A and B have one type (a number and a boolean mix as numbers); the else branch reaches as far right as it can.',
    operand: { usage: 'if BOOL then A else B', snippet: 'if ${1:condition} then ${2:1} else ${3:0}' },
    conditional: true,
  },
  { word: 'then', doc: '`then A` in `if BOOL then A else B`: the value where the condition holds.', conditional: true },
  { word: 'else', doc: '`else B` in `if BOOL then A else B`: the value where the condition does not hold; it reaches as far right as it can. After `max`, `min` or `mean x in COLL: NUM` it is the value when no element is left.', conditional: true },
  {
    word: 'true',
    doc: 'The boolean constant true (1 as an indicator).',
    operand: { usage: 'boolean', snippet: 'true' },
    constant: true,
  },
  {
    word: 'false',
    doc: 'The boolean constant false (0 as an indicator).',
    operand: { usage: 'boolean', snippet: 'false' },
    constant: true,
  },
] as const satisfies readonly KeywordDef[];

/** The table as plain `KeywordDef`s, for readers that need no literal types. */
export const keywordDefs: readonly KeywordDef[] = vocabulary;

export type Keyword = (typeof vocabulary)[number]['word'];

/** The reserved words: none of them can name a declaration. */
export const keywords: readonly string[] = vocabulary.map((k) => k.word);

export const declarationWords = vocabulary.filter((k) => 'declaration' in k).map((k) => k.word);
export const auditItemWords = vocabulary.filter((k) => 'auditItem' in k).map((k) => k.word);
export const settingWords = vocabulary.filter((k) => 'setting' in k).map((k) => k.word);
export const quantifierWords = vocabulary.filter((k) => 'quantifier' in k).map((k) => k.word);

/** An audit setting's keyword: `seed`, `bootstrap`, `sweep`. */
export type SettingWord = (typeof settingWords)[number];
/** A quantifier's keyword: `any`, `all`, `count`. */
export type QuantifierWord = (typeof quantifierWords)[number];

/**
 * The aggregations (`sum s in steps: s.step_reward`): like the quantifiers, but names rather than
 * reserved words, read as an aggregation only where one stands (the word, a variable and `in`), so
 * `max(a, b)`, `normalize mean` and a signal named `sum` keep their meaning. `max`, `min` and
 * `mean` of no element have no value: they end with `else D`, the value then. `where` (any
 * quantifier's filter) is a positional name too, as in edits.
 */
export const aggregateWords = ['sum', 'max', 'min', 'mean'] as const;
export type AggregateWord = (typeof aggregateWords)[number];

/** The aggregations that have no value over no element, and so take `else D`. */
export const defaultedAggregates: readonly AggregateWord[] = ['max', 'min', 'mean'];

/** Hover and completion text of each aggregation (docs/language.md, "Aggregations"). */
export const aggregateDocs: Record<AggregateWord, { readonly doc: string; readonly usage: string; readonly snippet: string }> = {
  sum: {
    doc: '`sum x in COLL: NUM` adds the body over the elements, in order (0 over none); `where BOOL` after the collection keeps only the elements for which it holds.',
    usage: 'sum x in COLL: NUM', snippet: 'sum ${1:s} in ${2:steps}: $0',
  },
  max: {
    doc: '`max x in COLL: NUM else D` is the largest value of the body over the elements; D when there is none (an empty collection, or none passes `where`).',
    usage: 'max x in COLL: NUM else D', snippet: 'max ${1:a} in ${2:gold.answers}: ${3:token_f1(answer, a)} else ${4:0}',
  },
  min: {
    doc: '`min x in COLL: NUM else D` is the smallest value of the body over the elements; D when there is none (an empty collection, or none passes `where`).',
    usage: 'min x in COLL: NUM else D', snippet: 'min ${1:s} in ${2:steps}: ${3:s.step_reward} else ${4:0}',
  },
  mean: {
    doc: '`mean x in COLL: NUM else D` is the mean of the body over the elements (their sum, in order, over their number); D when there is none.',
    usage: 'mean x in COLL: NUM else D', snippet: 'mean ${1:s} in ${2:steps}: ${3:s.step_reward} else ${4:0}',
  },
};

/** `a, b or c`, for messages that list words. */
export function wordList(words: readonly string[]): string {
  return words.length < 2 ? words.join('') : `${words.slice(0, -1).join(', ')} or ${words[words.length - 1]}`;
}
