import { SemanticTokensBuilder, type SemanticTokens, type SemanticTokensLegend } from 'vscode-languageserver/node';
import type { Decl } from '../syntax/ast.js';
import type { Span } from '../problems/span.js';
import type { Occurrence, SymbolInfo } from '../semantics/symbols.js';
import type { Visibility } from '../language/types.js';
import { memberVisibility } from '../ide/describe.js';
import type { DocumentAnalysis } from './document-analysis.js';

// Names get colours from what they resolve to; keywords, strings and numbers are left to the
// TextMate grammar. Only standard token types are used, so every theme colours them.
const tokenTypes = ['namespace', 'class', 'variable', 'event', 'function', 'method', 'parameter', 'property', 'enumMember'] as const;
// `oracle` is ours: names whose value reads gold labels, for themes that want to flag them.
const tokenModifiers = ['declaration', 'readonly', 'defaultLibrary', 'oracle'] as const;

type TokenType = (typeof tokenTypes)[number];
type TokenModifier = (typeof tokenModifiers)[number];

export const semanticTokensLegend: SemanticTokensLegend = { tokenTypes: [...tokenTypes], tokenModifiers: [...tokenModifiers] };

const declTokenTypes: Record<Decl['kind'], TokenType> = {
  corpus: 'namespace',
  logged: 'property',
  edit: 'method',
  pool: 'namespace',
  signal: 'variable',
  detector: 'event',
  reward: 'function',
  audit: 'class',
  training: 'class',
  comparison: 'class',
};

interface Classified {
  readonly type: TokenType;
  readonly modifiers: readonly TokenModifier[];
}

function oracleIf(visibility: Visibility | undefined): TokenModifier[] {
  return visibility === 'oracle' ? ['oracle'] : [];
}

function classify(analysis: DocumentAnalysis, symbol: SymbolInfo): Classified {
  switch (symbol.kind) {
    case 'attack':
      return { type: 'method', modifiers: [] };
    case 'variable':
      return { type: 'parameter', modifiers: oracleIf(symbol.visibility) };
    case 'field':
      return { type: 'property', modifiers: ['defaultLibrary', 'readonly', ...oracleIf(symbol.field.visibility)] };
    case 'member':
      return { type: 'property', modifiers: ['defaultLibrary', 'readonly', ...oracleIf(memberVisibility(symbol.owner))] };
    case 'function':
      return { type: 'function', modifiers: ['defaultLibrary'] };
    case 'audit-word':
      return { type: 'enumMember', modifiers: ['defaultLibrary'] };
    default: {
      const visibility = analysis.analyzed.model.declInfo.get(symbol.decl)?.visibility;
      const readonly: TokenModifier[] = symbol.kind === 'signal' || symbol.kind === 'detector' ? ['readonly'] : [];
      return { type: declTokenTypes[symbol.kind], modifiers: [...readonly, ...oracleIf(visibility)] };
    }
  }
}

function encodeModifiers(modifiers: readonly TokenModifier[]): number {
  return modifiers.reduce((bits, m) => bits | (1 << tokenModifiers.indexOf(m)), 0);
}

interface Placed {
  readonly span: Span;
  readonly classified: Classified;
}

/** Term names of a reward block are declared there but are not symbols of the model. */
function termNames(analysis: DocumentAnalysis): Placed[] {
  return analysis.analyzed.parsed.spec.decls.flatMap((decl) =>
    decl.kind !== 'reward'
      ? []
      : decl.terms
          .filter((t) => !t.derived)
          .map((t) => ({
            span: t.name.span,
            classified: { type: 'property' as const, modifiers: ['declaration' as const, ...oracleIf(analysis.analyzed.model.termInfo.get(t)?.visibility)] },
          })),
  );
}

function fromOccurrence(analysis: DocumentAnalysis, o: Occurrence): Placed {
  const classified = classify(analysis, o.symbol);
  return { span: o.span, classified: o.isDeclaration ? { ...classified, modifiers: ['declaration', ...classified.modifiers] } : classified };
}

export function semanticTokens(analysis: DocumentAnalysis): SemanticTokens {
  const placed = [...analysis.analyzed.model.occurrences.map((o) => fromOccurrence(analysis, o)), ...termNames(analysis)]
    .sort((x, y) => x.span.start - y.span.start);
  const builder = new SemanticTokensBuilder();
  let lastEnd = -1;
  for (const { span, classified } of placed) {
    // One token per place: a shorthand attack name is recorded once, but never emit overlaps.
    if (span.start < lastEnd || span.end <= span.start) continue;
    const start = analysis.lines.position(span.start);
    const end = analysis.lines.position(span.end);
    if (end.line !== start.line) continue;
    builder.push(start.line, start.character, end.character - start.character, tokenTypes.indexOf(classified.type), encodeModifiers(classified.modifiers));
    lastEnd = span.end;
  }
  return builder.build();
}
