import { issueCodes } from '../problems/issue-codes.js';
import type { ConformsItem, Name } from '../syntax/ast.js';
import { report, suggest, type Analysis } from './analysis.js';
import { declKindNames, type DeclSymbol } from './symbols.js';

// `conforms A to B within TOL`: A reproduces B on every original row of the audit. Both sides are
// number-valued names (a reward, a signal, a detector or a field, logged or computed by a command),
// so the audit evaluates each once per original row (audit/conformance.ts).

/** The tolerance of a `conforms` line that writes none. */
export const defaultConformanceTolerance = 1e-6;

const valueKinds: readonly DeclSymbol['kind'][] = ['reward', 'signal', 'detector', 'logged'];

function checkSide(a: Analysis, name: Name | undefined): void {
  if (name === undefined) return;
  const symbol = a.globals.get(name.text);
  if (symbol === undefined) {
    const suggestion = suggest(a, name.text, () => [...a.globals.values()].filter((s) => valueKinds.includes(s.kind)).map((s) => s.name));
    report(a, issueCodes.unknownName, 'error', name.span, `unknown name '${name.text}'${suggestion ? `; did you mean '${suggestion}'?` : ''}`, suggestion === undefined ? {} : { data: { suggestion } });
    return;
  }
  a.occurrences.push({ span: name.span, symbol, isDeclaration: false });
  if (!valueKinds.includes(symbol.kind)) {
    report(a, issueCodes.badConformance, 'error', name.span, `'${name.text}' is ${declKindNames[symbol.kind]}: conforms compares rewards, signals, detectors and fields, one value per row`);
    return;
  }
  const type = a.declInfo.get(symbol.decl)?.type;
  if (type !== undefined && type !== 'number' && type !== 'boolean' && type !== 'error') {
    report(a, issueCodes.badConformance, 'error', name.span, `'${name.text}' is a field of ${type}: conforms compares numbers (a boolean counts as 0 or 1)`);
  }
}

export function checkConforms(a: Analysis, item: ConformsItem): void {
  checkSide(a, item.subject);
  checkSide(a, item.reference);
  if (item.to !== undefined && item.to.text !== 'to') {
    report(a, issueCodes.badConformance, 'error', item.to.span, `write 'conforms A to B', not 'conforms A ${item.to.text} B'`);
  }
  if (item.within !== undefined && item.within.text !== 'within') {
    report(a, issueCodes.badConformance, 'error', item.within.span, `write 'within TOLERANCE' after the names, not '${item.within.text}'`);
  }
  if (item.tolerance !== undefined && !(item.tolerance.value >= 0)) {
    report(a, issueCodes.badConformance, 'error', item.tolerance.span, `a tolerance is an absolute difference, zero or more (got ${item.tolerance.value})`);
  }
  if (item.subject !== undefined && item.subject.text === item.reference?.text) {
    report(a, issueCodes.badConformance, 'warning', item.span, `'${item.subject.text}' conforms to itself on every row: name the value it should reproduce (a logged score, a command)`);
  }
}
