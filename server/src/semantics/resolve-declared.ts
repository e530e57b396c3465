import type { Name } from '../syntax/ast.js';
import { issueCodes } from '../problems/issue-codes.js';
import { report, suggest, type Analysis } from './analysis.js';
import { declKindNames, type DeclSymbol } from './symbols.js';

// A name that must be a declaration of one kind (a block's reward, corpus or pool; an option's
// reward), resolved once for the audit checks, the block checks and the audit options.

/** Resolves a declared name that must be of one kind; reports unknown names and wrong kinds. */
export function resolveDeclared(a: Analysis, name: Name, kind: DeclSymbol['kind']): DeclSymbol | undefined {
  const symbol = a.globals.get(name.text);
  if (symbol === undefined) {
    const suggestion = suggest(a, name.text, () => [...a.globals.values()].filter((s) => s.kind === kind).map((s) => s.name));
    report(a, issueCodes.unknownName, 'error', name.span,
      `unknown ${kind} '${name.text}'${suggestion ? `; did you mean '${suggestion}'?` : ''}`, suggestion === undefined ? {} : { data: { suggestion } });
    return undefined;
  }
  a.occurrences.push({ span: name.span, symbol, isDeclaration: false });
  if (symbol.kind !== kind) {
    report(a, issueCodes.kindMismatch, 'error', name.span, `'${name.text}' is ${declKindNames[symbol.kind]}, not ${declKindNames[kind]}`);
    return undefined;
  }
  return symbol;
}
