import type { IToken } from 'chevrotain';
import type { Span } from '../problems/span.js';
import { aggregateWords, quantifierWords } from '../problems/vocabulary.js';
import type * as A from './ast.js';
import type * as C from './cst-types.js';
import { cover, each, nameOf, numberOf, one, pick, read, readAll, stringOf, tokenSpan, type Children } from './cst-read.js';

// The CST → AST step for expressions, one function per grammar rule (see build-ast.ts).

const notPrecedence = 3;
const binaryPrecedence: Record<A.BinaryOp, number> = {
  or: 1, and: 2,
  '==': 4, '!=': 4, '<': 4, '<=': 4, '>': 4, '>=': 4, in: 4, 'not in': 4,
  '+': 5, '-': 5, '*': 6, '/': 6,
};

export function comparisonOperator(c: Children<C.ComparisonOperatorCstNode>): A.ComparisonOp | undefined {
  return pick<A.ComparisonOp>([[c.EqEq, '=='], [c.NotEq, '!='], [c.LessEq, '<='], [c.GreaterEq, '>='], [c.Less, '<'], [c.Greater, '>']])?.value;
}

/**
 * Operator-precedence parsing of the flat `expression` rule. A prefix `not` binds looser than
 * comparisons and tighter than `and` (`not a == b and c` is `(not (a == b)) and c`); binary
 * operators associate to the left.
 */
export function expression(c: Children<C.ExpressionCstNode>): A.Expr | undefined {
  const operators = (c.operators ?? []).map((o) => binaryOperator(o.children));
  const values: (A.Expr | undefined)[] = [];
  const pending: ({ kind: 'binary'; op: A.BinaryOp } | { kind: 'not'; token: IToken })[] = [];
  const apply = (): void => {
    const top = pending.pop()!;
    if (top.kind === 'not') {
      const operand = values.pop();
      values.push({ kind: 'unary', op: 'not', operand, span: cover(top.token, operand) });
      return;
    }
    const right = values.pop();
    const left = values.pop();
    // A recovered operand may be missing: keep whichever side the parser did read.
    values.push(left === undefined ? right : { kind: 'binary', op: top.op, left, right, span: cover(left, right) });
  };
  (c.operands ?? []).forEach((operand, i) => {
    if (i > 0) {
      const op = operators[i - 1];
      if (op === undefined) return;
      const precedence = binaryPrecedence[op];
      while (pending.length > 0) {
        const top = pending[pending.length - 1]!;
        const topPrecedence = top.kind === 'not' ? notPrecedence : binaryPrecedence[top.op];
        if (topPrecedence < precedence) break;
        apply();
      }
      pending.push({ kind: 'binary', op });
    }
    // A prefixed operand's `not`s and its operand are read here, where the precedence is known.
    const prefixed: Children<C.PrefixedOperandCstNode> = operand.children;
    for (const not of readAll(prefixed.Not)) pending.push({ kind: 'not', token: not });
    values.push(one(prefixed.unary, unary));
  });
  while (pending.length > 0) apply();
  return values[0];
}

function binaryOperator(c: Children<C.BinaryOperatorCstNode>): A.BinaryOp | undefined {
  const comparison = c.comparisonOperator?.[0];
  if (comparison !== undefined) return comparisonOperator(comparison.children);
  if (read(c.In) !== undefined) return read(c.Not) !== undefined ? 'not in' : 'in';
  return pick<A.BinaryOp>([[c.Or, 'or'], [c.And, 'and'], [c.Plus, '+'], [c.Minus, '-'], [c.Star, '*'], [c.Slash, '/']])?.value;
}

function unary(c: Children<C.UnaryCstNode>): A.Expr | undefined {
  const minus = read(c.Minus);
  if (minus === undefined) return one(c.postfixExpression, postfixExpression);
  const operand = one(c.unary, unary);
  return { kind: 'unary', op: '-', operand, span: cover(minus, operand) };
}

export function postfixExpression(c: Children<C.PostfixExpressionCstNode>): A.Expr | undefined {
  let object = one(c.primary, primary);
  if (object === undefined) return undefined;
  const dots = readAll(c.Dot);
  dots.forEach((dot, i) => {
    const property = nameOf(read(c.members, i));
    object = { kind: 'member', object: object!, property, span: cover(object, dot, property) };
  });
  return object;
}

function primary(c: Children<C.PrimaryCstNode>): A.Expr | undefined {
  const number = read(c.NumberLiteral);
  if (number !== undefined) return numberOf(number);
  const string = read(c.StringLiteral);
  if (string !== undefined) return stringOf(string);
  const boolean = pick([[c.True, true], [c.False, false]]);
  if (boolean !== undefined) return { kind: 'bool', value: boolean.value, span: tokenSpan(boolean.token) };
  const corpus = nameOf(read(c.Corpus));
  if (corpus !== undefined) return { kind: 'name', name: corpus, span: corpus.span };
  return one(c.quantifier, quantifier) ?? one(c.conditional, conditional) ?? one(c.countCall, countCall) ?? one(c.aggregate, aggregate) ?? one(c.callOrName, callOrName) ?? one(c.parenthesized, parenthesized);
}

function quantifier(c: Children<C.QuantifierCstNode>): A.QuantifierExpr | undefined {
  const token = read(c.quantifier);
  const word = quantifierWords.find((w) => w === token?.image);
  if (token === undefined || word === undefined) return undefined;
  const variable = nameOf(read(c.Identifier));
  const collection = one(c.postfixExpression, postfixExpression);
  const where = c.filter?.[0]?.children;
  const filter = where === undefined ? undefined : one(where.expression, expression);
  const body = one(c.expression, expression);
  return {
    kind: 'quantifier', quantifier: word, variable, collection, filter, body,
    span: cover(token, variable, read(c.In), collection, read(where?.where), filter, read(c.Colon), body),
  };
}

function aggregate(c: Children<C.AggregateCstNode>): A.QuantifierExpr | undefined {
  const token = read(c.aggregator);
  const word = aggregateWords.find((w) => w === token?.image);
  if (token === undefined || word === undefined) return undefined;
  const variable = nameOf(read(c.variable));
  const collection = one(c.postfixExpression, postfixExpression);
  const where = c.filter?.[0]?.children;
  const filter = where === undefined ? undefined : one(where.expression, expression);
  const body = one(c.body, expression);
  const fallback = one(c.fallback, expression);
  return {
    kind: 'quantifier', quantifier: word, variable, collection, filter, body, fallback,
    span: cover(token, variable, read(c.In), collection, read(where?.where), filter, read(c.Colon), body, read(c.Else), fallback),
  };
}

function conditional(c: Children<C.ConditionalCstNode>): A.ConditionalExpr | undefined {
  const keyword = read(c.If);
  if (keyword === undefined) return undefined;
  const condition = one(c.condition, expression);
  const whenTrue = one(c.whenTrue, expression);
  const whenFalse = one(c.whenFalse, expression);
  return { kind: 'if', condition, whenTrue, whenFalse, span: cover(keyword, condition, read(c.Then), whenTrue, read(c.Else), whenFalse) };
}

function countCall(c: Children<C.CountCallCstNode>): A.CallExpr | undefined {
  const keyword = read(c.Count);
  if (keyword === undefined) return undefined;
  const list = one(c.argumentList, argumentList);
  return { kind: 'call', callee: { text: keyword.image, span: tokenSpan(keyword) }, args: list?.args ?? [], span: cover(keyword, list?.span) };
}

function callOrName(c: Children<C.CallOrNameCstNode>): A.NameRef | A.CallExpr | undefined {
  const name = nameOf(read(c.Identifier));
  if (name === undefined) return undefined;
  const list = one(c.argumentList, argumentList);
  if (list === undefined) return { kind: 'name', name, span: name.span };
  return { kind: 'call', callee: name, args: list.args, span: cover(name, list.span) };
}

function argumentList(c: Children<C.ArgumentListCstNode>): { args: A.Expr[]; span: Span } {
  const args = each(c.expression, expression);
  return { args, span: cover(read(c.LParen), args, read(c.RParen)) };
}

function parenthesized(c: Children<C.ParenthesizedCstNode>): A.Expr | undefined {
  return one(c.expression, expression);
}
