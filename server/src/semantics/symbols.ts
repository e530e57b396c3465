import type { AttackItem, AuditDecl, ComparisonDecl, Decl } from '../syntax/ast.js';
import type { Span } from '../problems/span.js';
import type { BuiltinField, BuiltinFunction, BuiltinMember } from '../language/builtins.js';
import type { Type, Typed, Visibility } from '../language/types.js';

/** A top-level declaration. One object per declaration, so occurrences can be compared by identity. */
export interface DeclSymbol {
  readonly kind: Decl['kind'];
  readonly name: string;
  readonly decl: Decl;
  readonly nameSpan: Span;
}

export interface AttackSymbol {
  readonly kind: 'attack';
  readonly name: string;
  readonly item: AttackItem;
  readonly audit: AuditDecl | ComparisonDecl;
  readonly nameSpan: Span;
}

/** The bound variable of a quantifier (`c` in `any c in citations: …`). */
export interface VariableSymbol {
  readonly kind: 'variable';
  readonly name: string;
  readonly nameSpan: Span;
  readonly type: Type;
  readonly visibility: Visibility;
}

export interface FieldSymbol {
  readonly kind: 'field';
  readonly field: BuiltinField;
}

export interface MemberSymbol {
  readonly kind: 'member';
  readonly member: BuiltinMember;
  readonly owner: Type;
}

export interface FunctionSymbol {
  readonly kind: 'function';
  readonly fn: BuiltinFunction;
}

export type AuditWordCategory = 'attack-kind' | 'generator' | 'metric' | 'selection' | 'option' | 'audit-option' | 'pool-selection';
export interface AuditWordSymbol {
  readonly kind: 'audit-word';
  readonly category: AuditWordCategory;
  readonly name: string;
  readonly doc: string;
}

export type SymbolInfo = DeclSymbol | AttackSymbol | VariableSymbol | FieldSymbol | MemberSymbol | FunctionSymbol | AuditWordSymbol;

/** One place where a name is written: its declaration or a use. */
export interface Occurrence {
  readonly span: Span;
  readonly symbol: SymbolInfo;
  readonly isDeclaration: boolean;
}

export function isDeclSymbol(symbol: SymbolInfo): symbol is DeclSymbol {
  return symbol.kind !== 'attack' && symbol.kind !== 'variable' && symbol.kind !== 'field' && symbol.kind !== 'member' && symbol.kind !== 'function' && symbol.kind !== 'audit-word';
}

export interface DeclInfo extends Typed {
  /** Where an oracle declaration first reads gold, directly or through another declaration. */
  readonly oracleSource?: Span;
}

export const declKindNames: Record<Decl['kind'], string> = {
  corpus: 'a corpus',
  logged: 'a logged field',
  edit: 'an edit',
  pool: 'a pool',
  signal: 'a signal',
  detector: 'a detector',
  reward: 'a reward',
  audit: 'an audit',
  training: 'a training-signal audit',
  comparison: 'a policy comparison',
};
