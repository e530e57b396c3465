import type { SearchStep } from '../pool/types.js';
import type { DetectorDecl, Expr, RewardDecl, SignalDecl, Term } from '../syntax/ast.js';
import type { SpecModel } from '../semantics/check.js';
import type { Visibility } from '../semantics/types.js';
import * as fns from './functions.js';
import type { EvalEnv, TrajectoryView } from './view.js';

/** A runtime value: the type checker guarantees each expression yields the type it declared. */
export type Value = number | boolean | string | readonly string[] | ReadonlySet<string> | readonly SearchStep[] | SearchStep | TrajectoryView['gold'];

export type Evaluator = (view: TrajectoryView, env: EvalEnv, locals: Value[]) => Value;

/** A number-valued function of a trajectory; booleans count as 0/1. */
export type Feature = (view: TrajectoryView, env: EvalEnv) => number;

export interface CompiledTerm {
  /** Identifies what the term computes, so rewards that share a term share its values. */
  readonly key: string;
  readonly name: string;
  readonly weight: number;
  readonly feature: Feature;
  readonly visibility: Visibility;
  /** The reward whose declaration writes this term (R0 for R_L's inherited terms). */
  readonly declaredIn: string;
  readonly term: Term;
}

export interface CompiledReward {
  readonly name: string;
  readonly visibility: Visibility;
  readonly terms: readonly CompiledTerm[];
}

export interface CompiledDetector {
  readonly name: string;
  readonly key: string;
  readonly feature: Feature;
}

const toNumber = (v: Value): number => (typeof v === 'boolean' ? (v ? 1 : 0) : (v as number));

function contains(collection: Value, element: Value): boolean {
  if (collection instanceof Set) return collection.has(element as string);
  return (collection as readonly Value[]).includes(element);
}

function iterate(collection: Value): Iterable<Value> {
  return collection as Iterable<Value>;
}

/** An expression the checker rejected cannot run: the audit refuses specs with errors before compiling. */
class UncompilableSpec extends Error {}

/**
 * Compiles the declarations of a checked spec into closures. Signals and detectors are compiled
 * once and shared; a quantifier's variable lives in a slot of the `locals` array.
 */
export class RewardCompiler {
  private readonly declared = new Map<SignalDecl | DetectorDecl, Evaluator>();

  constructor(private readonly model: SpecModel) {}

  detector(name: string): CompiledDetector {
    const symbol = this.model.globals.get(name);
    if (symbol?.decl.kind !== 'detector') throw new UncompilableSpec(`'${name}' is not a detector`);
    const evaluate = this.declaration(symbol.decl);
    return { name, key: `decl:${name}`, feature: (view, env) => toNumber(evaluate(view, env, [])) };
  }

  reward(name: string): CompiledReward {
    const symbol = this.model.globals.get(name);
    if (symbol?.decl.kind !== 'reward') throw new UncompilableSpec(`'${name}' is not a reward`);
    return this.rewardDecl(symbol.decl, new Set());
  }

  private rewardDecl(decl: RewardDecl, visiting: Set<RewardDecl>): CompiledReward {
    const name = decl.name?.text ?? '?';
    if (visiting.has(decl)) throw new UncompilableSpec(`reward '${name}' depends on itself`);
    visiting.add(decl);
    const inherited: CompiledTerm[] = [];
    if (decl.base !== undefined) {
      const base = this.model.globals.get(decl.base.text);
      if (base?.decl.kind !== 'reward') throw new UncompilableSpec(`'${decl.base.text}' is not a reward`);
      inherited.push(...this.rewardDecl(base.decl, visiting).terms);
    }
    const own = decl.terms.map((term) => this.term(name, term));
    const terms = [...inherited, ...own];
    const info = this.model.declInfo.get(decl);
    return { name, terms, visibility: info?.visibility ?? 'visible' };
  }

  private term(rewardName: string, term: Term): CompiledTerm {
    if (term.body === undefined || term.weight === undefined) throw new UncompilableSpec(`term '${term.name.text}' is incomplete`);
    const body = term.body;
    // A term that weighs a named signal or detector shares its values with every other use of it.
    const target = body.kind === 'name' ? this.model.globals.get(body.name.text) : undefined;
    const key = target !== undefined && (target.kind === 'signal' || target.kind === 'detector') ? `decl:${target.name}` : `term:${rewardName}.${term.name.text}`;
    const evaluate = this.expr(body, new Map());
    const visibility = this.model.termInfo.get(term)?.visibility ?? 'visible';
    return {
      key, name: term.name.text, weight: term.weight, visibility, declaredIn: rewardName, term,
      feature: (view, env) => toNumber(evaluate(view, env, [])),
    };
  }

  private declaration(decl: SignalDecl | DetectorDecl): Evaluator {
    const known = this.declared.get(decl);
    if (known !== undefined) return known;
    if (decl.body === undefined) throw new UncompilableSpec(`'${decl.name?.text}' has no body`);
    // Compile lazily through a trampoline so declarations can refer to ones declared later.
    let compiled: Evaluator | undefined;
    const body = decl.body;
    const evaluate: Evaluator = (view, env) => {
      compiled ??= this.expr(body, new Map());
      return compiled(view, env, []);
    };
    this.declared.set(decl, evaluate);
    return evaluate;
  }

  private expr(e: Expr, slots: ReadonlyMap<string, number>): Evaluator {
    switch (e.kind) {
      case 'number':
      case 'string':
      case 'bool': {
        const value = e.value;
        return () => value;
      }
      case 'name':
        return this.name(e.name.text, slots);
      case 'member': {
        const object = this.expr(e.object, slots);
        const property = e.property?.text;
        switch (property) {
          case 'answers':
            return (v, env, l) => (object(v, env, l) as TrajectoryView['gold']).answers;
          case 'support':
            return (v, env, l) => (object(v, env, l) as TrajectoryView['gold']).support_ids;
          case 'query':
            return (v, env, l) => (object(v, env, l) as SearchStep).query;
          case 'results':
            return (v, env, l) => (object(v, env, l) as SearchStep).results;
          default:
            throw new UncompilableSpec(`unknown member '${property}'`);
        }
      }
      case 'call':
        return this.call(e.callee.text, e.args.map((a) => this.expr(a, slots)));
      case 'unary': {
        if (e.operand === undefined) throw new UncompilableSpec('incomplete expression');
        const operand = this.expr(e.operand, slots);
        return e.op === 'not' ? (v, env, l) => !operand(v, env, l) : (v, env, l) => -toNumber(operand(v, env, l));
      }
      case 'binary':
        return this.binary(e, slots);
      case 'quantifier': {
        if (e.collection === undefined || e.body === undefined || e.variable === undefined) throw new UncompilableSpec('incomplete quantifier');
        const collection = this.expr(e.collection, slots);
        const slot = slots.size;
        const body = this.expr(e.body, new Map([...slots, [e.variable.text, slot]]));
        const test = (v: TrajectoryView, env: EvalEnv, l: Value[], x: Value): boolean => {
          l[slot] = x;
          return body(v, env, l) as boolean;
        };
        if (e.quantifier === 'any') {
          return (v, env, l) => {
            for (const x of iterate(collection(v, env, l))) if (test(v, env, l, x)) return true;
            return false;
          };
        }
        if (e.quantifier === 'all') {
          return (v, env, l) => {
            for (const x of iterate(collection(v, env, l))) if (!test(v, env, l, x)) return false;
            return true;
          };
        }
        return (v, env, l) => {
          let n = 0;
          for (const x of iterate(collection(v, env, l))) if (test(v, env, l, x)) n++;
          return n;
        };
      }
    }
  }

  private name(name: string, slots: ReadonlyMap<string, number>): Evaluator {
    const slot = slots.get(name);
    if (slot !== undefined) return (_v, _env, l) => l[slot]!;
    const symbol = this.model.globals.get(name);
    if (symbol !== undefined) {
      if (symbol.decl.kind !== 'signal' && symbol.decl.kind !== 'detector') throw new UncompilableSpec(`'${name}' has no value`);
      return this.declaration(symbol.decl);
    }
    switch (name) {
      case 'question':
        return (v) => v.question;
      case 'answer':
        return (v) => v.answer;
      case 'final_text':
        return (v) => v.finalText;
      case 'citations':
        return (v) => v.citations;
      case 'retrieved':
        return (v) => v.retrieved;
      case 'searches':
        return (v) => v.searches;
      case 'corpus':
        return (_v, env) => env.corpusIds;
      case 'has_final':
        return (v) => v.hasFinal;
      case 'search_calls':
        return (v) => v.searches.length;
      case 'invalid_actions':
        return (v) => v.invalidActions;
      case 'gold':
        return (v) => v.gold;
      default:
        throw new UncompilableSpec(`unknown name '${name}'`);
    }
  }

  private call(name: string, args: readonly Evaluator[]): Evaluator {
    const [a, b] = args;
    const all = (v: TrajectoryView, env: EvalEnv, l: Value[]): number[] => args.map((x) => toNumber(x(v, env, l)));
    switch (name) {
      case 'exact_match':
        return (v, env, l) => fns.exactMatch(a!(v, env, l) as string, b!(v, env, l) as string | readonly string[]);
      case 'token_f1':
        return (v, env, l) => fns.tokenF1(a!(v, env, l) as string, b!(v, env, l) as string | readonly string[]);
      case 'grounding':
        return (v, env, l) => fns.grounding(a!(v, env, l) as readonly string[], b!(v, env, l) as string | readonly string[], env);
      case 'tokens':
        return (v, env, l) => fns.tokens(a!(v, env, l) as string);
      case 'count':
        return (v, env, l) => fns.count(a!(v, env, l) as fns.Collection);
      case 'repeated_queries':
        return a === undefined ? (v) => fns.repeatedQueries(v.searches) : (v, env, l) => fns.repeatedQueries(v.searches, a(v, env, l) as number);
      case 'recall':
        return (v, env, l) => fns.recall(a!(v, env, l) as readonly string[], b!(v, env, l) as readonly string[]);
      case 'precision':
        return (v, env, l) => fns.precision(a!(v, env, l) as readonly string[], b!(v, env, l) as readonly string[]);
      case 'misses':
        return (v, env, l) => fns.misses(a!(v, env, l) as readonly string[], b!(v, env, l) as readonly string[]);
      case 'mean':
        return (v, env, l) => fns.mean(all(v, env, l));
      case 'min':
        return (v, env, l) => Math.min(...all(v, env, l));
      case 'max':
        return (v, env, l) => Math.max(...all(v, env, l));
      default:
        throw new UncompilableSpec(`unknown function '${name}'`);
    }
  }

  private binary(e: Extract<Expr, { kind: 'binary' }>, slots: ReadonlyMap<string, number>): Evaluator {
    if (e.right === undefined) throw new UncompilableSpec('incomplete expression');
    const left = this.expr(e.left, slots);
    const right = this.expr(e.right, slots);
    const num = (f: Evaluator) => (v: TrajectoryView, env: EvalEnv, l: Value[]) => toNumber(f(v, env, l));
    const x = num(left);
    const y = num(right);
    switch (e.op) {
      case 'and':
        return (v, env, l) => (left(v, env, l) as boolean) && (right(v, env, l) as boolean);
      case 'or':
        return (v, env, l) => (left(v, env, l) as boolean) || (right(v, env, l) as boolean);
      case '+':
        return (v, env, l) => x(v, env, l) + y(v, env, l);
      case '-':
        return (v, env, l) => x(v, env, l) - y(v, env, l);
      case '*':
        return (v, env, l) => x(v, env, l) * y(v, env, l);
      case '/':
        return (v, env, l) => {
          const d = y(v, env, l);
          return d === 0 ? 0 : x(v, env, l) / d;
        };
      case '<':
        return (v, env, l) => x(v, env, l) < y(v, env, l);
      case '<=':
        return (v, env, l) => x(v, env, l) <= y(v, env, l);
      case '>':
        return (v, env, l) => x(v, env, l) > y(v, env, l);
      case '>=':
        return (v, env, l) => x(v, env, l) >= y(v, env, l);
      case '==':
      case '!=': {
        const equal = (v: TrajectoryView, env: EvalEnv, l: Value[]): boolean => {
          const p = left(v, env, l);
          const q = right(v, env, l);
          return typeof p === 'boolean' || typeof q === 'boolean' ? toNumber(p) === toNumber(q) : p === q;
        };
        return e.op === '==' ? equal : (v, env, l) => !equal(v, env, l);
      }
      case 'in':
        return (v, env, l) => contains(right(v, env, l), left(v, env, l));
      case 'not in':
        return (v, env, l) => !contains(right(v, env, l), left(v, env, l));
    }
  }
}
