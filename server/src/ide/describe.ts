import { builtinFields, type BuiltinField, type BuiltinFunction, type BuiltinMember } from '../language/builtins.js';
import { typeNames, type Type, type Visibility } from '../language/types.js';
import type { AttackSymbol, AuditWordCategory, DeclSymbol, VariableSymbol } from '../semantics/symbols.js';
import type { Decl, Expr, Generator, RewardDecl, Term } from '../syntax/ast.js';
import type { Span } from '../problems/span.js';
import type { AnalyzedText } from './analyzed-text.js';

// Text shared by hover and completion, so a name reads the same in both places.

export function sourceText(analysis: AnalyzedText, span: Span): string {
  return analysis.text.slice(span.start, span.end);
}

export function typeAndVisibility(type: Type, visibility: Visibility): string {
  return `${typeNames[type]}, ${visibility}`;
}

/** `detector \`L\`: boolean, visible` — the first line of a declared name's hover. */
export function declHeadline(analysis: AnalyzedText, symbol: DeclSymbol): string {
  const info = analysis.analyzed.model.declInfo.get(symbol.decl);
  const typed = info === undefined ? '' : `: ${typeAndVisibility(info.type, info.visibility)}`;
  return `${symbol.kind} \`${symbol.name}\`${typed}`;
}

export function declDoc(decl: Decl): string | undefined {
  return 'doc' in decl ? decl.doc?.value : undefined;
}

/** The short text after a completion label: a declaration's type, or its linked path. */
export function declDetail(analysis: AnalyzedText, symbol: DeclSymbol): string {
  const decl = symbol.decl;
  if (decl.kind === 'corpus' || decl.kind === 'pool') return `${decl.kind} "${decl.path?.value ?? ''}"`;
  const info = analysis.analyzed.model.declInfo.get(decl);
  return info === undefined ? decl.kind : `${decl.kind}: ${typeAndVisibility(info.type, info.visibility)}`;
}

export function formatWeight(weight: number | undefined): string {
  return weight === undefined ? '?' : String(weight);
}

/** `1 × \`token_f1(answer, gold.answers)\`` (oracle): a term's weight, expression and taint. */
export function termText(analysis: AnalyzedText, term: Term): string {
  const body = term.body === undefined ? '?' : `\`${sourceText(analysis, term.body.span)}\``;
  const oracle = analysis.analyzed.model.termInfo.get(term)?.visibility === 'oracle' ? ' (oracle)' : '';
  return `${formatWeight(term.weight)} × ${body}${oracle}`;
}

/** The terms of a reward as markdown list lines: `answer` 1.0 × `token_f1(…)`. */
export function rewardTermLines(analysis: AnalyzedText, reward: RewardDecl): string[] {
  return reward.terms.map((term) => (term.derived ? `- ${termText(analysis, term)}` : `- \`${term.name.text}\` ${termText(analysis, term)}`));
}

/** A reward block's term whose name is at `offset` (derived terms are named by their operand). */
export function termNamedAt(analysis: AnalyzedText, offset: number): { reward: RewardDecl; term: Term } | undefined {
  for (const decl of analysis.analyzed.parsed.spec.decls) {
    if (decl.kind !== 'reward' || offset < decl.span.start || offset > decl.span.end) continue;
    const term = decl.terms.find((t) => !t.derived && t.name.span.start <= offset && offset <= t.name.span.end);
    if (term !== undefined) return { reward: decl, term };
  }
  return undefined;
}

export function generatorText(analysis: AnalyzedText, generator: Generator): string {
  return sourceText(analysis, generator.span);
}

export function attackHeadline(symbol: AttackSymbol): string {
  const kind = symbol.item.attackKind?.text;
  const audit = symbol.audit.name?.text;
  return `attack \`${symbol.name}\`${kind !== undefined && kind !== symbol.name ? ` (${kind})` : ''}${audit !== undefined ? ` in audit \`${audit}\`` : ''}`;
}

export function variableHeadline(symbol: VariableSymbol): string {
  return `variable \`${symbol.name}\`: ${typeAndVisibility(symbol.type, symbol.visibility)}`;
}

export function fieldHeadline(field: BuiltinField): string {
  return `field \`${field.name}\`: ${typeAndVisibility(field.type, field.visibility)}`;
}

/** A member is as visible as the built-in field of its owner's type (`gold.*` is oracle). */
export function memberVisibility(owner: Type): Visibility {
  return builtinFields.find((f) => f.type === owner)?.visibility ?? 'visible';
}

export function memberHeadline(member: BuiltinMember, owner: Type): string {
  const prefix = owner === 'gold' ? 'gold.' : '';
  return `field \`${prefix}${member.name}\` of ${typeNames[owner]}: ${typeAndVisibility(member.type, memberVisibility(owner))}`;
}

export function functionDoc(fn: BuiltinFunction): string {
  return `${fn.doc}\n\nThe result is oracle exactly when one of the arguments is.`;
}

export const auditWordCategoryNames: Record<AuditWordCategory, string> = {
  'attack-kind': 'attack kind',
  generator: 'generator',
  metric: 'metric',
  selection: 'selection',
  option: 'option',
  'audit-option': 'audit option',
  'pool-selection': 'pool selection',
};

/** Fenced source in the hover, tagged with the language id so clients can highlight it. */
export function codeBlock(code: string): string {
  return `\`\`\`reward\n${code}\n\`\`\``;
}

export function exprOf(decl: Decl): Expr | undefined {
  return decl.kind === 'signal' || decl.kind === 'detector' ? decl.body : undefined;
}
