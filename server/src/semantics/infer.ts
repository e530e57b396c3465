import type { Decl, DetectorDecl, Expr, Name, RewardDecl, SignalDecl } from '../syntax/ast.js';
import type { Span } from '../problems/span.js';
import { issueCodes } from '../problems/issue-codes.js';
import { maxDependencyNesting } from '../problems/limits.js';
import { report, suggest, type Analysis } from './analysis.js';
import { builtinFieldsByName, builtinFunctionsByName, memberOf, membersOf, type BuiltinFunction } from '../language/builtins.js';
import { elementTypes, isNumeric, typeNames, type Type, type Visibility } from '../language/types.js';
import { checkLiteralArgument } from './literal-arguments.js';
import { loggedFieldInfo } from './check-logged-field.js';
import { declKindNames, type DeclInfo, type VariableSymbol } from './symbols.js';

/** An expression's type and visibility, and where its oracle taint (if any) comes from. */
export interface Inferred {
  readonly type: Type;
  readonly visibility: Visibility;
  readonly oracleSource?: Span | undefined;
}

type Scope = ReadonlyMap<string, VariableSymbol>;
type Typeable = SignalDecl | DetectorDecl | RewardDecl;

const unknown: Inferred = { type: 'error', visibility: 'visible' };

/** Oracle when any part is (a reward's terms may be thousands: no spread into a call). */
function combine(type: Type, parts: readonly Inferred[]): Inferred {
  const oracle = parts.find((p) => p.visibility === 'oracle');
  return { type, visibility: oracle === undefined ? 'visible' : 'oracle', oracleSource: oracle?.oracleSource };
}

/** Reports `inferred` where it is not of one of the `accepted` types (an already reported error passes). */
export function expectType(a: Analysis, inferred: Inferred, accepted: readonly Type[], span: Span, what: string): void {
  if (inferred.type === 'error' || accepted.includes(inferred.type)) return;
  const wanted = accepted.map((t) => typeNames[t]).join(' or ');
  report(a, issueCodes.typeMismatch, 'error', span, `${what} must be ${wanted}, not ${typeNames[inferred.type]}`);
}

function expectNumeric(a: Analysis, inferred: Inferred, span: Span, what: string): void {
  if (!isNumeric(inferred.type)) report(a, issueCodes.typeMismatch, 'error', span, `${what} must be a number or a boolean indicator, not ${typeNames[inferred.type]}`);
}

/** The type of `if … then a else b` from its branches' (reported at the whole expression when they differ). */
function branchType(a: Analysis, x: Type, y: Type, span: Span): Type {
  if (x === 'error') return y;
  if (y === 'error' || x === y) return x;
  if (isNumeric(x) && isNumeric(y)) return 'number';
  report(a, issueCodes.typeMismatch, 'error', span, `the branches of 'if' must have one type, not ${typeNames[x]} and ${typeNames[y]}`);
  return 'error';
}

/** The declaration being typed: how deep its expression nests with the declarations it uses counted in place. */
interface Nesting {
  /** The levels open (across the declarations being typed) where its own begin. */
  readonly base: number;
  height: number;
  /** Whether a use in it has been reported as crossing the limit (once is enough). */
  crossed: boolean;
}

const dependencyMessage = `with the signals, detectors and base rewards it uses counted in place, this nests more than ${maxDependencyNesting} levels deep: the audit could not evaluate it. Shorten the chain of declarations that use each other`;

/**
 * Types declarations on demand, so a signal used before it is declared is typed once, where
 * it is first needed; `inProgress` catches definitions that depend on themselves. Typing follows
 * uses from one declaration into the next, so it also counts the levels open across them and
 * stops at the nesting limit: a chain of thousands of declarations never exhausts the stack.
 */
export class Inference {
  private readonly inProgress = new Set<Decl>();
  /** Each typed declaration's depth with its uses counted in place (see `maxDependencyNesting`). */
  private readonly heights = new Map<Decl, number>();
  /** Levels open now, counted as if every declaration being typed stood in place of its use. */
  private active = 0;
  private nesting: Nesting = { base: 0, height: 0, crossed: false };

  constructor(private readonly a: Analysis) {}

  declaration(decl: Typeable): DeclInfo {
    return this.typed(decl, undefined, 0);
  }

  /**
   * `shift` places the declaration's levels relative to those open now: a used signal's body
   * stands in place of its name (−1), a base reward's terms one level below the derived reward
   * (+1), a declaration the checker takes in turn at the top (0).
   */
  private typed(decl: Typeable, usedAt: Span | undefined, shift: number): DeclInfo {
    const known = this.a.declInfo.get(decl);
    if (known !== undefined) return known;
    if (this.inProgress.has(decl)) {
      if (usedAt !== undefined) {
        report(this.a, issueCodes.recursiveDefinition, 'error', usedAt, `'${decl.name?.text}' depends on itself`);
      }
      return unknown;
    }
    const base = this.active + shift;
    // A name that stands for another name adds no level, but the evaluator still calls through it:
    // a chain of bare uses counts by the declarations open at once.
    if (base >= maxDependencyNesting || this.inProgress.size >= maxDependencyNesting) {
      // Its body would start past the limit: say so at the use, and type it when its turn comes.
      if (usedAt !== undefined && !this.nesting.crossed) {
        this.nesting.crossed = true;
        report(this.a, issueCodes.nestingTooDeep, 'error', usedAt, dependencyMessage);
      }
      return unknown;
    }
    const outer = { nesting: this.nesting, active: this.active };
    this.nesting = { base, height: 0, crossed: false };
    this.active = base;
    this.inProgress.add(decl);
    const info = decl.kind === 'reward' ? this.reward(decl) : this.body(decl);
    this.inProgress.delete(decl);
    this.heights.set(decl, this.nesting.height);
    this.nesting = outer.nesting;
    this.active = outer.active;
    this.a.declInfo.set(decl, info);
    return info;
  }

  /** A use of `decl` at `level` levels into the declaration being typed: its body counts in place of the name. */
  private nestUse(decl: Decl, level: number, at: Span): void {
    const inner = this.heights.get(decl) ?? 0;
    const height = level + inner;
    if (height > this.nesting.height) this.nesting.height = height;
    // A declaration too deep by itself is reported there, not at each use.
    if (height > maxDependencyNesting && inner <= maxDependencyNesting && !this.nesting.crossed) {
      this.nesting.crossed = true;
      report(this.a, issueCodes.nestingTooDeep, 'error', at, dependencyMessage);
    }
  }

  private body(decl: SignalDecl | DetectorDecl): DeclInfo {
    if (decl.body === undefined) return unknown;
    const inferred = this.expr(decl.body, new Map());
    if (decl.kind === 'detector') {
      expectType(this.a, inferred, ['boolean'], decl.body.span, `detector '${decl.name?.text}'`);
      return { type: 'boolean', visibility: inferred.visibility, oracleSource: inferred.oracleSource };
    }
    expectNumeric(this.a, inferred, decl.body.span, `signal '${decl.name?.text}'`);
    return inferred;
  }

  private reward(decl: RewardDecl): DeclInfo {
    // A program's reward is sent the gold answers, as a trainer's reward function is.
    if (decl.command !== undefined) return { type: 'number', visibility: 'oracle', oracleSource: decl.command.span };
    const parts: Inferred[] = [];
    if (decl.base !== undefined) {
      const base = this.a.globals.get(decl.base.text);
      this.resolve(decl.base, base);
      if (base !== undefined && base.decl.kind !== 'reward') {
        report(this.a, issueCodes.kindMismatch, 'error', decl.base.span, `'${decl.base.text}' is ${declKindNames[base.decl.kind]}; a derived reward starts from a reward`);
      } else if (base?.decl.kind === 'reward') {
        const info = this.typed(base.decl, decl.base.span, 1);
        this.nestUse(base.decl, 1, decl.base.span);
        parts.push({ ...info, oracleSource: info.visibility === 'oracle' ? decl.base.span : undefined });
      }
    }
    for (const term of decl.terms) {
      if (term.body === undefined) continue;
      const inferred = this.expr(term.body, new Map());
      expectNumeric(this.a, inferred, term.body.span, `term '${term.name.text}'`);
      this.a.termInfo.set(term, inferred);
      parts.push(inferred);
    }
    return combine('number', parts);
  }

  /** Records a use of a declared name (for references, rename and unused checks). */
  private resolve(name: Name, symbol: ReturnType<Analysis['globals']['get']>): void {
    if (symbol === undefined) {
      this.unknownName(name, () => this.a.globals.keys());
      return;
    }
    this.a.occurrences.push({ span: name.span, symbol, isDeclaration: false });
  }

  private unknownName(name: Name, candidates: () => Iterable<string>): void {
    const suggestion = suggest(this.a, name.text, candidates);
    const hint = suggestion === undefined ? '' : `; did you mean '${suggestion}'?`;
    report(this.a, issueCodes.unknownName, 'error', name.span, `unknown name '${name.text}'${hint}`, suggestion === undefined ? {} : { data: { suggestion } });
  }

  expr(e: Expr, scope: Scope): Inferred {
    this.active++;
    const level = this.active - this.nesting.base;
    if (level > this.nesting.height) this.nesting.height = level;
    const inferred = this.inferExpr(e, scope);
    this.active--;
    return inferred;
  }

  private inferExpr(e: Expr, scope: Scope): Inferred {
    switch (e.kind) {
      case 'number':
        return { type: 'number', visibility: 'visible' };
      case 'string':
        return { type: 'text', visibility: 'visible' };
      case 'bool':
        return { type: 'boolean', visibility: 'visible' };
      case 'name':
        return this.name(e.name, scope);
      case 'member':
        return this.member(e.object, e.property, scope);
      case 'call':
        return this.call(e.callee, e.args, e.span, scope);
      case 'unary': {
        if (e.operand === undefined) return unknown;
        const operand = this.expr(e.operand, scope);
        if (e.op === 'not') {
          expectType(this.a, operand, ['boolean'], e.operand.span, "the operand of 'not'");
          return combine('boolean', [operand]);
        }
        expectNumeric(this.a, operand, e.operand.span, "the operand of '-'");
        return combine('number', [operand]);
      }
      case 'binary':
        return this.binary(e, scope);
      case 'if':
        return this.conditional(e, scope);
      case 'quantifier':
        return this.quantifier(e, scope);
    }
  }

  /**
   * `any`/`all`/`count` test a boolean body; `sum`/`max`/`min`/`mean` aggregate a numeric one
   * (booleans as 0/1). A `where` filter is a boolean read with the variable bound; the `else` of
   * `max`/`min`/`mean` is read outside it (no element is bound when it is used) and is required.
   */
  private quantifier(e: Extract<Expr, { kind: 'quantifier' }>, scope: Scope): Inferred {
    if (e.collection === undefined) return unknown;
    const collection = this.expr(e.collection, scope);
    const element = elementTypes[collection.type];
    if (element === undefined && collection.type !== 'error') {
      report(this.a, issueCodes.typeMismatch, 'error', e.collection.span, `'${e.quantifier}' ranges over an id set, text set or steps, not ${typeNames[collection.type]}`);
    }
    const inner = new Map(scope);
    if (e.variable !== undefined) {
      const variable: VariableSymbol = {
        kind: 'variable', name: e.variable.text, nameSpan: e.variable.span, type: element ?? 'error', visibility: collection.visibility,
      };
      inner.set(e.variable.text, variable);
      this.a.occurrences.push({ span: e.variable.span, symbol: variable, isDeclaration: true });
    }
    const filter = e.filter === undefined ? undefined : this.expr(e.filter, inner);
    if (e.filter !== undefined && filter !== undefined) expectType(this.a, filter, ['boolean'], e.filter.span, `the 'where' filter of '${e.quantifier}'`);
    const body = e.body === undefined ? unknown : this.expr(e.body, inner);
    const parts = [collection, body, ...(filter === undefined ? [] : [filter])];
    const testing = e.quantifier === 'any' || e.quantifier === 'all' || e.quantifier === 'count';
    if (testing) {
      if (e.body !== undefined) expectType(this.a, body, ['boolean'], e.body.span, `the body of '${e.quantifier}'`);
      return combine(e.quantifier === 'count' ? 'number' : 'boolean', parts);
    }
    if (e.body !== undefined) expectNumeric(this.a, body, e.body.span, `the body of '${e.quantifier}'`);
    if (e.fallback !== undefined) {
      const fallback = this.expr(e.fallback, scope);
      expectNumeric(this.a, fallback, e.fallback.span, `the 'else' value of '${e.quantifier}'`);
      parts.push(fallback);
    } else if (e.quantifier !== 'sum' && e.body !== undefined) {
      report(this.a, issueCodes.parseError, 'error', { start: e.span.start, end: e.span.start + e.quantifier.length },
        `'${e.quantifier}' of no element has no value: end it with 'else D', the value when the collection is empty or no element passes 'where' (e.g. '${e.quantifier} x in C: … else 0')`);
    }
    return combine('number', parts);
  }

  /** Both branches have one type (a number and a boolean mix as numbers); visible only when all three parts are. */
  private conditional(e: Extract<Expr, { kind: 'if' }>, scope: Scope): Inferred {
    const condition = e.condition === undefined ? unknown : this.expr(e.condition, scope);
    if (e.condition !== undefined) expectType(this.a, condition, ['boolean'], e.condition.span, "the condition of 'if'");
    const whenTrue = e.whenTrue === undefined ? unknown : this.expr(e.whenTrue, scope);
    const whenFalse = e.whenFalse === undefined ? unknown : this.expr(e.whenFalse, scope);
    return combine(branchType(this.a, whenTrue.type, whenFalse.type, e.span), [condition, whenTrue, whenFalse]);
  }

  private name(name: Name, scope: Scope): Inferred {
    const variable = scope.get(name.text);
    if (variable !== undefined) {
      this.a.occurrences.push({ span: name.span, symbol: variable, isDeclaration: false });
      return { type: variable.type, visibility: variable.visibility, oracleSource: variable.visibility === 'oracle' ? name.span : undefined };
    }
    const declared = this.a.globals.get(name.text);
    if (declared !== undefined) {
      this.a.occurrences.push({ span: name.span, symbol: declared, isDeclaration: false });
      const decl = declared.decl;
      if (decl.kind === 'signal' || decl.kind === 'detector') {
        const info = this.typed(decl, name.span, -1);
        // The name itself is the level its declaration's body replaces.
        this.nestUse(decl, this.active - this.nesting.base - 1, name.span);
        return { type: info.type, visibility: info.visibility, oracleSource: info.visibility === 'oracle' ? name.span : undefined };
      }
      if (decl.kind === 'logged') {
        const info = loggedFieldInfo(decl);
        return { type: info.type, visibility: info.visibility, oracleSource: info.visibility === 'oracle' ? name.span : undefined };
      }
      const hint = decl.kind === 'corpus' ? "; inside expressions 'corpus' is the audited corpus's id set" : '';
      report(this.a, issueCodes.kindMismatch, 'error', name.span, `'${name.text}' is ${declKindNames[decl.kind]} and has no value in an expression${hint}`);
      return unknown;
    }
    const field = builtinFieldsByName.get(name.text);
    if (field !== undefined) {
      this.a.occurrences.push({ span: name.span, symbol: { kind: 'field', field }, isDeclaration: false });
      return { type: field.type, visibility: field.visibility, oracleSource: field.visibility === 'oracle' ? name.span : undefined };
    }
    if (builtinFunctionsByName.has(name.text)) {
      report(this.a, issueCodes.typeMismatch, 'error', name.span, `'${name.text}' is a function; call it as ${name.text}(…)`);
      return unknown;
    }
    this.unknownName(name, () => [...scope.keys(), ...this.valueNames(), ...builtinFieldsByName.keys()]);
    return unknown;
  }

  private valueNames(): string[] {
    return [...this.a.globals.values()].filter((s) => s.kind === 'signal' || s.kind === 'detector' || s.kind === 'logged').map((s) => s.name);
  }

  private member(objectExpr: Expr, property: Name | undefined, scope: Scope): Inferred {
    const object = this.expr(objectExpr, scope);
    if (property === undefined || object.type === 'error') return unknown;
    const member = memberOf(object.type, property.text);
    if (member === undefined) {
      const members = membersOf(object.type);
      const suggestion = suggest(this.a, property.text, () => members.map((m) => m.name));
      const known = members.length === 0 ? `${typeNames[object.type]} has no fields` : `fields: ${members.map((m) => m.name).join(', ')}`;
      report(this.a, issueCodes.unknownMember, 'error', property.span,
        `'${property.text}' is not a field of ${typeNames[object.type]} (${known})${suggestion ? `; did you mean '${suggestion}'?` : ''}`,
        suggestion === undefined ? {} : { data: { suggestion } });
      return unknown;
    }
    this.a.occurrences.push({ span: property.span, symbol: { kind: 'member', member, owner: object.type }, isDeclaration: false });
    return { type: member.type, visibility: object.visibility, oracleSource: object.oracleSource };
  }

  private call(callee: Name, argExprs: readonly Expr[], span: Span, scope: Scope): Inferred {
    const args = argExprs.map((arg) => this.expr(arg, scope));
    const fn = builtinFunctionsByName.get(callee.text);
    if (fn === undefined) {
      const declared = this.a.globals.get(callee.text);
      if (declared !== undefined) {
        this.a.occurrences.push({ span: callee.span, symbol: declared, isDeclaration: false });
        report(this.a, issueCodes.kindMismatch, 'error', callee.span, `'${callee.text}' is ${declKindNames[declared.kind]}, not a function`);
      } else {
        this.unknownName(callee, () => builtinFunctionsByName.keys());
      }
      return unknown;
    }
    this.a.occurrences.push({ span: callee.span, symbol: { kind: 'function', fn }, isDeclaration: false });
    this.checkArguments(fn, argExprs, args, callee, span);
    return combine(fn.resultOf?.(args.map((arg) => arg.type)) ?? fn.result, args);
  }

  private checkArguments(fn: BuiltinFunction, argExprs: readonly Expr[], args: readonly Inferred[], callee: Name, span: Span): void {
    const max = fn.variadic ? Infinity : fn.parameters.length;
    const min = fn.variadic ? 1 : fn.required;
    if (args.length < min || args.length > max) {
      const expected = fn.variadic ? 'at least 1 argument' : min === max ? `${min} argument${min === 1 ? '' : 's'}` : `${min} to ${max} arguments`;
      report(this.a, issueCodes.wrongArity, 'error', args.length > max ? argExprs[max]!.span : span, `${callee.text} takes ${expected}, not ${args.length}`);
    }
    args.forEach((arg, i) => {
      const parameter = fn.parameters[Math.min(i, fn.parameters.length - 1)];
      if (parameter === undefined || i >= max) return;
      expectType(this.a, arg, parameter.types, argExprs[i]!.span, `argument ${i + 1} (${parameter.name}) of ${callee.text}`);
      checkLiteralArgument(this.a, fn, argExprs, i, `argument ${i + 1} (${parameter.name}) of ${callee.text}`);
    });
  }

  private binary(e: Extract<Expr, { kind: 'binary' }>, scope: Scope): Inferred {
    const left = this.expr(e.left, scope);
    const right = e.right === undefined ? unknown : this.expr(e.right, scope);
    const rightSpan = e.right?.span ?? e.left.span;
    switch (e.op) {
      case 'and':
      case 'or':
        expectType(this.a, left, ['boolean'], e.left.span, `the left side of '${e.op}'`);
        expectType(this.a, right, ['boolean'], rightSpan, `the right side of '${e.op}'`);
        return combine('boolean', [left, right]);
      case '+':
      case '-':
      case '*':
      case '/':
      case '<':
      case '<=':
      case '>':
      case '>=': {
        expectNumeric(this.a, left, e.left.span, `the left side of '${e.op}'`);
        expectNumeric(this.a, right, rightSpan, `the right side of '${e.op}'`);
        const arithmetic = e.op === '+' || e.op === '-' || e.op === '*' || e.op === '/';
        return combine(arithmetic ? 'number' : 'boolean', [left, right]);
      }
      case '==':
      case '!=': {
        const comparable = left.type === right.type || (isNumeric(left.type) && isNumeric(right.type));
        if (!comparable && left.type !== 'error' && right.type !== 'error') {
          report(this.a, issueCodes.typeMismatch, 'error', e.span, `cannot compare ${typeNames[left.type]} with ${typeNames[right.type]}`);
        }
        return combine('boolean', [left, right]);
      }
      case 'in':
      case 'not in': {
        const element = elementTypes[right.type];
        if (right.type !== 'error' && (right.type === 'steps' || right.type === 'turns' || element === undefined)) {
          report(this.a, issueCodes.typeMismatch, 'error', rightSpan, `'${e.op}' needs an id set or text set on its right, not ${typeNames[right.type]}`);
        } else if (element !== undefined && left.type !== 'error' && left.type !== element) {
          report(this.a, issueCodes.typeMismatch, 'error', e.left.span, `${typeNames[left.type]} cannot be a member of ${typeNames[right.type]}`);
        }
        return combine('boolean', [left, right]);
      }
    }
  }
}
