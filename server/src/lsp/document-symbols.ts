import { SymbolKind, type DocumentSymbol, type SymbolInformation } from 'vscode-languageserver/node';
import type { AuditDecl, Decl, RewardDecl } from '../syntax/ast.js';
import type { Span } from '../problems/span.js';
import { formatWeight, sourceText, typeAndVisibility } from '../ide/describe.js';
import type { DocumentAnalysis } from './document-analysis.js';

/** How each declaration shows in the outline; semantic-tokens.ts and completion.ts use the same picture. */
export const declSymbolKinds: Record<Decl['kind'], SymbolKind> = {
  corpus: SymbolKind.File,
  logged: SymbolKind.Field,
  edit: SymbolKind.Operator,
  pool: SymbolKind.File,
  signal: SymbolKind.Variable,
  detector: SymbolKind.Event,
  reward: SymbolKind.Function,
  audit: SymbolKind.Namespace,
  training: SymbolKind.Namespace,
  comparison: SymbolKind.Namespace,
};

function symbol(analysis: DocumentAnalysis, name: string, kind: SymbolKind, span: Span, nameSpan: Span, detail?: string, children?: DocumentSymbol[]): DocumentSymbol {
  return {
    name,
    kind,
    range: analysis.lines.range(span),
    selectionRange: analysis.lines.range(nameSpan),
    ...(detail === undefined ? {} : { detail }),
    ...(children === undefined ? {} : { children }),
  };
}

function rewardTerms(analysis: DocumentAnalysis, reward: RewardDecl): DocumentSymbol[] {
  return reward.terms.map((term) => symbol(analysis, term.name.text, SymbolKind.Field, term.span, term.name.span, formatWeight(term.weight)));
}

function auditChildren(analysis: DocumentAnalysis, audit: AuditDecl): DocumentSymbol[] {
  const children: DocumentSymbol[] = [];
  for (const item of audit.items) {
    if (item.kind === 'attack' && item.name !== undefined) {
      const kind = item.attackKind?.text;
      const targets = item.targets.map((t) => t.text).join(', ');
      const detail = `${kind ?? '?'}${targets === '' ? '' : ` → ${targets}`}`;
      children.push(symbol(analysis, item.name.text, SymbolKind.Method, item.span, item.name.span, detail));
    } else if (item.kind === 'expect-metric' || item.kind === 'expect-minimal') {
      // `expect` is five characters; the statement itself is the clearest name for the line.
      const statement = sourceText(analysis, item.span).replace(/^expect\s+/, '').replace(/\s+/g, ' ');
      children.push(symbol(analysis, statement, SymbolKind.Boolean, item.span, item.metric.span, 'expect'));
    }
  }
  return children;
}

function detailOf(analysis: DocumentAnalysis, decl: Decl): string | undefined {
  if (decl.kind === 'corpus' || decl.kind === 'pool') return decl.path?.value;
  const info = analysis.analyzed.model.declInfo.get(decl);
  return info === undefined ? undefined : typeAndVisibility(info.type, info.visibility);
}

export function documentSymbols(analysis: DocumentAnalysis): DocumentSymbol[] {
  const symbols: DocumentSymbol[] = [];
  for (const decl of analysis.analyzed.parsed.spec.decls) {
    if (decl.name === undefined) continue;
    const children = decl.kind === 'reward' ? rewardTerms(analysis, decl) : decl.kind === 'audit' ? auditChildren(analysis, decl) : undefined;
    symbols.push(symbol(analysis, decl.name.text, declSymbolKinds[decl.kind], decl.span, decl.name.span, detailOf(analysis, decl), children));
  }
  return symbols;
}

/** For clients without hierarchical outlines: the same symbols, flattened with their container. */
export function flatSymbols(analysis: DocumentAnalysis, symbols: readonly DocumentSymbol[], container?: string): SymbolInformation[] {
  return symbols.flatMap((s) => [
    { name: s.name, kind: s.kind, location: { uri: analysis.uri, range: s.range }, ...(container === undefined ? {} : { containerName: container }) },
    ...flatSymbols(analysis, s.children ?? [], s.name),
  ]);
}
