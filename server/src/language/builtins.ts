import type { TrajectoryMeta } from '../pool/types.js';
import type { EvalEnv } from './eval-env.js';
import { EvaluationError } from './eval-error.js';
import * as fns from './functions.js';
import { countedEvaluator } from './citation-tally.js';
import { isNormalization, type Normalizer } from './normalizer.js';
import { compilePattern, type Pattern } from './patterns.js';
import * as steps from './steps.js';
import { elementTypes, type TrajectoryPart, type Type, type Visibility } from './types.js';
import { kinds, params, type Eval, type Kind, type Param, type TypedEval } from './values.js';
import { noTurn, turnsOf } from './turns.js';
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

/**
 * What an argument written as a literal must hold, checked before any row is read
 * (semantics/literal-arguments.ts): a valid RE2 pattern (language/patterns.ts), a capture group
 * number of the call's pattern, the decimal places of `round`, a normalisation's name.
 */
export type LiteralRule = 'pattern' | 'group' | 'digits' | 'normalization';

export interface BuiltinParameter {
  readonly name: string;
  readonly types: readonly Type[];
  /** The argument must be a literal that obeys this rule; the compiler reads its value. */
  readonly literal?: LiteralRule;
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
  /** The result's type from the arguments' where it varies with them (`first(C)` is an element of C); `result` otherwise. */
  readonly resultOf?: (args: readonly Type[]) => Type;
  readonly doc: string;
  /** The part of the trajectory the call reads besides its arguments (`calls`, `repeated_queries`: the steps). */
  readonly implicitReads?: TrajectoryPart;
  /**
   * The call's evaluator from its arguments' (and, for a parameter with a literal rule, the literal
   * written there: a string, or a number with its sign); undefined when they do not fit the signature.
   */
  compile(args: readonly TypedEval[], literals?: readonly Literal[]): TypedEval | undefined;
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

/** A literal argument's value: a string literal's, or a number literal's with its sign (`-2`). */
export type Literal = string | number | undefined;

const patternParameter: BuiltinParameter = { name: 'pattern', types: ['text'], literal: 'pattern' };
const groupParameter: BuiltinParameter = { name: 'group', types: ['number'], literal: 'group' };
const normalizationParameter: BuiltinParameter = { name: 'normalization', types: ['text'], literal: 'normalization' };

/** The pattern written at `at`, compiled once, when the call is; undefined for a bad one. */
function patternAt(args: readonly TypedEval[], literals: readonly Literal[] | undefined, at: number): Pattern | undefined {
  // The pattern's value is its literal, read when compiling; the argument only has to be a text.
  const source = args[at]?.type === 'text' ? literals?.[at] : undefined;
  const compiled = typeof source === 'string' ? compilePattern(source) : undefined;
  return compiled?.ok === true ? compiled.pattern : undefined;
}

/** The literal at `at` when it is a whole number from 0 to `max`. */
function wholeNumberAt(args: readonly TypedEval[], literals: readonly Literal[] | undefined, at: number, max: number): number | undefined {
  const value = args[at]?.type === 'number' ? literals?.[at] : undefined;
  return typeof value === 'number' && Number.isInteger(value) && value >= 0 && value <= max ? value : undefined;
}

/** `name(text, "pattern")`: the pattern is compiled once, when the call is; a bad one does not compile. */
function overPattern<R>(name: string, result: Kind<R>, doc: string, run: (pattern: Pattern, text: string) => R): BuiltinFunction {
  return {
    name, parameters: [params.text('text'), patternParameter], required: 2, variadic: false, result: result.type, doc,
    compile(args, literals) {
      const text = args.length === 2 ? readArg(params.text('text'), args[0]) : undefined;
      const pattern = patternAt(args, literals, 1);
      if (text === undefined || pattern === undefined) return undefined;
      return result.wrap((view, env) => run(pattern, text(view, env)));
    },
  };
}

/** `name(text, "pattern", group?)`: the group a literal whole number of the pattern's groups, 0 (the whole match) when left out. */
function extraction<R>(name: string, result: Kind<R>, doc: string, run: (pattern: Pattern, text: string, group: number) => R): BuiltinFunction {
  return {
    name, parameters: [params.text('text'), patternParameter, groupParameter], required: 2, variadic: false, result: result.type, doc,
    compile(args, literals) {
      const text = args.length === 2 || args.length === 3 ? readArg(params.text('text'), args[0]) : undefined;
      const pattern = patternAt(args, literals, 1);
      const group = pattern === undefined ? undefined : args.length === 2 ? 0 : wholeNumberAt(args, literals, 2, pattern.groups);
      if (text === undefined || pattern === undefined || group === undefined) return undefined;
      return result.wrap((view, env) => run(pattern, text(view, env), group));
    },
  };
}

/** `name(text, answers, normalization?)`: an answer metric under a named normalisation, SQuAD's when left out. */
function metric<B, R>(name: string, p: [Param<string>, Param<B>], result: Kind<R>, doc: string, evaluate: (a: string, b: B, normalizer: Normalizer) => R): BuiltinFunction {
  return {
    name, parameters: [...p, normalizationParameter], required: 2, variadic: false, result: result.type, doc,
    compile(args, literals) {
      const a = args.length === 2 || args.length === 3 ? readArg(p[0], args[0]) : undefined;
      const b = readArg(p[1], args[1]);
      const named = args.length === 2 ? 'squad' : args[2]?.type === 'text' ? literals?.[2] : undefined;
      if (a === undefined || b === undefined || typeof named !== 'string' || !isNormalization(named)) return undefined;
      return result.wrap((view, env) => evaluate(a(view, env), b(view, env), env.normalizerFor(named)));
    },
  };
}

/** `round(value, digits?)`: the digits a literal whole number (either sign), 0 when left out. */
function rounding(name: string, doc: string): BuiltinFunction {
  const value = params.numeric('value');
  return {
    name, parameters: [value, { name: 'digits', types: ['number'], literal: 'digits' }], required: 1, variadic: false, result: 'number', doc,
    compile(args, literals) {
      const x = args.length === 1 || args.length === 2 ? readArg(value, args[0]) : undefined;
      const digits = args.length === 1 ? 0 : args[1]?.type === 'number' ? literals?.[1] : undefined;
      if (x === undefined || typeof digits !== 'number' || !Number.isInteger(digits)) return undefined;
      return kinds.number.wrap((view, env) => fns.pythonRound(x(view, env), digits));
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

/** The element at one end of an ordered collection (a set in its order), or undefined when it is empty. */
function endOf<T>(items: Iterable<T>, end: 'first' | 'last'): T | undefined {
  if (Array.isArray(items)) return end === 'first' ? items[0] : items[items.length - 1];
  let found: T | undefined;
  for (const x of items) {
    found = x;
    if (end === 'first') break;
  }
  return found;
}

/** `first(C)`, `last(C)`: an element of C, typed as C's elements; an empty C gives the empty one (`""`, the step that is none). */
function endElement(name: 'first' | 'last', doc: string): BuiltinFunction {
  return {
    name, parameters: [{ name: 'collection', types: ['ids', 'texts', 'steps', 'turns'] }], required: 1, variadic: false, result: 'error', doc,
    resultOf: ([collection]) => (collection === undefined ? 'error' : elementTypes[collection] ?? 'error'),
    compile(args) {
      const arg = args.length === 1 ? args[0] : undefined;
      switch (arg?.type) {
        case 'ids': {
          const run = arg.run;
          return kinds.id.wrap((view, env) => endOf(run(view, env), name) ?? '');
        }
        case 'texts': {
          const run = arg.run;
          return kinds.text.wrap((view, env) => endOf(run(view, env), name) ?? '');
        }
        case 'steps': {
          const run = arg.run;
          return kinds.step.wrap((view, env) => endOf(run(view, env), name) ?? steps.noStep);
        }
        case 'turns': {
          const run = arg.run;
          return kinds.turn.wrap((view, env) => endOf(run(view, env), name) ?? noTurn);
        }
        default:
          return undefined;
      }
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
  field('turns', 'steps', kinds.turns, 'visible',
    'The model\'s turns (assistant messages) in order, each with `.index` (number), `.text` (its text as logged) and `.steps` (the steps read from it). Recomputed from the steps: an edit that deletes a step takes it out of its turn. None for a row that logs no turns.',
    (v) => turnsOf(v.steps, v.turnTexts ?? [])),
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
  member(kinds.step, 'type', kinds.text, 'The step\'s type: `"search"`, `"tool"`, `"reasoning"` or `"invalid"`; `""` for the step `first` and `last` give when there is none.', steps.typeOf),
  member(kinds.step, 'tool', kinds.text, 'The tool a tool call called (`"visit"`); `"search"` for a search step; `""` for reasoning and invalid steps.', steps.toolOf),
  member(kinds.step, 'args', kinds.args, 'The arguments of a tool call: `s.args.url` is one, as text. Other steps have none.', steps.argsOf),
  member(kinds.step, 'query', kinds.text, 'A search step\'s query; `""` for other steps.', steps.queryOf),
  member(kinds.step, 'results', kinds.ids, 'The passage ids a search step or tool call returned (resolved against the corpus); none for other steps.', steps.resultsOf),
  member(kinds.step, 'titles', kinds.texts, 'The titles logged with the step\'s results, in order; a result logged without one (a bare id) adds none.', steps.titlesOf),
  member(kinds.step, 'urls', kinds.texts, 'The urls logged with the step\'s results, in order; a result logged without one adds none.', steps.urlsOf),
  member(kinds.step, 'text', kinds.text, 'A reasoning step\'s text, an invalid action\'s text, or a tool call\'s output; `""` for a search step and a call without output.', steps.textOf),
  member(kinds.step, 'retrieval', kinds.boolean, 'The step retrieved something: a search, or a tool call that logged results (resolved to corpus ids or not). What `same_final` deletes.', steps.isRetrieval),
  member(kinds.step, 'step_reward', kinds.number, 'The step\'s reward as logged; 0 when the step logs none or `null` (see `has_step_reward`).', steps.rewardOf),
  member(kinds.turn, 'index', kinds.number, 'The turn\'s 0-based index in the trajectory, as logged (-1 for the turn `first` and `last` give when there is none).', (t) => t.index),
  member(kinds.turn, 'text', kinds.text, 'The model\'s text of the turn, as logged (the assistant message\'s content; for a tagged transcript, the text between two observations, trimmed). `""` when the row logs none for it.', (t) => t.text),
  member(kinds.turn, 'steps', kinds.steps, 'The steps read from the turn, in order (after an edit: those of its steps the edit kept, and their copies).', (t) => t.steps),
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

const { text, texts, ids, number, numeric, answers, collection } = params;

export const builtinFunctions: readonly BuiltinFunction[] = [
  metric('exact_match', [text('text'), answers('answers')], kinds.number,
    '1 when the normalised text equals one of the normalised answers (a text set, or one text), else 0. Normalisation: `"squad"` (the default), `"spaced"` or `"squad_spaced"`.',
    fns.exactMatch),
  metric('token_f1', [text('text'), answers('answers')], kinds.number,
    'The best token-level F1 of the text against any of the answers (a text set, or one text): SQuAD\'s, over the normalised words with repeats counted. Normalisation: `"squad"` (the default), `"spaced"` or `"squad_spaced"`.',
    fns.tokenF1),
  metric('token_set_f1', [text('text'), answers('answers')], kinds.number,
    'The best F1 over the SETS of normalised words (repeats count once), against any of the answers; 0 when the text or the answer has no word. DeepResearcher\'s and ASearcher\'s: `token_set_f1(answer, gold.answers, "spaced")`.',
    fns.tokenSetF1),
  metric('cover_match', [text('text'), answers('answers')], kinds.number,
    'Cover-EM: 1 when every normalised word of one of the answers is a word of the normalised text (any order, anything else around), else 0. ASearcher\'s and R1-Searcher\'s `cover_exact_match`.',
    fns.coverMatch),
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
  metric('contains', [text('text'), text('part')], kinds.boolean,
    '`part` is a substring of `text` once both are normalised (SQuAD normalisation unless named; Search-R1\'s sub-EM with a gold answer as `part`): not whole words, so "no" is in "snow"; false when `part` has no words after normalisation.',
    (t, part, normalizer) => {
      const wanted = normalizer.normalize(part);
      return wanted.length > 0 && normalizer.normalize(t).includes(wanted);
    }),
  binary('starts_with', [text('text'), text('prefix')], kinds.boolean,
    'The text begins with `prefix`, exactly as written: not normalised (unlike `contains`), case and spaces count; true for the prefix `""`. Python\'s `text.startswith(prefix)`.',
    (t, prefix) => t.startsWith(prefix)),
  variadic('concat', text('text'), kinds.text,
    'The texts joined as written, with nothing between them: `concat(answer, " ", question)`. For edits that set a text field.',
    fns.concat),
  binary('join', [texts('texts'), text('separator')], kinds.text,
    'The texts in order with `separator` between them (Python\'s `separator.join(texts)`); `""` for no text. AutoRefine\'s refinements: `join(all_matches(response, "(?s)<refine>(.*?)</refine>", 1), " ")`.',
    (parts, separator) => parts.join(separator)),
  endElement('first', 'The first element of an id set, text set or steps, in its order: `first(gold.answers)`. An empty collection gives `""` (an id or a text) or a step that reads as nothing (`s.type == ""`).'),
  endElement('last', 'The last element of an id set, text set or steps, in its order: `last(steps)`. An empty collection gives `""` (an id or a text) or a step that reads as nothing (`s.type == ""`).'),
  overPattern('matches', kinds.boolean,
    'The RE2 pattern (a string literal) matches somewhere in the text, as written (not normalised): `matches(final_text, "^<think>(?s:.*)</think>")`. Anchor with `^`/`$`; `(?i)` ignores case. Linear-time (re2js): no pattern can hang an analysis.',
    (pattern, t) => pattern.test(t)),
  extraction('first_match', kinds.text,
    'The first (leftmost) match of the RE2 pattern in the text, or its capture group `group` (0, the whole match, when left out): Python\'s `re.search(pattern, text).group(group)`. `""` when nothing matches (test with `matches`) or the group takes no part in the match. `first_match(response, "(?s)<answer>(.*?)</answer>", 1)`.',
    (pattern, t, group) => pattern.first(t, group, 'first_match')),
  extraction('last_match', kinds.text,
    'The last of the successive non-overlapping matches of the RE2 pattern (Python\'s `re.finditer`), or its capture group `group`; `""` when nothing matches. Search-R1\'s answer: `last_match(concat(prompt, response), "(?s)<answer>(.*?)</answer>", 1)`.',
    (pattern, t, group) => pattern.last(t, group, 'last_match')),
  extraction('all_matches', kinds.texts,
    'The successive non-overlapping matches of the RE2 pattern, in order with repeats, or each one\'s capture group `group` (0, the whole match, when left out; Python\'s `re.findall` gives group 1 when the pattern has one group: write it). None when nothing matches.',
    (pattern, t, group) => pattern.all(t, group, 'all_matches')),
  overPattern('count_matches', kinds.number,
    'The number of successive non-overlapping matches of the RE2 pattern in the text: Python\'s `len(re.findall(pattern, text))`. `count_matches(concat(prompt, response), "(?s)<answer>.*?</answer>") >= 2`.',
    (pattern, t) => pattern.count(t, 'count_matches')),
  binary('count_of', [text('text'), text('part')], kinds.number,
    'The number of non-overlapping occurrences of `part` in the text, as written (not normalised), searched left to right: Python\'s `text.count(part)` (`count_of("aaaa", "aa")` is 2; the empty part occurs once more than the text has characters). Tag balance: `count_of(response, "<think>") == count_of(response, "</think>")`.',
    (t, part) => fns.countOf(t, part)),
  rounding('round',
    'The value rounded to `digits` decimal places (a literal whole number, negative for tens, hundreds…; 0 when left out) exactly as Python\'s `round(x, digits)` on a double: the exact binary value rounded, a tie to the even digit, so `round(2.675, 2)` is 2.67 and `round(0.125, 2)` is 0.12. R-Search: `round(token_f1(answer, gold.answers), 2)`.'),
];

export const builtinFieldsByName = new Map(builtinFields.map((f) => [f.name, f]));
export const builtinFunctionsByName = new Map(builtinFunctions.map((f) => [f.name, f]));

/** `token_f1(text: text, answers: texts | text) → number`: the signature completion and hover show. */
export function functionSignature(f: BuiltinFunction): string {
  const shown = f.parameters.map((p, i) => `${p.name}${i >= f.required ? '?' : ''}: ${p.types.join(' | ')}`);
  return `${f.name}(${shown.join(', ')}${f.variadic ? ', …' : ''}) → ${f.resultOf === undefined ? f.result : 'its element'}`;
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
