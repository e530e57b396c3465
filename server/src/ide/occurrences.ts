import type { IToken } from 'chevrotain';
import type { Span } from '../problems/span.js';
import type { Occurrence, SymbolInfo } from '../semantics/symbols.js';
import type { AnalyzedText } from './analyzed-text.js';

/**
 * The name written at `offset`. A cursor just after a name still counts (editors place it there
 * after a double click or while typing), but a name that really contains the offset wins.
 */
export function occurrenceAt(analysis: AnalyzedText, offset: number): Occurrence | undefined {
  let touching: Occurrence | undefined;
  for (const occurrence of analysis.analyzed.model.occurrences) {
    const { start, end } = occurrence.span;
    if (start <= offset && offset < end) return occurrence;
    if (offset === end) touching = occurrence;
  }
  return touching;
}

/** Symbols the user declared and can navigate to or rename (built-ins and audit words are not). */
export type NavigableSymbol = Extract<SymbolInfo, { nameSpan: Span }>;

export function isNavigable(symbol: SymbolInfo): symbol is NavigableSymbol {
  return 'nameSpan' in symbol;
}

/**
 * Every occurrence of one symbol, in document order. Symbols are compared by identity: the checker
 * makes one object per declaration, attack and quantifier variable and reuses it for each use.
 */
export function occurrencesOf(analysis: AnalyzedText, symbol: SymbolInfo, includeDeclaration: boolean): Occurrence[] {
  return analysis.analyzed.model.occurrences
    .filter((o) => o.symbol === symbol && (includeDeclaration || !o.isDeclaration))
    .sort((x, y) => x.span.start - y.span.start);
}

/** The token (comments excluded) that contains `offset` or ends right at it. */
export function tokenAt(analysis: AnalyzedText, offset: number): IToken | undefined {
  let touching: IToken | undefined;
  for (const token of analysis.analyzed.parsed.tokens) {
    const end = (token.endOffset ?? token.startOffset) + 1;
    if (token.startOffset > offset) break;
    if (offset < end) return token;
    if (offset === end) touching = token;
  }
  return touching;
}

export function tokenSpan(token: IToken): Span {
  return { start: token.startOffset, end: (token.endOffset ?? token.startOffset) + 1 };
}
