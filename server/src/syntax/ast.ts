// The typed AST of a .reward spec. Nodes are plain data with a `kind` and a `span` (character
// offsets into the text, end exclusive); positions are computed from spans in one place
// (problems/line-index.ts). Parts a recovering parser could not read are left undefined.

import type { Span } from '../problems/span.js';
import type { AggregateWord, QuantifierWord, SettingWord } from '../problems/vocabulary.js';

export interface Name {
  readonly text: string;
  readonly span: Span;
}

export interface StringLit {
  readonly kind: 'string';
  readonly value: string;
  /** The text between the quotes as written, escapes and all (a pattern's checker maps offsets through it). */
  readonly raw: string;
  readonly span: Span;
}

export interface NumberLit {
  readonly kind: 'number';
  readonly value: number;
  readonly span: Span;
}

export interface BoolLit {
  readonly kind: 'bool';
  readonly value: boolean;
  readonly span: Span;
}

export interface NameRef {
  readonly kind: 'name';
  readonly name: Name;
  readonly span: Span;
}

export interface MemberExpr {
  readonly kind: 'member';
  readonly object: Expr;
  readonly property: Name | undefined;
  readonly span: Span;
}

export interface CallExpr {
  readonly kind: 'call';
  readonly callee: Name;
  readonly args: readonly Expr[];
  readonly span: Span;
}

export type UnaryOp = '-' | 'not';
export interface UnaryExpr {
  readonly kind: 'unary';
  readonly op: UnaryOp;
  readonly operand: Expr | undefined;
  readonly span: Span;
}

export type ArithmeticOp = '+' | '-' | '*' | '/';
export type ComparisonOp = '==' | '!=' | '<' | '<=' | '>' | '>=';
export type LogicalOp = 'and' | 'or';
export type MembershipOp = 'in' | 'not in';
export type BinaryOp = ArithmeticOp | ComparisonOp | LogicalOp | MembershipOp;

export interface BinaryExpr {
  readonly kind: 'binary';
  readonly op: BinaryOp;
  readonly left: Expr;
  readonly right: Expr | undefined;
  readonly span: Span;
}

/** The quantifier keywords and the aggregation names (problems/vocabulary.ts). */
export type Quantifier = QuantifierWord | AggregateWord;
/**
 * `any x in COLL where FILTER: BODY`, `sum x in COLL: BODY`, `max x in COLL: BODY else FALLBACK`:
 * the body (and the filter) are read once per element with the variable bound to it.
 */
export interface QuantifierExpr {
  readonly kind: 'quantifier';
  readonly quantifier: Quantifier;
  readonly variable: Name | undefined;
  readonly collection: Expr | undefined;
  /** `where FILTER`: only the elements for which it holds count. */
  readonly filter?: Expr | undefined;
  readonly body: Expr | undefined;
  /** `else FALLBACK` of `max`, `min` and `mean`: the value when no element is left. */
  readonly fallback?: Expr | undefined;
  readonly span: Span;
}

/** `if condition then whenTrue else whenFalse`: only the branch chosen is evaluated. */
export interface ConditionalExpr {
  readonly kind: 'if';
  readonly condition: Expr | undefined;
  readonly whenTrue: Expr | undefined;
  readonly whenFalse: Expr | undefined;
  readonly span: Span;
}

export type Expr = NumberLit | StringLit | BoolLit | NameRef | MemberExpr | CallExpr | UnaryExpr | BinaryExpr | QuantifierExpr | ConditionalExpr;

export interface CorpusDecl {
  readonly kind: 'corpus';
  readonly name: Name | undefined;
  readonly path: StringLit | undefined;
  readonly span: Span;
}

export interface PoolDecl {
  readonly kind: 'pool';
  readonly name: Name | undefined;
  /** A file, or a glob (`*`, `?`, `**`, `{a,b}`) of files read in sorted order. */
  readonly path: StringLit | undefined;
  /** `from FORMAT(key: value, …)`: the pool is a foreign log, imported on load. */
  readonly source?: ImportClause;
  readonly span: Span;
}

/** `from verl(dialect: search_r1)` after a pool's path: which importer reads the files, with its options. */
export interface ImportClause {
  readonly kind: 'import';
  /** The word `from` (a name, not a reserved word: only its place makes it the clause). */
  readonly from: Name;
  readonly format: Name | undefined;
  readonly options: readonly ImportOption[];
  readonly span: Span;
}

export interface ImportOption {
  readonly name: Name;
  /** A name (`search_r1`, `true`), a string or a number, as written. */
  readonly value: Name | StringLit | NumberLit | undefined;
  readonly span: Span;
}

/**
 * `[oracle] field NAME "doc" : TYPE = meta.PATH`: a value logged with each row, read by path; or
 * `= command "PROGRAM"`: a value a program of the user's computes for every trajectory, original or
 * edited (docs/reward-commands.md).
 */
export interface FieldDecl {
  /** Not 'field': that names the built-in fields' symbols (semantics/symbols.ts). */
  readonly kind: 'logged';
  readonly name: Name | undefined;
  readonly doc: StringLit | undefined;
  /** The word before `field`: `oracle` declares the field oracle (any other word is an error). */
  readonly modifier: Name | undefined;
  readonly fieldType: Name | undefined;
  /** `meta`, `judge`, `score` in `meta.judge.score`; empty for a command field. */
  readonly path: readonly Name[];
  /** `command "PROGRAM"` in place of the path: the program that computes the value. */
  readonly command?: CommandSource;
  /** `depends on answer, citations`; undefined when unsaid (the value may depend on the whole trajectory). */
  readonly dependsOn: DependsClause | undefined;
  readonly span: Span;
}

/** `command "PROGRAM"`: `word` is the word written before the program (checked to be `command`). */
export interface CommandSource {
  readonly word: Name;
  readonly program: StringLit;
  readonly span: Span;
}

/** `depends on PART, …` after a logged field's path. */
export interface DependsClause {
  readonly depends: Name;
  /** The word after `depends` (the checker requires `on`). */
  readonly on: Name | undefined;
  readonly parts: readonly Name[];
  readonly span: Span;
}

export interface SignalDecl {
  readonly kind: 'signal';
  readonly name: Name | undefined;
  readonly doc: StringLit | undefined;
  readonly body: Expr | undefined;
  readonly span: Span;
}

export interface DetectorDecl {
  readonly kind: 'detector';
  readonly name: Name | undefined;
  readonly doc: StringLit | undefined;
  readonly body: Expr | undefined;
  readonly span: Span;
}

/** `answer 1.0 * token_f1(...)` in a reward block, or `- 1.2 * L` in a derived reward. */
export interface Term {
  readonly kind: 'term';
  readonly name: Name;
  /** The signed weight; undefined when the parser recovered without one. */
  readonly weight: number | undefined;
  /** Where the weight is written, sign included (for quick fixes and sign checks). */
  readonly weightSpan: Span | undefined;
  readonly body: Expr | undefined;
  /** True for the `± W * X` terms of a derived reward, whose name is taken from X. */
  readonly derived: boolean;
  readonly span: Span;
}

export interface RewardDecl {
  readonly kind: 'reward';
  readonly name: Name | undefined;
  readonly doc: StringLit | undefined;
  /** The reward a derived reward starts from (`R0` in `reward R_L = R0 - 1.2 * L`). */
  readonly base: Name | undefined;
  readonly terms: readonly Term[];
  /** `reward trained = command "PROGRAM"`: the reward is what the program computes (no base, no terms). */
  readonly command?: CommandSource;
  readonly span: Span;
}

export interface AuditRewardItem {
  readonly kind: 'audit-reward';
  readonly reward: Name | undefined;
  readonly span: Span;
}

export interface AuditCompareItem {
  readonly kind: 'audit-compare';
  readonly rewards: readonly Name[];
  readonly span: Span;
}

export interface AuditCorpusItem {
  readonly kind: 'audit-corpus';
  readonly corpus: Name | undefined;
  readonly span: Span;
}

export interface AuditPoolsItem {
  readonly kind: 'audit-pools';
  readonly pools: readonly Name[];
  readonly span: Span;
}

export interface BudgetGenerator {
  readonly kind: 'generator';
  readonly generator: Name;
  readonly budget: NumberLit | undefined;
  readonly span: Span;
}

export interface CandidatesFileGenerator {
  readonly kind: 'candidates-file';
  readonly path: StringLit | undefined;
  readonly span: Span;
}

/** `candidates command "node gen.js"`: `word` is the word written after `candidates` (checked to be `command`). */
export interface CandidatesCommandGenerator {
  readonly kind: 'candidates-command';
  readonly word: Name;
  readonly command: StringLit | undefined;
  readonly span: Span;
}

export type Generator = BudgetGenerator | CandidatesFileGenerator | CandidatesCommandGenerator;

export interface AttackItem {
  readonly kind: 'attack';
  /** The attack's name; equals `attackKind` when written as `attack launder targets L`. */
  readonly name: Name | undefined;
  readonly attackKind: Name | undefined;
  readonly targets: readonly Name[];
  readonly generators: readonly Generator[];
  readonly span: Span;
}

export interface LatticeEntry {
  readonly detector: Name;
  readonly lambda: NumberLit | undefined;
  readonly span: Span;
}

export interface LatticeItem {
  readonly kind: 'lattice';
  readonly entries: readonly LatticeEntry[];
  readonly span: Span;
}

export interface ExpectMetricItem {
  readonly kind: 'expect-metric';
  readonly metric: Name;
  readonly args: readonly Name[];
  readonly op: ComparisonOp | undefined;
  readonly value: NumberLit | undefined;
  readonly percent: boolean;
  readonly span: Span;
}

export interface ExpectMinimalItem {
  readonly kind: 'expect-minimal';
  readonly metric: Name;
  readonly detectors: readonly Name[];
  readonly span: Span;
}

/** `conforms A to B within TOL`: A reproduces B on every original row, to TOL. */
export interface ConformsItem {
  readonly kind: 'conforms';
  readonly keyword: Span;
  readonly subject: Name | undefined;
  /** The word between the names (the checker requires `to`). */
  readonly to: Name | undefined;
  readonly reference: Name | undefined;
  /** The word before the tolerance (the checker requires `within`). */
  readonly within: Name | undefined;
  readonly tolerance: NumberLit | undefined;
  readonly span: Span;
}

/** The audit settings' keywords (problems/vocabulary.ts). */
export type SettingKey = SettingWord;
export interface SettingItem {
  readonly kind: 'setting';
  readonly key: SettingKey;
  readonly keySpan: Span;
  readonly values: readonly NumberLit[];
  readonly span: Span;
}

export type AuditItem =
  | AuditRewardItem
  | AuditCompareItem
  | AuditCorpusItem
  | AuditPoolsItem
  | AttackItem
  | LatticeItem
  | ExpectMetricItem
  | ExpectMinimalItem
  | ConformsItem
  | SettingItem;

export interface AuditDecl {
  readonly kind: 'audit';
  readonly name: Name | undefined;
  readonly doc: StringLit | undefined;
  readonly items: readonly AuditItem[];
  /** `select first`, `robustness stored, first`, `clusters common`: the audit's block options. */
  readonly options: readonly OptionItem[];
  readonly span: Span;
}

/** One value of an option: a name, or a number (a trailing `%` kept as a flag). */
export type OptionValue =
  | { readonly kind: 'name'; readonly name: Name; readonly argument?: Name; readonly span: Span }
  | { readonly kind: 'number'; readonly value: number; readonly percent: boolean; readonly span: Span };

/** `min_groups 5`, `normalize std`, `base eval_R0` in a training or comparison block. */
export interface OptionItem {
  readonly kind: 'option';
  readonly key: Name;
  readonly values: readonly OptionValue[];
  readonly span: Span;
}

/** What a training or comparison block holds: the audit's items (as far as the checker allows) and options. */
export type BlockItem = AuditItem | OptionItem;

/** `training NAME "doc" { … }`: does a reward's detector reach a group-normalised optimizer? */
export interface TrainingDecl {
  readonly kind: 'training';
  readonly name: Name | undefined;
  readonly doc: StringLit | undefined;
  readonly items: readonly BlockItem[];
  readonly span: Span;
}

/** `comparison NAME "doc" { … }`: two trained policies evaluated on the same questions and seeds. */
export interface ComparisonDecl {
  readonly kind: 'comparison';
  readonly name: Name | undefined;
  readonly doc: StringLit | undefined;
  readonly items: readonly BlockItem[];
  readonly span: Span;
}

/** `all x in COLL where P` / `each x in COLL where P`: the elements an edit operation takes, and how many variants. */
export interface EditBinder {
  /** `all` (one variant, every element) or `each` (one variant per element); checked by the checker. */
  readonly mode: Name | undefined;
  readonly variable: Name | undefined;
  readonly collection: Expr | undefined;
  readonly condition: Expr | undefined;
  readonly span: Span;
}

/** What `replace … with` puts in: a built-in source word (`generated`, `fake_id`, `other_ranks`) or `x in IDS where P`. */
export type EditSource =
  | { readonly kind: 'source-word'; readonly word: Name; readonly span: Span }
  | { readonly kind: 'source-each'; readonly variable: Name; readonly collection: Expr | undefined; readonly condition: Expr | undefined; readonly span: Span };

/** One operation of an edit: `set FIELD = EXPR`, or `VERB BINDER [with SOURCE] [to FIELD]`. */
export interface EditOp {
  readonly kind: 'edit-op';
  readonly verb: Name;
  readonly field: Name | undefined;
  readonly value: Expr | undefined;
  readonly binder: EditBinder | undefined;
  readonly source: EditSource | undefined;
  readonly destination: Name | undefined;
  readonly span: Span;
}

/** `edit NAME "doc" when GUARD = OP, OP…`: an exact edit of a trajectory, the kind of an attack. */
export interface EditDecl {
  readonly kind: 'edit';
  readonly name: Name | undefined;
  readonly doc: StringLit | undefined;
  readonly guard: Expr | undefined;
  readonly ops: readonly EditOp[];
  readonly span: Span;
}

export type Decl = CorpusDecl | PoolDecl | FieldDecl | EditDecl | SignalDecl | DetectorDecl | RewardDecl | AuditDecl | TrainingDecl | ComparisonDecl;

export interface Comment {
  readonly text: string;
  readonly span: Span;
}

export interface Spec {
  readonly kind: 'spec';
  readonly decls: readonly Decl[];
  readonly comments: readonly Comment[];
  readonly span: Span;
}
