import type { IToken, TokenType } from 'chevrotain';
import { issueCodes } from '../problems/issue-codes.js';
import { maxExpressionNesting } from '../problems/limits.js';
import type { Problem } from '../problems/problem.js';
import type { Span } from '../problems/span.js';
import * as T from './tokens.js';
import { startsAggregate } from './tokens.js';

// The nesting limit, applied to the tokens before the parser sees them: the parser recurses once
// per parenthesis, unary minus and quantifier, and every later walk once per level of the tree, so
// a spec nested deeper than a stack holds must be cut short before any of them runs.
//
// The depth at a token is the number of open parentheses (and argument lists) around it plus, in
// each of them, the operators, `not`s, unary minuses, `.`s, quantifiers, aggregations and `if`s read since it opened (or
// since its last comma). That bounds both the parser's recursion and the depth of the tree built
// (a tree is never deeper than it has operators), whatever the precedence.

const operators = new Set<TokenType>([
  T.Or, T.And, T.Not, T.In, T.EqEq, T.NotEq, T.Less, T.LessEq, T.Greater, T.GreaterEq,
  T.Plus, T.Minus, T.Star, T.Slash, T.Dot, T.If, ...T.quantifierTokens,
]);
/** `then` and `else` separate the parts of a conditional: inside an expression, and no level of their own. */
const separators = new Set<TokenType>([T.Then, T.Else]);
/** Tokens that are an operand by themselves; `corpus` is the corpus id set inside expressions. */
const primaries = new Set<TokenType>([T.Identifier, T.NumberLiteral, T.StringLiteral, T.True, T.False, T.Corpus]);
const operandEnds = new Set<TokenType>([...primaries, T.RParen]);
/** Tokens that only stand outside expressions: each ends whatever expression came before. */
const outside = new Set<TokenType>([...T.keywordTokens.filter((k) => !operators.has(k) && !primaries.has(k) && !separators.has(k)), T.LBrace, T.RBrace, T.Equals]);

export interface LimitedTokens {
  /** The tokens to parse: each part nested too deep is left out. */
  readonly tokens: IToken[];
  readonly problems: Problem[];
  /** From each left-out part to its statement's end: a parse error there is a consequence of the cut, not the author's. */
  readonly cuts: Span[];
}

const tokenEnd = (t: IToken): number => (t.endOffset ?? t.startOffset) + 1;

/**
 * Leaves out, from the token crossing the nesting limit, the rest of what it opens (the
 * parenthesis it starts, or the rest of its operand list up to the `)` or `,` that ends it),
 * reporting one `nesting-too-deep` problem on that token.
 */
export function limitNesting(tokens: readonly IToken[], textLength: number): LimitedTokens {
  const kept: IToken[] = [];
  const problems: Problem[] = [];
  const cuts: Span[] = [];
  // Operators counted in each open parenthesis; the first entry is the statement outside them all.
  let frames: number[] = [0];
  let counted = 0;
  // In a derived reward (`R = R0 - 1.2 * L - 0.8 * X`) each sign at the top level starts a new term.
  let derived = false;
  let rewardHeader = false;
  const depth = (): number => frames.length - 1 + counted;

  const cut = (from: number, resume: number): number => {
    const t = tokens[from]!;
    const previous = kept[kept.length - 1];
    // From the end of the last token kept, where an error about the missing rest is placed; a
    // `count` whose argument list is cut is no expression by itself, so the error lands on it.
    const start = previous === undefined ? t.startOffset
      : previous.tokenType === T.Count && t.tokenType === T.LParen ? previous.startOffset
        : Math.min(tokenEnd(previous), t.startOffset);
    problems.push({
      code: issueCodes.nestingTooDeep,
      severity: 'error',
      message: `this expression nests more than ${maxExpressionNesting} levels deep (each open parenthesis adds one, and so does each operator, 'not', unary minus, '.', quantifier and 'if' inside it): name parts of it as signals`,
      span: { start: t.startOffset, end: tokenEnd(t) },
    });
    // Up to the statement's end: what the parser reads after the cut is one expression with a part
    // missing, so an operator left dangling may take the next term's name as its operand.
    const end = endOfStatement(tokens, resume);
    cuts.push({ start, end: end < tokens.length ? tokens[end]!.startOffset : textLength });
    return resume;
  };

  let i = 0;
  while (i < tokens.length) {
    const t = tokens[i]!;
    const type = t.tokenType;
    const previous = kept[kept.length - 1];
    if (outside.has(type)) {
      frames = [0];
      counted = 0;
      derived = type === T.Equals && rewardHeader;
      rewardHeader = type === T.Reward;
    } else if (frames.length === 1 && previous !== undefined && operandEnds.has(previous.tokenType) && primaries.has(type) && !continuesOperand(tokens, i, previous)) {
      // Two operands in a row at the top level: the next reward term (`a 1 * x  b -2 * y`) has begun.
      frames[0] = 0;
      counted = 0;
    } else if (frames.length === 1 && derived && (type === T.Plus || type === T.Minus)) {
      frames[0] = 0;
      counted = 0;
    } else if (type === T.LParen) {
      frames.push(0);
      if (depth() > maxExpressionNesting) {
        frames.pop();
        i = cut(i, endOfParenthesis(tokens, i));
        continue;
      }
    } else if (type === T.RParen) {
      if (frames.length > 1) counted -= frames.pop()!;
    } else if (type === T.Comma) {
      counted -= frames[frames.length - 1]!;
      frames[frames.length - 1] = 0;
    } else if (opensLevel(tokens, i, kept)) {
      frames[frames.length - 1]!++;
      counted++;
      if (depth() > maxExpressionNesting) {
        frames[frames.length - 1]!--;
        counted--;
        i = cut(i, endOfOperand(tokens, i, frames.length === 1, derived));
        continue;
      }
    }
    kept.push(t);
    i++;
  }
  return { tokens: kept, problems, cuts };
}

const quantifiers = new Set<TokenType>(T.quantifierTokens);

/** Whether token `i` starts an aggregation (`sum s in …`): a name that opens a level like a quantifier. */
function isAggregateWord(tokens: readonly IToken[], i: number): boolean {
  const [a, b, c] = [tokens[i], tokens[i + 1], tokens[i + 2]];
  return a !== undefined && b !== undefined && c !== undefined && startsAggregate(a, b, c);
}

/**
 * Whether name `i` after an operand continues the expression rather than starting the next reward
 * term: a quantifier's `where`, and the variable after an aggregation's word (`sum s`).
 */
function continuesOperand(tokens: readonly IToken[], i: number, previous: IToken | undefined): boolean {
  const t = tokens[i]!;
  if (t.tokenType !== T.Identifier) return false;
  if (t.image === 'where') return true;
  return previous !== undefined && tokens[i + 1]?.tokenType === T.In && startsAggregate(previous, t, tokens[i + 1]!);
}

/** Whether token `i` is an operator: the `in` of a quantifier's head and the `count` of `count(…)` belong to what they start. */
function opensLevel(tokens: readonly IToken[], i: number, kept: readonly IToken[]): boolean {
  const type = tokens[i]!.tokenType;
  if (type === T.Identifier) return isAggregateWord(tokens, i);
  if (!operators.has(type)) return false;
  if (type === T.In) {
    const [quantifier, variable] = kept.slice(-2);
    const head = quantifier !== undefined && variable !== undefined
      && (quantifiers.has(quantifier.tokenType) || startsAggregate(quantifier, variable, tokens[i]!));
    return !(head && variable.tokenType === T.Identifier);
  }
  return !(type === T.Count && tokens[i + 1]?.tokenType === T.LParen);
}

/** The index after the `)` that closes the `(` at `from` (or of the first token outside any expression). */
function endOfParenthesis(tokens: readonly IToken[], from: number): number {
  let balance = 0;
  for (let j = from; j < tokens.length; j++) {
    const type = tokens[j]!.tokenType;
    if (outside.has(type)) return j;
    if (type === T.LParen) balance++;
    else if (type === T.RParen && --balance === 0) return j + 1;
  }
  return tokens.length;
}

/** The index of the first token from `from` that stands outside expressions (or the end). */
function endOfStatement(tokens: readonly IToken[], from: number): number {
  let j = from;
  while (j < tokens.length && !outside.has(tokens[j]!.tokenType)) j++;
  return j;
}

/** The index of the token that ends the operand list `from` stands in: its `)` or `,`, or the statement's end. */
function endOfOperand(tokens: readonly IToken[], from: number, topLevel: boolean, derived: boolean): number {
  let balance = 0;
  for (let j = from; j < tokens.length; j++) {
    const type = tokens[j]!.tokenType;
    if (outside.has(type)) return j;
    if (type === T.LParen) {
      balance++;
    } else if (type === T.RParen) {
      if (balance === 0) return j;
      balance--;
    } else if (balance === 0 && type === T.Comma) {
      return j;
    } else if (balance === 0 && topLevel && j > from) {
      const previous = tokens[j - 1]!.tokenType;
      if (operandEnds.has(previous) && primaries.has(type) && !continuesOperand(tokens, j, tokens[j - 1])) return j;
      if (derived && (type === T.Plus || type === T.Minus)) return j;
    }
  }
  return tokens.length;
}
