import { CstParser } from 'chevrotain';
import { defaultedAggregates } from '../problems/vocabulary.js';
import * as T from './tokens.js';
import { startsAggregate } from './tokens.js';

const defaulted = new Set<string>(defaultedAggregates);

/**
 * The expression half of the grammar (operands, operators, calls, quantifiers, conditionals, and
 * the signed numbers and comparisons the blocks share). The declarations and blocks extend it in
 * parser.ts, which runs Chevrotain's self-analysis once every rule is defined; the CST → AST step
 * is split the same way (build-expression.ts).
 */
export class ExpressionGrammar extends CstParser {
  constructor() {
    super(T.allTokens, { recoveryEnabled: true, nodeLocationTracking: 'none', maxLookahead: 3 });
  }

  protected signedNumber = this.RULE('signedNumber', () => {
    this.OPTION(() => this.OR([{ ALT: () => this.CONSUME(T.Plus) }, { ALT: () => this.CONSUME(T.Minus) }]));
    this.CONSUME(T.NumberLiteral);
  });

  protected comparisonOperator = this.RULE('comparisonOperator', () => {
    this.OR([
      { ALT: () => this.CONSUME(T.EqEq) },
      { ALT: () => this.CONSUME(T.NotEq) },
      { ALT: () => this.CONSUME(T.LessEq) },
      { ALT: () => this.CONSUME(T.GreaterEq) },
      { ALT: () => this.CONSUME(T.Less) },
      { ALT: () => this.CONSUME(T.Greater) },
    ]);
  });

  // One flat rule for every binary operator: a precedence ladder of rules builds about ten CST
  // nodes per operand, and their garbage dominated keystroke parsing. build-ast.ts applies the
  // precedence (operator-precedence parsing), so the grammar stays unambiguous and small.
  public expression = this.RULE('expression', () => {
    this.SUBRULE(this.prefixedOperand, { LABEL: 'operands' });
    this.MANY(() => {
      this.SUBRULE(this.binaryOperator, { LABEL: 'operators' });
      this.SUBRULE2(this.prefixedOperand, { LABEL: 'operands' });
    });
  });

  protected prefixedOperand = this.RULE('prefixedOperand', () => {
    this.MANY(() => this.CONSUME(T.Not));
    this.SUBRULE(this.unary);
  });

  protected binaryOperator = this.RULE('binaryOperator', () => {
    this.OR([
      { ALT: () => this.CONSUME(T.Or) },
      { ALT: () => this.CONSUME(T.And) },
      { ALT: () => this.SUBRULE(this.comparisonOperator) },
      { ALT: () => this.CONSUME(T.In) },
      {
        ALT: () => {
          this.CONSUME2(T.Not);
          this.CONSUME2(T.In);
        },
      },
      { ALT: () => this.CONSUME(T.Plus) },
      { ALT: () => this.CONSUME(T.Minus) },
      { ALT: () => this.CONSUME(T.Star) },
      { ALT: () => this.CONSUME(T.Slash) },
    ]);
  });

  protected unary = this.RULE('unary', () => {
    this.OR([
      {
        ALT: () => {
          this.CONSUME(T.Minus);
          this.SUBRULE(this.unary);
        },
      },
      { ALT: () => this.SUBRULE(this.postfixExpression) },
    ]);
  });

  protected postfixExpression = this.RULE('postfixExpression', () => {
    this.SUBRULE(this.primary);
    this.MANY(() => {
      this.CONSUME(T.Dot);
      this.CONSUME(T.Identifier, { LABEL: 'members' });
    });
  });

  protected primary = this.RULE('primary', () => {
    this.OR([
      { ALT: () => this.CONSUME(T.NumberLiteral) },
      { ALT: () => this.CONSUME(T.StringLiteral) },
      { ALT: () => this.CONSUME(T.True) },
      { ALT: () => this.CONSUME(T.False) },
      // `corpus` is a keyword at the top level and the corpus id set inside expressions.
      { ALT: () => this.CONSUME(T.Corpus) },
      { ALT: () => this.SUBRULE(this.quantifier) },
      { ALT: () => this.SUBRULE(this.conditional) },
      { ALT: () => this.SUBRULE(this.countCall) },
      // Before `callOrName`: `sum s in steps` is an aggregation, `sum` alone or `sum(…)` a name or a call.
      { GATE: () => startsAggregate(this.LA(1), this.LA(2), this.LA(3)), ALT: () => this.SUBRULE(this.aggregate) },
      { ALT: () => this.SUBRULE(this.callOrName) },
      { ALT: () => this.SUBRULE(this.parenthesized) },
    ]);
  });

  // One alternative per quantifier keyword of the vocabulary, each read as the `quantifier` child.
  protected quantifier = this.RULE('quantifier', () => {
    this.OR(T.quantifierTokens.map((token) => ({ ALT: () => this.CONSUME(token, { LABEL: 'quantifier' }) })));
    this.CONSUME(T.Identifier);
    this.CONSUME(T.In);
    this.SUBRULE(this.postfixExpression);
    this.SUBRULE(this.filter);
    this.CONSUME(T.Colon);
    this.SUBRULE(this.expression);
  });

  // `sum s in steps where s.type == "search": s.step_reward`; `max`, `min` and `mean` end with
  // `else D`, taken only after them (so `if c then sum x in C: e else 0` keeps its `else`).
  protected aggregate = this.RULE('aggregate', () => {
    const word = this.CONSUME(T.Identifier, { LABEL: 'aggregator' });
    this.CONSUME2(T.Identifier, { LABEL: 'variable' });
    this.CONSUME(T.In);
    this.SUBRULE(this.postfixExpression);
    this.SUBRULE(this.filter);
    this.CONSUME(T.Colon);
    this.SUBRULE(this.expression, { LABEL: 'body' });
    this.OPTION({
      GATE: () => defaulted.has(word.image),
      DEF: () => {
        this.CONSUME(T.Else);
        this.SUBRULE2(this.expression, { LABEL: 'fallback' });
      },
    });
  });

  // `where BOOL` after a quantifier's collection: a name read by position, as in edits.
  protected filter = this.RULE('filter', () => {
    this.OPTION({
      GATE: () => this.LA(1).tokenType === T.Identifier && this.LA(1).image === 'where',
      DEF: () => {
        this.CONSUME(T.Identifier, { LABEL: 'where' });
        this.SUBRULE(this.expression);
      },
    });
  });

  // `if c then a else b`: like a quantifier's body, the else branch reaches as far right as it can.
  protected conditional = this.RULE('conditional', () => {
    this.CONSUME(T.If);
    this.SUBRULE(this.expression, { LABEL: 'condition' });
    this.CONSUME(T.Then);
    this.SUBRULE2(this.expression, { LABEL: 'whenTrue' });
    this.CONSUME(T.Else);
    this.SUBRULE3(this.expression, { LABEL: 'whenFalse' });
  });

  // `count(citations)`: the keyword `count` also names the size function.
  protected countCall = this.RULE('countCall', () => {
    this.CONSUME(T.Count);
    this.SUBRULE(this.argumentList);
  });

  protected callOrName = this.RULE('callOrName', () => {
    this.CONSUME(T.Identifier);
    this.OPTION(() => this.SUBRULE(this.argumentList));
  });

  protected argumentList = this.RULE('argumentList', () => {
    this.CONSUME(T.LParen);
    this.MANY_SEP({ SEP: T.Comma, DEF: () => this.SUBRULE(this.expression) });
    this.CONSUME(T.RParen);
  });

  protected parenthesized = this.RULE('parenthesized', () => {
    this.CONSUME(T.LParen);
    this.SUBRULE(this.expression);
    this.CONSUME(T.RParen);
  });
}
