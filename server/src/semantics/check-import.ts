// The checks of a pool's `from FORMAT(key: value, …)` clause, before any file is read: the format
// is a registered importer, and its options are ones the importer takes, once each, with values
// its option schema accepts (importers/registry.ts `checkOptions`, the schema `herald import` uses).
import { importerFor, importers } from '../importers/registry.js';
import { importOptionText } from '../inputs/import-pool.js';
import { issueCodes } from '../problems/issue-codes.js';
import type { ImportClause, ImportOption } from '../syntax/ast.js';
import { report, type Analysis } from './analysis.js';
import { suggestName } from './did-you-mean.js';

const quoted = (words: readonly string[]): string => words.map((w) => `'${w}'`).join(', ');

export function checkImportClause(a: Analysis, clause: ImportClause): void {
  if (clause.format === undefined) return;
  const format = clause.format.text;
  const importer = importerFor(format);
  if (importer === undefined) {
    const formats = importers.map((i) => i.format);
    const suggestion = suggestName(format, formats);
    report(a, issueCodes.unknownImporter, 'error', clause.format.span,
      `no importer reads '${format}'${suggestion === undefined ? '' : `: did you mean '${suggestion}'?`} ${formats.length === 0 ? '(none is registered)' : `(the formats: ${quoted(formats)})`}`,
      { data: { formats } });
    return;
  }
  const known = Object.keys(importer.optionDocs);
  const written = new Map<string, ImportOption>();
  const raw: Record<string, string> = {};
  for (const option of clause.options) {
    const name = option.name.text;
    if (written.has(name)) {
      report(a, issueCodes.badImportOption, 'error', option.name.span, `option '${name}' is given twice`);
      continue;
    }
    written.set(name, option);
    if (!known.includes(name)) {
      const suggestion = suggestName(name, known);
      report(a, issueCodes.badImportOption, 'error', option.name.span,
        `the ${format} importer takes no option '${name}'${suggestion === undefined ? '' : `: did you mean '${suggestion}'?`} (${known.length === 0 ? 'it takes none' : `its options: ${quoted(known)}`})`,
        { data: { options: known } });
      continue;
    }
    const text = importOptionText(option);
    if (text !== undefined) raw[name] = text;
  }
  for (const problem of importer.checkOptions(raw)) {
    // Unknown names were reported above; the schema's own word on them would repeat it.
    if (problem.option !== undefined && !known.includes(problem.option)) continue;
    const option = problem.option === undefined ? undefined : written.get(problem.option);
    if (problem.option === undefined && /unrecognized key/i.test(problem.message)) continue;
    const span = option === undefined ? clause.format.span : (option.value?.span ?? option.span);
    const about = problem.option === undefined ? '' : option === undefined ? `option '${problem.option}' is needed: ` : `option '${problem.option}': `;
    report(a, issueCodes.badImportOption, 'error', span, `${about}${problem.message}`);
  }
}
