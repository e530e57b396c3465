import type { Gold, TraceStep } from '../pool/types.js';
import type { EvalEnv } from './eval-env.js';
import type { Turn } from './turns.js';
import type { Type } from './types.js';
import type { TrajectoryView } from './view.js';

// Runtime values, typed by the language's types. Evaluators carry their static type as a tag, so
// whoever combines them (the compiler, a built-in's signature) narrows on the tag once, when
// compiling, instead of casting every value it computes.

/** A set of passage ids: an ordered list (`citations`, keeps repeats) or a set (`retrieved`, `corpus`). */
export type Ids = readonly string[] | ReadonlySet<string>;

/** The runtime value of each type. `error` has none: specs with errors are never compiled. */
export interface ValueOf {
  number: number;
  boolean: boolean;
  id: string;
  ids: Ids;
  text: string;
  texts: readonly string[];
  /** Any logged step (a search, a tool call, reasoning, an invalid action). */
  step: TraceStep;
  steps: readonly TraceStep[];
  /** One model turn: its index, text and steps (language/turns.ts). */
  turn: Turn;
  turns: readonly Turn[];
  /** A tool call's arguments as logged (JSON): `s.args.NAME` reads one (language/steps.ts). */
  args: ToolArgs;
  gold: Gold;
}

export type ValueType = keyof ValueOf;

export type ToolArgs = Readonly<Record<string, unknown>>;

/** Computes a value of a trajectory (original or edited) in an environment. */
export type Eval<T> = (view: TrajectoryView, env: EvalEnv) => T;

/** An evaluator tagged with the type of what it computes. */
export type TypedEval = { [K in ValueType]: { readonly type: K; readonly run: Eval<ValueOf[K]> } }[ValueType];

/** One type's evaluators: tag one (`wrap`), or get it back from a tagged one of that type (`read`). */
export interface Kind<T> {
  readonly type: ValueType;
  wrap(run: Eval<T>): TypedEval;
  read(e: TypedEval): Eval<T> | undefined;
}

export const kinds: { readonly [K in ValueType]: Kind<ValueOf[K]> } = {
  number: { type: 'number', wrap: (run) => ({ type: 'number', run }), read: (e) => (e.type === 'number' ? e.run : undefined) },
  boolean: { type: 'boolean', wrap: (run) => ({ type: 'boolean', run }), read: (e) => (e.type === 'boolean' ? e.run : undefined) },
  id: { type: 'id', wrap: (run) => ({ type: 'id', run }), read: (e) => (e.type === 'id' ? e.run : undefined) },
  ids: { type: 'ids', wrap: (run) => ({ type: 'ids', run }), read: (e) => (e.type === 'ids' ? e.run : undefined) },
  text: { type: 'text', wrap: (run) => ({ type: 'text', run }), read: (e) => (e.type === 'text' ? e.run : undefined) },
  texts: { type: 'texts', wrap: (run) => ({ type: 'texts', run }), read: (e) => (e.type === 'texts' ? e.run : undefined) },
  step: { type: 'step', wrap: (run) => ({ type: 'step', run }), read: (e) => (e.type === 'step' ? e.run : undefined) },
  steps: { type: 'steps', wrap: (run) => ({ type: 'steps', run }), read: (e) => (e.type === 'steps' ? e.run : undefined) },
  turn: { type: 'turn', wrap: (run) => ({ type: 'turn', run }), read: (e) => (e.type === 'turn' ? e.run : undefined) },
  turns: { type: 'turns', wrap: (run) => ({ type: 'turns', run }), read: (e) => (e.type === 'turns' ? e.run : undefined) },
  args: { type: 'args', wrap: (run) => ({ type: 'args', run }), read: (e) => (e.type === 'args' ? e.run : undefined) },
  gold: { type: 'gold', wrap: (run) => ({ type: 'gold', run }), read: (e) => (e.type === 'gold' ? e.run : undefined) },
};

/**
 * What a function's parameter accepts: the types the checker allows (`types`) and how a compiled
 * argument of one of them becomes the value the implementation takes (`read`).
 */
export interface Param<T> {
  readonly name: string;
  readonly types: readonly Type[];
  /** Undefined for an argument of a type outside `types` (the checker has reported it). */
  read(arg: TypedEval): Eval<T> | undefined;
}

/** Booleans count as 0/1 wherever a number is expected (indicators in weighted sums). */
export function asNumber(e: TypedEval): Eval<number> | undefined {
  if (e.type === 'number') return e.run;
  if (e.type !== 'boolean') return undefined;
  const run = e.run;
  return (view, env) => (run(view, env) ? 1 : 0);
}

/** The parameter sorts of the built-in functions. */
export const params = {
  text: (name: string): Param<string> => ({ name, types: ['text'], read: kinds.text.read }),
  ids: (name: string): Param<Ids> => ({ name, types: ['ids'], read: kinds.ids.read }),
  number: (name: string): Param<number> => ({ name, types: ['number'], read: kinds.number.read }),
  /** A number or a 0/1 indicator. */
  numeric: (name: string): Param<number> => ({ name, types: ['number', 'boolean'], read: asNumber }),
  /** Gold answers, or one text taken as the only answer. */
  answers: (name: string): Param<string | readonly string[]> => ({
    name, types: ['texts', 'text'], read: (e) => kinds.texts.read(e) ?? kinds.text.read(e),
  }),
  /** Any collection a quantifier ranges over. */
  collection: (name: string): Param<Ids | readonly TraceStep[] | readonly Turn[]> => ({
    name, types: ['ids', 'texts', 'steps', 'turns'], read: (e) => kinds.ids.read(e) ?? kinds.texts.read(e) ?? kinds.steps.read(e) ?? kinds.turns.read(e),
  }),
  /** A text set. */
  texts: (name: string): Param<readonly string[]> => ({ name, types: ['texts'], read: kinds.texts.read }),
};
