import type { IToken, TokenType } from 'chevrotain';
import * as T from '../syntax/tokens.js';

// Reading the tokens before the cursor: what completion-context.ts, completion-edits.ts,
// completion-audit-options.ts and import-clause.ts all ask of them.

/** The token is there and of one of the types. */
export const is = (token: IToken | undefined, ...types: TokenType[]): boolean => token !== undefined && types.includes(token.tokenType);

/** Tokens an operand can end with: after one, an operator or the next clause may follow. */
export const expressionEnds: readonly TokenType[] = [T.Identifier, T.NumberLiteral, T.StringLiteral, T.RParen, T.True, T.False, T.Corpus];

/** Parentheses open at the end of the tokens. */
export function parenDepth(tokens: readonly IToken[]): number {
  return tokens.reduce((depth, t) => depth + (is(t, T.LParen) ? 1 : is(t, T.RParen) ? -1 : 0), 0);
}
