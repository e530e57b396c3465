import { issueCodes } from '../problems/issue-codes.js';
import { isLoggedType, loggedTypes } from '../language/logged-fields.js';
import type { FieldDecl } from '../syntax/ast.js';
import { cover } from '../syntax/cst-read.js';
import { report, type Analysis } from './analysis.js';
import type { DeclInfo } from './symbols.js';

// `[oracle] field NAME "doc" : TYPE = meta.PATH`: its type and visibility, and the checks of its header.

/** The field's type and visibility as its uses see them: oracle exactly when declared so. */
export function loggedFieldInfo(decl: FieldDecl): DeclInfo {
  const name = decl.fieldType?.text;
  const type = name !== undefined && isLoggedType(name) ? loggedTypes[name] : 'error';
  return decl.modifier?.text !== 'oracle' ? { type, visibility: 'visible' } : { type, visibility: 'oracle', oracleSource: decl.modifier.span };
}

const typeWords = Object.keys(loggedTypes).join(', ');

export function checkLoggedField(a: Analysis, decl: FieldDecl): DeclInfo {
  if (decl.modifier !== undefined && decl.modifier.text !== 'oracle') {
    report(a, issueCodes.badField, 'error', decl.modifier.span, `only 'oracle' may stand before 'field' (an oracle logged field), not '${decl.modifier.text}'`);
  }
  const type = decl.fieldType;
  if (type !== undefined && !isLoggedType(type.text)) {
    report(a, issueCodes.badField, 'error', type.span, `'${type.text}' is not a type of logged field (${typeWords})`);
  }
  const [root] = decl.path;
  if (root !== undefined && (root.text !== 'meta' || decl.path.length < 2)) {
    report(a, issueCodes.badField, 'error', cover(decl.path), `a logged field is read from the row's meta: write meta.NAME (a path such as meta.judge.score), not '${decl.path.map((n) => n.text).join('.')}'`);
  }
  return loggedFieldInfo(decl);
}
