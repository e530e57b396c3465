import { builtinFieldsByName, builtinFunctionsByName, memberOf } from '../language/builtins.js';
import { countedEvaluator, type CitationTest } from '../language/citation-tally.js';
import { writesOf } from '../language/edit-vocabulary.js';
import { isIn } from '../language/functions.js';
import type { EvalEnv } from '../language/eval-env.js';
import { isLoggedType, loggedFieldEvaluator } from '../language/logged-fields.js';
import { commandTermEvaluator } from '../language/command-terms.js';
import type { TrajectoryPart, Visibility } from '../language/types.js';
import { asNumber, kinds, type Eval, type Kind, type TypedEval } from '../language/values.js';
import type { TrajectoryView } from '../language/view.js';
import type { BinaryExpr, ConditionalExpr, DetectorDecl, FieldDecl, Expr, QuantifierExpr, RewardDecl, SignalDecl, Term } from '../syntax/ast.js';
import type { AggregateWord, QuantifierWord } from '../problems/vocabulary.js';
import type { SpecModel } from '../semantics/check.js';
import { literalValue } from '../semantics/literal-arguments.js';

/** A number-valued function of a trajectory; booleans count as 0/1. */
export type Feature = (view: TrajectoryView, env: EvalEnv) => number;

export interface CompiledTerm {
  /** Identifies what the term computes, so rewards that share a term share its values. */
  readonly key: string;
  readonly name: string;
  readonly weight: number;
  readonly feature: Feature;
  readonly visibility: Visibility;
  /** The parts of a trajectory it reads (semantics/read-set.ts): an edit that changes none of them leaves it as it was. */
  readonly reads: ReadonlySet<TrajectoryPart>;
  /** The reward whose declaration writes this term (R0 for R_L's inherited terms). */
  readonly declaredIn: string;
  readonly term: Term;
  /** The fields and rewards computed by a command that it reads (edits/command-terms.ts sends them its trajectories). */
  readonly commands: readonly string[];
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
  readonly reads: ReadonlySet<TrajectoryPart>;
  readonly commands: readonly string[];
}

/** Names in scope: the variables of the quantifiers around an expression. */
export type Scope = ReadonlyMap<string, TypedEval>;

/** An expression the checker rejected cannot run: the audit refuses specs with errors before compiling. */
export class UncompilableSpec extends Error {}

function expect<T>(run: Eval<T> | undefined, what: string): Eval<T> {
  if (run === undefined) throw new UncompilableSpec(`${what} has the wrong type`);
  return run;
}

/**
 * Compiles the declarations of a checked spec into closures. Each expression compiles to an
 * evaluator tagged with its type (language/values.ts), read back by type where it is used, so
 * nothing here casts a value. Signals and detectors are compiled once and shared.
 */
export class RewardCompiler {
  private readonly declared = new Map<SignalDecl | DetectorDecl, TypedEval>();
  private readonly compiling = new Set<SignalDecl | DetectorDecl>();

  constructor(private readonly model: SpecModel) {}

  detector(name: string): CompiledDetector {
    const symbol = this.model.globals.get(name);
    if (symbol?.decl.kind !== 'detector') throw new UncompilableSpec(`'${name}' is not a detector`);
    return {
      name, key: `decl:${name}`, feature: expect(asNumber(this.declaration(symbol.decl)), `detector '${name}'`),
      reads: this.model.readSets.ofDecl(symbol.decl), commands: this.model.readSets.commandNamesOfDecl(symbol.decl),
    };
  }

  /**
   * A reward's, signal's, detector's or field's value on a trajectory as a feature `value:NAME`
   * (a reward: the weighted sum of its terms in term order), for a value read of originals only.
   */
  value(name: string): { readonly key: string; readonly feature: Feature; readonly commands: readonly string[] } {
    const symbol = this.model.globals.get(name);
    const key = `value:${name}`;
    if (symbol?.decl.kind === 'reward') {
      const terms = this.reward(name).terms;
      const feature: Feature = (view, env) => {
        let sum = 0;
        for (const term of terms) sum += term.weight * term.feature(view, env);
        return sum;
      };
      return { key, feature, commands: [...new Set(terms.flatMap((t) => t.commands))] };
    }
    if (symbol === undefined || (symbol.decl.kind !== 'signal' && symbol.decl.kind !== 'detector' && symbol.decl.kind !== 'logged')) {
      throw new UncompilableSpec(`'${name}' has no value`);
    }
    const feature = expect(asNumber(this.name(name, new Map())), `'${name}'`);
    return { key, feature, commands: this.model.readSets.commandNamesOfDecl(symbol.decl) };
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
      for (const term of this.rewardDecl(base.decl, visiting).terms) inherited.push(term);
    }
    if (decl.command !== undefined) return { name, terms: [this.commandTerm(decl, name)], visibility: 'oracle' };
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
    const feature = expect(asNumber(this.expr(body, new Map())), `term '${term.name.text}'`);
    const visibility = this.model.termInfo.get(term)?.visibility ?? 'visible';
    return { key, name: term.name.text, weight: term.weight, visibility, reads: this.model.readSets.of(body), declaredIn: rewardName, term, feature, commands: this.model.readSets.commandsOf(body) };
  }

  /**
   * `reward trained = command "…"`: one term, named after the reward, of weight 1, whose value the
   * program computes from the whole trajectory; a reward derived from it adds its own terms.
   */
  private commandTerm(decl: RewardDecl, name: string): CompiledTerm {
    const command = decl.command!;
    const label = decl.name ?? { text: name, span: command.span };
    const term: Term = { kind: 'term', name: label, weight: 1, weightSpan: undefined, body: undefined, derived: false, span: command.span };
    const feature = expect(asNumber(commandTermEvaluator(name, 'number')), `reward '${name}'`);
    return { key: `command:${name}`, name, weight: 1, visibility: 'oracle', reads: this.model.readSets.ofDecl(decl), declaredIn: name, term, feature, commands: [name] };
  }

  /** A declaration's evaluator, compiled on first use wherever it is declared. */
  private declaration(decl: SignalDecl | DetectorDecl): TypedEval {
    const known = this.declared.get(decl);
    if (known !== undefined) return known;
    if (decl.body === undefined) throw new UncompilableSpec(`'${decl.name?.text}' has no body`);
    if (this.compiling.has(decl)) throw new UncompilableSpec(`'${decl.name?.text}' depends on itself`);
    this.compiling.add(decl);
    const compiled = this.expr(decl.body, new Map());
    this.compiling.delete(decl);
    this.declared.set(decl, compiled);
    return compiled;
  }

  /** An expression with variables in scope (an edit's conditions and values: reward/compile-edit.ts). */
  expression(e: Expr, scope: Scope): TypedEval {
    return this.expr(e, scope);
  }

  private expr(e: Expr, scope: Scope): TypedEval {
    switch (e.kind) {
      case 'number': {
        const value = e.value;
        return { type: 'number', run: () => value };
      }
      case 'string': {
        const value = e.value;
        return { type: 'text', run: () => value };
      }
      case 'bool': {
        const value = e.value;
        return { type: 'boolean', run: () => value };
      }
      case 'name':
        return this.name(e.name.text, scope);
      case 'member': {
        const record = this.expr(e.object, scope);
        const property = e.property?.text;
        const compiled = property === undefined ? undefined : memberOf(record.type, property)?.compile(record);
        if (compiled === undefined) throw new UncompilableSpec(`unknown member '${property}'`);
        return compiled;
      }
      case 'call': {
        const literals = e.args.map(literalValue);
        const builtin = builtinFunctionsByName.get(e.callee.text);
        const args = e.args.map((a) => this.expr(a, scope));
        const compiled = builtin?.compile(args, literals);
        if (compiled === undefined) throw new UncompilableSpec(`'${e.callee.text}' is not a function of these arguments`);
        const counted = builtin?.counted !== undefined && this.countsCitations(args[0], scope, e.args.slice(1)) ? builtin.counted(args, compiled) : undefined;
        return counted ?? compiled;
      }
      case 'unary': {
        if (e.operand === undefined) throw new UncompilableSpec('incomplete expression');
        const operand = this.expr(e.operand, scope);
        if (e.op === 'not') {
          const run = expect(kinds.boolean.read(operand), "the operand of 'not'");
          return { type: 'boolean', run: (v, env) => !run(v, env) };
        }
        const run = expect(asNumber(operand), "the operand of '-'");
        return { type: 'number', run: (v, env) => -run(v, env) };
      }
      case 'binary':
        return this.binary(e, scope);
      case 'quantifier':
        return this.quantifier(e, scope);
      case 'if':
        return this.conditional(e, scope);
    }
  }

  private conditional(e: ConditionalExpr, scope: Scope): TypedEval {
    if (e.condition === undefined || e.whenTrue === undefined || e.whenFalse === undefined) throw new UncompilableSpec('incomplete conditional');
    const test = expect(kinds.boolean.read(this.expr(e.condition, scope)), "the condition of 'if'");
    const a = this.expr(e.whenTrue, scope);
    const b = this.expr(e.whenFalse, scope);
    // One type, or a number and a boolean read as numbers (the checker's rule); only the chosen branch runs.
    const compiled = choose(kinds.boolean, test, a, b) ?? chooseNumber(test, a, b) ?? choose(kinds.text, test, a, b)
      ?? choose(kinds.id, test, a, b) ?? choose(kinds.ids, test, a, b) ?? choose(kinds.texts, test, a, b)
      ?? choose(kinds.step, test, a, b) ?? choose(kinds.steps, test, a, b) ?? choose(kinds.args, test, a, b) ?? choose(kinds.gold, test, a, b);
    if (compiled === undefined) throw new UncompilableSpec("the branches of 'if' differ in type");
    return compiled;
  }

  private name(name: string, scope: Scope): TypedEval {
    const variable = scope.get(name);
    if (variable !== undefined) return variable;
    const symbol = this.model.globals.get(name);
    if (symbol !== undefined) {
      if (symbol.decl.kind === 'logged') return this.logged(symbol.decl);
      if (symbol.decl.kind !== 'signal' && symbol.decl.kind !== 'detector') throw new UncompilableSpec(`'${name}' has no value`);
      return this.declaration(symbol.decl);
    }
    const field = builtinFieldsByName.get(name);
    if (field === undefined) throw new UncompilableSpec(`unknown name '${name}'`);
    return field.evaluator;
  }

  private logged(decl: FieldDecl): TypedEval {
    const type = decl.fieldType?.text;
    if (type === undefined || !isLoggedType(type)) throw new UncompilableSpec(`logged field '${decl.name?.text}' has no type`);
    if (decl.command !== undefined) {
      if (type !== 'number' && type !== 'boolean') throw new UncompilableSpec(`field '${decl.name?.text}' computed by a command is ${type}`);
      return commandTermEvaluator(decl.name?.text ?? '?', type);
    }
    return loggedFieldEvaluator(decl.path.slice(1).map((n) => n.text), type, decl.name?.text ?? '?');
  }

  private quantifier(e: QuantifierExpr, scope: Scope): TypedEval {
    const { variable, body } = e;
    if (e.collection === undefined || body === undefined || variable === undefined) throw new UncompilableSpec('incomplete quantifier');
    const collection = this.expr(e.collection, scope);
    const bind = (element: TypedEval): Scope => new Map(scope).set(variable.text, element);
    switch (collection.type) {
      case 'ids': {
        if (isAggregate(e.quantifier)) return this.aggregate(e, collection.run, (read) => bind({ type: 'id', run: read }), scope);
        const { evaluator, test } = this.quantify(e, collection.run, (read) => bind({ type: 'id', run: read }));
        const others = e.filter === undefined ? [body] : [body, e.filter];
        if (!this.countsCitations(collection, scope, others, variable.text)) return evaluator;
        return countedQuantifier(testingQuantifier(e.quantifier), evaluator, (v, env) => (id) => test(v, env, id));
      }
      case 'texts':
        if (isAggregate(e.quantifier)) return this.aggregate(e, collection.run, (read) => bind({ type: 'text', run: read }), scope);
        return this.quantify(e, collection.run, (read) => bind({ type: 'text', run: read })).evaluator;
      case 'steps':
        if (isAggregate(e.quantifier)) return this.aggregate(e, collection.run, (read) => bind({ type: 'step', run: read }), scope);
        return this.quantify(e, collection.run, (read) => bind({ type: 'step', run: read })).evaluator;
      case 'turns':
        if (isAggregate(e.quantifier)) return this.aggregate(e, collection.run, (read) => bind({ type: 'turn', run: read }), scope);
        return this.quantify(e, collection.run, (read) => bind({ type: 'turn', run: read })).evaluator;
      default:
        throw new UncompilableSpec(`'${e.quantifier}' over ${collection.type}`);
    }
  }

  /**
   * Whether an expression over `ids` may count its tests of the citations from an original's
   * (language/citation-tally.ts): `ids` is the field `citations` itself, no variable is in scope
   * (whose value would change between evaluations of one view), and the rest of the expression
   * (`others`, with `bound` the quantifier's own variable) reads nothing a citation swap writes.
   */
  private countsCitations(ids: TypedEval | undefined, scope: Scope, others: readonly Expr[], bound?: string): boolean {
    if (ids !== builtinFieldsByName.get('citations')?.evaluator || scope.size > 0) return false;
    const swapped = writesOf('replace', 'citations');
    return others.every((other) => {
      const reads = this.model.readSets.of(other, new Set(bound === undefined ? [] : [bound]));
      return swapped.every((part) => !reads.has(part));
    });
  }

  /**
   * `any`, `all`, `count`: `bind` puts the reader of the element being tested in scope, tagged
   * with the element type. With a `where` filter, `test` is the body for the elements that pass
   * it and, for `all`, true for the rest (`all x in C where F: B` is `all x in C: not F or B`), so
   * the counted forms below count the same elements.
   */
  private quantify<T>(e: QuantifierExpr, collection: Eval<Iterable<T>>, bind: (read: Eval<T>) => Scope): { evaluator: TypedEval; test: (v: TrajectoryView, env: EvalEnv, x: T) => boolean } {
    const quantifier = testingQuantifier(e.quantifier);
    // The element being tested. One cell per quantifier is enough: a body never re-enters its own
    // quantifier (the checker rejects declarations that depend on themselves).
    let current: T | undefined;
    const inner = bind(() => current!);
    const body = expect(kinds.boolean.read(this.expr(e.body!, inner)), `the body of '${quantifier}'`);
    const keep = e.filter === undefined ? undefined : expect(kinds.boolean.read(this.expr(e.filter, inner)), `the filter of '${quantifier}'`);
    const test = keep === undefined
      ? (v: TrajectoryView, env: EvalEnv, x: T): boolean => {
        current = x;
        return body(v, env);
      }
      : (v: TrajectoryView, env: EvalEnv, x: T): boolean => {
        current = x;
        if (!keep(v, env)) return quantifier === 'all';
        return body(v, env);
      };
    return { evaluator: quantified(quantifier, collection, test), test };
  }

  /** `sum`, `max`, `min`, `mean` of the body over the elements that pass the filter; the fallback when none does. */
  private aggregate<T>(e: QuantifierExpr, collection: Eval<Iterable<T>>, bind: (read: Eval<T>) => Scope, scope: Scope): TypedEval {
    const word = e.quantifier;
    let current: T | undefined;
    const inner = bind(() => current!);
    const body = expect(asNumber(this.expr(e.body!, inner)), `the body of '${word}'`);
    const keep = e.filter === undefined ? undefined : expect(kinds.boolean.read(this.expr(e.filter, inner)), `the filter of '${word}'`);
    const fallback = e.fallback === undefined ? undefined : expect(asNumber(this.expr(e.fallback, scope)), `the 'else' value of '${word}'`);
    // Each element's value, or undefined for one the filter leaves out.
    const each = (v: TrajectoryView, env: EvalEnv, x: T): number | undefined => {
      current = x;
      return keep === undefined || keep(v, env) ? body(v, env) : undefined;
    };
    if (word === 'sum') {
      return kinds.number.wrap((v, env) => {
        // Added in order, as Python's sum() adds a list.
        let total = 0;
        for (const x of collection(v, env)) total += each(v, env, x) ?? 0;
        return total;
      });
    }
    if (fallback === undefined) throw new UncompilableSpec(`'${word}' has no 'else' value`);
    return kinds.number.wrap((v, env) => {
      let n = 0;
      let acc = 0;
      for (const x of collection(v, env)) {
        const value = each(v, env, x);
        if (value === undefined) continue;
        acc = n === 0 ? value : word === 'max' ? Math.max(acc, value) : word === 'min' ? Math.min(acc, value) : acc + value;
        n++;
      }
      if (n === 0) return fallback(v, env);
      return word === 'mean' ? acc / n : acc;
    });
  }

  private binary(e: BinaryExpr, scope: Scope): TypedEval {
    if (e.right === undefined) throw new UncompilableSpec('incomplete expression');
    const left = this.expr(e.left, scope);
    const right = this.expr(e.right, scope);
    switch (e.op) {
      case 'and':
      case 'or': {
        const p = expect(kinds.boolean.read(left), `the left side of '${e.op}'`);
        const q = expect(kinds.boolean.read(right), `the right side of '${e.op}'`);
        return { type: 'boolean', run: e.op === 'and' ? (v, env) => p(v, env) && q(v, env) : (v, env) => p(v, env) || q(v, env) };
      }
      case '==':
      case '!=': {
        const equal = equality(left, right);
        return { type: 'boolean', run: e.op === '==' ? equal : (v, env) => !equal(v, env) };
      }
      case 'in':
      case 'not in': {
        const element = expect(kinds.id.read(left) ?? kinds.text.read(left), `the left side of '${e.op}'`);
        const collection = expect(kinds.ids.read(right) ?? kinds.texts.read(right), `the right side of '${e.op}'`);
        const member: Eval<boolean> = (v, env) => isIn(element(v, env), collection(v, env));
        return { type: 'boolean', run: e.op === 'in' ? member : (v, env) => !member(v, env) };
      }
      default:
        return arithmetic(e.op, expect(asNumber(left), `the left side of '${e.op}'`), expect(asNumber(right), `the right side of '${e.op}'`));
    }
  }
}

function isAggregate(word: QuantifierWord | AggregateWord): word is AggregateWord {
  return word === 'sum' || word === 'max' || word === 'min' || word === 'mean';
}

function testingQuantifier(word: QuantifierWord | AggregateWord): QuantifierWord {
  if (isAggregate(word)) throw new UncompilableSpec(`'${word}' is an aggregation`);
  return word;
}

/** A quantifier's evaluator, testing the elements in order and stopping once its value is known. */
function quantified<T>(quantifier: QuantifierWord, collection: Eval<Iterable<T>>, test: (v: TrajectoryView, env: EvalEnv, x: T) => boolean): TypedEval {
  switch (quantifier) {
    case 'any':
      return { type: 'boolean', run: (v, env) => {
        for (const x of collection(v, env)) if (test(v, env, x)) return true;
        return false;
      } };
    case 'all':
      return { type: 'boolean', run: (v, env) => {
        for (const x of collection(v, env)) if (!test(v, env, x)) return false;
        return true;
      } };
    case 'count':
      return { type: 'number', run: (v, env) => {
        let n = 0;
        for (const x of collection(v, env)) if (test(v, env, x)) n++;
        return n;
      } };
  }
}

/** A quantifier over `citations` that counts from the original's tests on a view that swaps one citation; `full` otherwise. */
function countedQuantifier(quantifier: QuantifierWord, full: TypedEval, test: CitationTest): TypedEval {
  const counted = quantifier === 'count'
    ? countedEvaluator(kinds.number, full, test, (passing) => passing)
    : countedEvaluator(kinds.boolean, full, test, (passing, v) => (quantifier === 'any' ? passing > 0 : passing === v.citations.length));
  return counted ?? full;
}

/** `test ? a : b` when both branches are of `kind`. */
function choose<T>(kind: Kind<T>, test: Eval<boolean>, a: TypedEval, b: TypedEval): TypedEval | undefined {
  const x = kind.read(a);
  const y = kind.read(b);
  return x === undefined || y === undefined ? undefined : kind.wrap((v, env) => (test(v, env) ? x(v, env) : y(v, env)));
}

/** `test ? a : b` over numbers and 0/1 indicators. */
function chooseNumber(test: Eval<boolean>, a: TypedEval, b: TypedEval): TypedEval | undefined {
  const x = asNumber(a);
  const y = asNumber(b);
  return x === undefined || y === undefined ? undefined : kinds.number.wrap((v, env) => (test(v, env) ? x(v, env) : y(v, env)));
}

/** `==`: numbers and 0/1 indicators by value; other values of one type by identity (texts, ids). */
function equality(left: TypedEval, right: TypedEval): Eval<boolean> {
  const x = asNumber(left);
  const y = asNumber(right);
  if (x !== undefined && y !== undefined) return (v, env) => x(v, env) === y(v, env);
  const p: Eval<unknown> = left.run;
  const q: Eval<unknown> = right.run;
  return (v, env) => p(v, env) === q(v, env);
}

function arithmetic(op: '+' | '-' | '*' | '/' | '<' | '<=' | '>' | '>=', x: Eval<number>, y: Eval<number>): TypedEval {
  switch (op) {
    case '+':
      return { type: 'number', run: (v, env) => x(v, env) + y(v, env) };
    case '-':
      return { type: 'number', run: (v, env) => x(v, env) - y(v, env) };
    case '*':
      return { type: 'number', run: (v, env) => x(v, env) * y(v, env) };
    case '/':
      // Dividing by zero gives 0, so a rate over an empty set is 0 rather than NaN.
      return { type: 'number', run: (v, env) => {
        const d = y(v, env);
        return d === 0 ? 0 : x(v, env) / d;
      } };
    case '<':
      return { type: 'boolean', run: (v, env) => x(v, env) < y(v, env) };
    case '<=':
      return { type: 'boolean', run: (v, env) => x(v, env) <= y(v, env) };
    case '>':
      return { type: 'boolean', run: (v, env) => x(v, env) > y(v, env) };
    case '>=':
      return { type: 'boolean', run: (v, env) => x(v, env) >= y(v, env) };
  }
}
