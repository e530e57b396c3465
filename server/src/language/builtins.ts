import type { TrajectoryMeta } from '../pool/types.js';
import type { EvalEnv } from './eval-env.js';
import { EvaluationError } from './eval-error.js';
import * as fns from './functions.js';
import { countedEvaluator } from './citation-tally.js';
import { compilePattern } from './patterns.js';
import * as steps from './steps.js';
import type { TrajectoryPart, Type, Visibility } from './types.js';
import { kinds, params, type Eval, type Kind, type Param, type TypedEval } from './values.js';
import type { TrajectoryView } from './view.js';

// The one registry of built-in fields, record fields and functions. Each entry holds everything
// about its built-in: name, type or signature, visibility, doc and evaluation. The checker reads
// types, arity and visibility from it, the compiler its evaluators, completion and hover its docs.

/** A trajectory field. It has a visibility of its own: only `gold` is oracle. */
export interface BuiltinField {
  readonly name: string;
  readonly type: Type;
  readonly visibility: Visibility;
  readonly doc: string;
  readonly evaluator: TypedEval;
  /** The part of the trajectory it reads (an edit that changes that part may change it). */
  readonly reads: TrajectoryPart;
}

/** A field of a record-typed value (`gold.answers`, `s.query`): as visible as the record. */
export interface BuiltinMember {
  readonly name: string;
  readonly owner: Type;
  readonly type: Type;
  readonly doc: string;
  /** The member's evaluator from its record's; undefined for a record of another type. */
  compile(record: TypedEval): TypedEval | undefined;
}

export interface BuiltinParameter {
  readonly name: string;
  readonly types: readonly Type[];
  /** The argument must be a string literal holding a valid RE2 pattern (language/patterns.ts). */
  readonly pattern?: true;
}

/** A function. It never reads gold on its own: a call is oracle exactly when one of its arguments is. */
export interface BuiltinFunction {
  readonly name: string;
  readonly parameters: readonly BuiltinParameter[];
  /** Parameters from this index on are optional. */
  readonly required: number;
  /** The last parameter repeats (mean, min, max); at least one argument. */
  readonly variadic: boolean;
  readonly result: Type;
  readonly doc: string;
  /** The part of the trajectory the call reads besides its arguments (`calls`, `repeated_queries`: the steps). */
  readonly implicitReads?: TrajectoryPart;
  /**
   * The call's evaluator from its arguments' (and, for a pattern parameter, the literal written
   * there); undefined when they do not fit the signature.
   */
  compile(args: readonly TypedEval[], literals?: readonly (string | undefined)[]): TypedEval | undefined;
  /**
   * For a function whose value counts a test of each id of its first argument: the call's evaluator
   * that, on a view that swaps one citation, counts from the original's tests (language/citation-tally.ts)
   * and otherwise runs `full`. The compiler uses it only with `citations` as the first argument.
   */
  counted?(args: readonly TypedEval[], full: TypedEval): TypedEval | undefined;
}

function field<T>(name: string, reads: TrajectoryPart, kind: Kind<T>, visibility: Visibility, doc: string, evaluate: Eval<T>): BuiltinField {
  return { name, type: kind.type, visibility, doc, evaluator: kind.wrap(evaluate), reads };
}

function member<R, T>(owner: Kind<R>, name: string, kind: Kind<T>, doc: string, evaluate: (record: R) => T): BuiltinMember {
  return {
    name, owner: owner.type, type: kind.type, doc,
    compile(record) {
      const run = owner.read(record);
      return run === undefined ? undefined : kind.wrap((view, env) => evaluate(run(view, env)));
    },
  };
}

// One helper per shape of signature, so each entry's `evaluate` takes its arguments typed and the
// compiler never casts. Every `evaluate` also gets the environment and the trajectory (for
// functions that read the corpus, a cache or, like `repeated_queries`, visible fields implicitly).
type Context = [env: EvalEnv, view: TrajectoryView];

function readArg<A>(p: Param<A>, arg: TypedEval | undefined): Eval<A> | undefined {
  return arg === undefined ? undefined : p.read(arg);
}

function unary<A, R>(name: string, p: [Param<A>], result: Kind<R>, doc: string, evaluate: (a: A, ...at: Context) => R): BuiltinFunction {
  return {
    name, parameters: p, required: 1, variadic: false, result: result.type, doc,
    compile(args) {
      const a = args.length === 1 ? readArg(p[0], args[0]) : undefined;
      return a === undefined ? undefined : result.wrap((view, env) => evaluate(a(view, env), env, view));
    },
  };
}

function binary<A, B, R>(name: string, p: [Param<A>, Param<B>], result: Kind<R>, doc: string, evaluate: (a: A, b: B, ...at: Context) => R): BuiltinFunction {
  return {
    name, parameters: p, required: 2, variadic: false, result: result.type, doc,
    compile(args) {
      const a = args.length === 2 ? readArg(p[0], args[0]) : undefined;
      const b = readArg(p[1], args[1]);
      return a === undefined || b === undefined ? undefined : result.wrap((view, env) => evaluate(a(view, env), b(view, env), env, view));
    },
  };
}

/** One optional parameter: `evaluate` gets undefined when the call leaves it out. */
function optional<A, R>(name: string, p: [Param<A>], result: Kind<R>, doc: string, evaluate: (a: A | undefined, ...at: Context) => R): BuiltinFunction {
  return {
    name, parameters: p, required: 0, variadic: false, result: result.type, doc,
    compile(args) {
      if (args.length === 0) return result.wrap((view, env) => evaluate(undefined, env, view));
      const a = args.length === 1 ? readArg(p[0], args[0]) : undefined;
      return a === undefined ? undefined : result.wrap((view, env) => evaluate(a(view, env), env, view));
    },
  };
}

/** `name(text, "pattern")`: the pattern is compiled once, when the call is; a bad one does not compile. */
function patternTest(name: string, p: [Param<string>], doc: string): BuiltinFunction {
  return {
    name, parameters: [p[0], { name: 'pattern', types: ['text'], pattern: true }], required: 2, variadic: false, result: 'boolean', doc,
    compile(args, literals) {
      const text = args.length === 2 ? readArg(p[0], args[0]) : undefined;
      // The pattern's value is its literal, read when compiling; the argument only has to be a text.
      const source = args[1]?.type === 'text' ? literals?.[1] : undefined;
      const compiled = source === undefined ? undefined : compilePattern(source);
      if (text === undefined || compiled?.ok !== true) return undefined;
      const pattern = compiled.pattern;
      return kinds.boolean.wrap((view, env) => pattern.test(text(view, env)));
    },
  };
}

function variadic<A, R>(name: string, p: Param<A>, result: Kind<R>, doc: string, evaluate: (values: A[], ...at: Context) => R): BuiltinFunction {
  return {
    name, parameters: [p], required: 1, variadic: true, result: result.type, doc,
    compile(args) {
      const runs = args.map((arg) => p.read(arg));
      if (runs.length === 0 || runs.some((run) => run === undefined)) return undefined;
      const ready = runs.filter((run): run is Eval<A> => run !== undefined);
      return result.wrap((view, env) => evaluate(ready.map((run) => run(view, env)), env, view));
    },
  };
}

/** A function that reads the logged steps besides its arguments. */
function readingSteps(f: BuiltinFunction): BuiltinFunction {
  return { ...f, implicitReads: 'steps' };
}

/**
 * `meta.prompt`: the prompt is input, logged before the model wrote anything, so no edit of the
 * trajectory changes it. A row without one reads `""`; one that logs another value is refused, not read as `""`.
 */
function promptOf(meta: TrajectoryMeta): string {
  const prompt = meta['prompt'];
  if (prompt === undefined) return '';
  if (typeof prompt !== 'string') throw new EvaluationError(`the field 'prompt' reads meta.prompt, which is ${Array.isArray(prompt) ? 'a list' : prompt === null ? 'null' : `a ${typeof prompt}`} in this row, not a text`);
  return prompt;
}

/** The trajectory view every expression can read. Only `gold` is oracle. */
export const builtinFields: readonly BuiltinField[] = [
  field('question', 'question', kinds.text, 'visible', 'The question text.', (v) => v.question),
  field('prompt', 'prompt', kinds.text, 'visible',
    'The prompt as the model saw it (`meta.prompt`, kept by the importers; docs/import.md): the same under every edit. `""` when the row has none.',
    (v) => promptOf(v.meta)),
  field('answer', 'answer', kinds.text, 'visible', 'The final answer; `""` when the trajectory has no valid final.', (v) => v.answer),
  field('final_text', 'final_text', kinds.text, 'visible', 'The raw final output, citations included.', (v) => v.finalText),
  field('citations', 'citations', kinds.ids, 'visible', "The final's citation ids in order: C(τ).", (v) => v.citations),
  field('retrieved', 'steps', kinds.ids, 'visible', 'Every passage id a search or a tool call returned to the agent: E(τ).', (v) => v.retrieved),
  field('searches', 'steps', kinds.steps, 'visible', 'The search actions in order; each has `.query` (text) and `.results` (id set).', (v) => v.searches),
  field('steps', 'steps', kinds.steps, 'visible',
    'Every logged step in order: searches, tool calls, reasoning and invalid actions. Each has `.type`, `.tool`, `.args.NAME`, `.query`, `.results`, `.titles`, `.urls`, `.text`, `.step_reward`, `.has_step_reward`.',
    (v) => v.steps),
  field('reasoning', 'steps', kinds.texts, 'visible', 'The texts of the reasoning (think) steps, in order.', (v) => steps.reasoningTexts(v.steps)),
  field('final_status', 'final_status', kinds.text, 'visible', 'Why the trajectory stopped, as logged in `final.status` (`stop`, `length`…); `""` when the log has none.', (v) => v.finalStatus),
  field('corpus', 'corpus', kinds.ids, 'visible', "The ids of the audit's corpus: P.", (_v, env) => env.corpusIds),
  field('has_final', 'has_final', kinds.boolean, 'visible', 'The trajectory ends with a valid final answer.', (v) => v.hasFinal),
  field('search_calls', 'steps', kinds.number, 'visible', 'The number of search actions.', (v) => v.searches.length),
  field('invalid_actions', 'steps', kinds.number, 'visible', 'The number of invalid actions.', (v) => v.invalidActions),
  field('gold', 'gold', kinds.gold, 'oracle', 'Gold labels (oracle): `gold.answers` (text set) and `gold.support` (id set).', (v) => v.gold),
];

export const builtinMembers: readonly BuiltinMember[] = [
  member(kinds.gold, 'answers', kinds.texts, 'The gold answers (oracle).', (g) => g.answers),
  member(kinds.gold, 'support', kinds.ids, 'The gold support passage ids (oracle).', (g) => g.support_ids),
  member(kinds.step, 'type', kinds.text, 'The step\'s type: `"search"`, `"tool"`, `"reasoning"` or `"invalid"`.', (s) => s.type),
  member(kinds.step, 'tool', kinds.text, 'The tool a tool call called (`"visit"`); `"search"` for a search step; `""` for reasoning and invalid steps.', steps.toolOf),
  member(kinds.step, 'args', kinds.args, 'The arguments of a tool call: `s.args.url` is one, as text. Other steps have none.', steps.argsOf),
  member(kinds.step, 'query', kinds.text, 'A search step\'s query; `""` for other steps.', steps.queryOf),
  member(kinds.step, 'results', kinds.ids, 'The passage ids a search step or tool call returned (resolved against the corpus); none for other steps.', steps.resultsOf),
  member(kinds.step, 'titles', kinds.texts, 'The titles logged with the step\'s results, in order; a result logged without one (a bare id) adds none.', steps.titlesOf),
  member(kinds.step, 'urls', kinds.texts, 'The urls logged with the step\'s results, in order; a result logged without one adds none.', steps.urlsOf),
  member(kinds.step, 'text', kinds.text, 'A reasoning step\'s text, an invalid action\'s text, or a tool call\'s output; `""` for a search step and a call without output.', steps.textOf),
  member(kinds.step, 'retrieval', kinds.boolean, 'The step retrieved something: a search, or a tool call that logged results (resolved to corpus ids or not). What `same_final` deletes.', steps.isRetrieval),
  member(kinds.step, 'step_reward', kinds.number, 'The step\'s reward as logged; 0 when the step logs none or `null` (see `has_step_reward`).', steps.rewardOf),
  member(kinds.step, 'has_step_reward', kinds.boolean, 'The step logs a reward (a number, not `null`).', (s) => s.reward !== undefined),
];

/** `s.args.NAME`: any name is an argument; one the call does not have reads as `""`. */
export function argumentMember(name: string): BuiltinMember {
  return member(kinds.args, name, kinds.text,
    'An argument of the tool call, as text: a string as logged, any other JSON value as its compact JSON text (`5`, `true`, `["a","b"]`); `""` when the call has no such argument, logs it as `null`, or the step is not a tool call.',
    (args) => steps.argumentText(args, name));
}

/** The fields of a record type that completion can list (none for the other types, and none for tool arguments: any name is one). */
export function membersOf(owner: Type): readonly BuiltinMember[] {
  return builtinMembers.filter((m) => m.owner === owner);
}

/** The field `name` of a record type, or undefined when it has none. */
export function memberOf(owner: Type, name: string): BuiltinMember | undefined {
  return owner === 'args' ? argumentMember(name) : membersOf(owner).find((m) => m.name === name);
}

const { text, ids, number, numeric, answers, collection } = params;

export const builtinFunctions: readonly BuiltinFunction[] = [
  binary('exact_match', [text('text'), answers('answers')], kinds.number,
    '1 when the normalised text equals one of the normalised answers (SQuAD normalisation), else 0.',
    (t, a, env) => fns.exactMatch(t, a, env.normalizer)),
  binary('token_f1', [text('text'), answers('answers')], kinds.number,
    'The best token-level F1 of the text against any of the answers (normalised tokens).',
    (t, a, env) => fns.tokenF1(t, a, env.normalizer)),
  {
    ...binary('grounding', [ids('ids'), answers('answers')], kinds.number,
      'The share of the cited passages whose text contains one of the answers (normalised); 0 without citations.',
      (cited, a, env) => fns.grounding(cited, a, (id) => env.normalizedPassage(id), env.normalizer)),
    counted(args, full) {
      const a = readArg(answers('answers'), args[1]);
      return a === undefined ? undefined : countedEvaluator(kinds.number, full,
        (view, env) => {
          const wanted = fns.wantedAnswers(a(view, env), env.normalizer);
          const passage = (p: string): string | undefined => env.normalizedPassage(p);
          return (id) => fns.grounds(id, wanted, passage);
        },
        (grounded, view) => fns.groundedShare(grounded, view.citations.length));
    },
  },
  unary('tokens', [text('text')], kinds.number, 'The number of whitespace-separated tokens in the text.', fns.tokens),
  unary('count', [collection('collection')], kinds.number, 'The number of elements of an id set, text set or steps.', fns.count),
  readingSteps(unary('calls', [text('tool')], kinds.number,
    'The number of calls of the tool named `tool` (`count s in steps: s.tool == tool`): `calls("search")` counts the search steps too; `calls("")` is 0.',
    (tool, _env, view) => steps.callCount(view.steps, tool))),
  readingSteps(optional('repeated_queries', [number('threshold')], kinds.number,
    'The number of searches whose query repeats an earlier one: token Jaccard similarity at or above the threshold (default 1: identical after normalisation).',
    (threshold, env, view) => env.repeatedQueries(view.searches, threshold ?? 1))),
  binary('recall', [ids('found'), ids('wanted')], kinds.number,
    'The share of `wanted` ids that appear in `found`; 0 when `wanted` is empty.', fns.recall),
  binary('precision', [ids('found'), ids('wanted')], kinds.number,
    'The share of `found` ids that appear in `wanted`; 0 when `found` is empty.', fns.precision),
  {
    ...binary('misses', [ids('found'), ids('wanted')], kinds.boolean,
      '`wanted` is nonempty and shares no id with `found` (e.g. citations that miss every gold support passage).', fns.misses),
    counted(args, full) {
      const wanted = readArg(ids('wanted'), args[1]);
      return wanted === undefined ? undefined : countedEvaluator(kinds.boolean, full,
        (view, env) => {
          const ids = wanted(view, env);
          return (id) => fns.isIn(id, ids);
        },
        (found, view, env) => fns.missesFrom(wanted(view, env), found));
    },
  },
  variadic('mean', numeric('value'), kinds.number, 'The mean of numbers or 0/1 indicators (a violation rate).', fns.mean),
  variadic('min', numeric('value'), kinds.number, 'The smallest of the values.', (values) => values.reduce((m, x) => Math.min(m, x), Infinity)),
  variadic('max', numeric('value'), kinds.number, 'The largest of the values.', (values) => values.reduce((m, x) => Math.max(m, x), -Infinity)),
  binary('contains', [text('text'), text('part')], kinds.boolean,
    '`part` is a substring of `text` once both are normalised (SQuAD normalisation; Search-R1\'s sub-EM with a gold answer as `part`): not whole words, so "no" is in "snow"; false when `part` has no words after normalisation.',
    (t, part, env) => {
      const wanted = env.normalizer.normalize(part);
      return wanted.length > 0 && env.normalizer.normalize(t).includes(wanted);
    }),
  binary('starts_with', [text('text'), text('prefix')], kinds.boolean,
    'The text begins with `prefix`, exactly as written: not normalised (unlike `contains`), case and spaces count; true for the prefix `""`. Python\'s `text.startswith(prefix)`.',
    (t, prefix) => t.startsWith(prefix)),
  variadic('concat', text('text'), kinds.text,
    'The texts joined as written, with nothing between them: `concat(answer, " ", question)`. For edits that set a text field.',
    fns.concat),
  patternTest('matches', [text('text')],
    'The RE2 pattern (a string literal) matches somewhere in the text, as written (not normalised): `matches(final_text, "^<think>(?s:.*)</think>")`. Anchor with `^`/`$`; `(?i)` ignores case. Linear-time (re2js): no pattern can hang an analysis.'),
];

export const builtinFieldsByName = new Map(builtinFields.map((f) => [f.name, f]));
export const builtinFunctionsByName = new Map(builtinFunctions.map((f) => [f.name, f]));

/** `token_f1(text: text, answers: texts | text) → number`: the signature completion and hover show. */
export function functionSignature(f: BuiltinFunction): string {
  const shown = f.parameters.map((p, i) => `${p.name}${i >= f.required ? '?' : ''}: ${p.types.join(' | ')}`);
  return `${f.name}(${shown.join(', ')}${f.variadic ? ', …' : ''}) → ${f.result}`;
}

/**
 * The built-in that `name` already names in expressions, for a declaration that would hide it
 * (`signal answer = 1`): the field or function, or undefined when none does. Keywords cannot be
 * declared at all (the parser takes only names).
 */
export function builtinNamed(name: string): { readonly what: 'field' | 'function'; readonly doc: string } | undefined {
  const field = builtinFieldsByName.get(name);
  if (field !== undefined) return { what: 'field', doc: field.doc };
  const fn = builtinFunctionsByName.get(name);
  return fn === undefined ? undefined : { what: 'function', doc: fn.doc };
}
