import { DocumentHighlightKind, type DocumentHighlight, type Location } from 'vscode-languageserver/node';
import type { DocumentAnalysis } from './document-analysis.js';
import { isNavigable, occurrenceAt, occurrencesOf } from '../ide/occurrences.js';

/** Declared names, attacks and quantifier variables jump to where they are declared. */
export function definition(analysis: DocumentAnalysis, offset: number): Location | null {
  const symbol = occurrenceAt(analysis, offset)?.symbol;
  if (symbol === undefined || !isNavigable(symbol)) return null;
  return { uri: analysis.uri, range: analysis.lines.range(symbol.nameSpan) };
}

export function references(analysis: DocumentAnalysis, offset: number, includeDeclaration: boolean): Location[] {
  const symbol = occurrenceAt(analysis, offset)?.symbol;
  if (symbol === undefined || !isNavigable(symbol)) return [];
  return occurrencesOf(analysis, symbol, includeDeclaration).map((o) => ({ uri: analysis.uri, range: analysis.lines.range(o.span) }));
}

/** The declaration is where the name is written (Write); every use reads it (Read). */
export function documentHighlights(analysis: DocumentAnalysis, offset: number): DocumentHighlight[] {
  const symbol = occurrenceAt(analysis, offset)?.symbol;
  if (symbol === undefined || !isNavigable(symbol)) return [];
  return occurrencesOf(analysis, symbol, true).map((o) => ({
    range: analysis.lines.range(o.span),
    kind: o.isDeclaration ? DocumentHighlightKind.Write : DocumentHighlightKind.Read,
  }));
}
