import { issueCodes } from '../problems/issue-codes.js';
import { isLoggedType, loggedTypes } from '../language/logged-fields.js';
import type { CommandSource, DependsClause, FieldDecl } from '../syntax/ast.js';
import { cover } from '../syntax/cst-read.js';
import { report, suggest, type Analysis } from './analysis.js';
import type { DeclInfo } from './symbols.js';
import { dependableParts } from './field-depends.js';

// `[oracle] field NAME "doc" : TYPE = meta.PATH [depends on PART, …]`: its type and visibility, the
// parts its value depends on, and the checks of its header.

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
  if (decl.command !== undefined) checkCommandField(a, decl);
  const [root] = decl.path;
  if (root !== undefined && (root.text !== 'meta' || decl.path.length < 2)) {
    report(a, issueCodes.badField, 'error', cover(decl.path), `a logged field is read from the row's meta: write meta.NAME (a path such as meta.judge.score), not '${decl.path.map((n) => n.text).join('.')}'`);
  }
  if (decl.dependsOn !== undefined) checkDependsOn(a, decl.dependsOn);
  return loggedFieldInfo(decl);
}

/** The types a program's answer can have: one JSON number or boolean per request. */
const commandTypes: readonly string[] = ['number', 'boolean'];

/** `field NAME : TYPE = command "PROGRAM"`: the word, and a type one JSON value per request can carry. */
function checkCommandField(a: Analysis, decl: FieldDecl): void {
  const command = decl.command!;
  checkCommandWord(a, command);
  const type = decl.fieldType;
  if (type !== undefined && isLoggedType(type.text) && !commandTypes.includes(type.text)) {
    report(a, issueCodes.badField, 'error', type.span, `a field computed by a command is a number or a boolean (its program answers one JSON value per trajectory), not ${type.text}`);
  }
}

/** `command "PROGRAM"`: the word before the program, and a program that is not blank. */
export function checkCommandWord(a: Analysis, command: CommandSource): void {
  if (command.word.text !== 'command') {
    report(a, issueCodes.badField, 'error', command.word.span, `write command "PROGRAM" (a program that computes the value), or meta.PATH for a logged value, not '${command.word.text}'`);
  } else if (command.program.value.trim() === '') {
    report(a, issueCodes.badField, 'error', command.program.span, 'the command is empty: write the program to run, e.g. command "python3 -m herald_adapters.verl reward.py"');
  }
}

const partWords = dependableParts.join(', ');

function checkDependsOn(a: Analysis, clause: DependsClause): void {
  if (clause.on !== undefined && clause.on.text !== 'on') {
    report(a, issueCodes.badField, 'error', clause.on.span, `write 'depends on PART, …' (${partWords}), not 'depends ${clause.on.text}'`);
    return;
  }
  const seen = new Set<string>();
  for (const part of clause.parts) {
    if (!(dependableParts as readonly string[]).includes(part.text)) {
      const suggestion = suggest(a, part.text, () => dependableParts);
      report(a, issueCodes.badField, 'error', part.span,
        `'${part.text}' is not a part a logged value can depend on (${partWords})${suggestion ? `; did you mean '${suggestion}'?` : ''}`,
        suggestion === undefined ? {} : { data: { suggestion } });
    } else if (seen.has(part.text)) {
      report(a, issueCodes.badField, 'warning', part.span, `'${part.text}' is already named in this 'depends on'`);
    }
    seen.add(part.text);
  }
}
