import { ErrorCodes, ResponseError, type Range, type TextEdit, type WorkspaceEdit } from 'vscode-languageserver/node';
import { builtinFieldsByName, builtinNamed } from '../language/builtins.js';
import { keywords } from '../problems/vocabulary.js';
import type { DocumentAnalysis } from './document-analysis.js';
import { isNavigable, occurrenceAt, occurrencesOf, type NavigableSymbol } from '../ide/occurrences.js';

const identifier = /^[A-Za-z_][A-Za-z0-9_]*$/;
const reserved = new Set(keywords);

function renameTarget(analysis: DocumentAnalysis, offset: number): { symbol: NavigableSymbol; range: Range } | undefined {
  const occurrence = occurrenceAt(analysis, offset);
  if (occurrence === undefined || !isNavigable(occurrence.symbol)) return undefined;
  return { symbol: occurrence.symbol, range: analysis.lines.range(occurrence.span) };
}

export function prepareRename(analysis: DocumentAnalysis, offset: number): { range: Range; placeholder: string } | null {
  const target = renameTarget(analysis, offset);
  return target === undefined ? null : { range: target.range, placeholder: target.symbol.name };
}

/** Names the new name would clash with, in the namespace the symbol lives in. */
function clashes(analysis: DocumentAnalysis, symbol: NavigableSymbol, newName: string): boolean {
  switch (symbol.kind) {
    case 'attack':
      return symbol.audit.items.some((i) => i.kind === 'attack' && i.name?.text === newName);
    case 'variable':
      // A variable named like a declaration or field would hide it inside the quantifier's body.
      return analysis.analyzed.model.globals.has(newName) || builtinFieldsByName.has(newName);
    default:
      return analysis.analyzed.model.globals.has(newName) || builtinNamed(newName) !== undefined;
  }
}

export function rename(analysis: DocumentAnalysis, offset: number, newName: string): WorkspaceEdit | null {
  const target = renameTarget(analysis, offset);
  if (target === undefined) return null;
  const { symbol } = target;
  if (!identifier.test(newName) || reserved.has(newName)) {
    throw new ResponseError(ErrorCodes.InvalidParams, `'${newName}' is not a valid name: use letters, digits and _ and avoid keywords`);
  }
  if (newName !== symbol.name && clashes(analysis, symbol, newName)) {
    throw new ResponseError(ErrorCodes.InvalidParams, `'${newName}' is already taken`);
  }
  const edits: TextEdit[] = occurrencesOf(analysis, symbol, true).map((o) => {
    // `attack launder targets L` uses one word as name and kind: keep the kind, spell out the name.
    const shorthand = o.isDeclaration && symbol.kind === 'attack' && symbol.item.attackKind === symbol.item.name;
    return { range: analysis.lines.range(o.span), newText: shorthand ? `${newName} = ${symbol.name}` : newName };
  });
  return { changes: { [analysis.uri]: edits } };
}
