import type { IToken } from 'chevrotain';
import type { OptionValue } from '../importers/importer.js';
import { importerFor, importers, type RegisteredImporter } from '../importers/registry.js';
import { importOptionText } from '../inputs/import-pool.js';
import type { Span } from '../problems/span.js';
import type { ImportOption, Spec } from '../syntax/ast.js';
import * as T from '../syntax/tokens.js';
import { is } from './completion-tokens.js';

// Completion and hover for a pool's `from FORMAT(key: value, …)` clause, from the one registry of
// importers: the formats with their summaries after `from`, a format's options with their docs
// inside its parentheses, and an option's values (a dialect, an answer rule) after `name:` when
// the importer lists them (`RegisteredImporter.optionValues`).

export type ImportWant =
  | { readonly kind: 'from' }
  | { readonly kind: 'import-formats' }
  | { readonly kind: 'import-options'; readonly format: string; readonly exclude: ReadonlySet<string> }
  | { readonly kind: 'import-values'; readonly format: string; readonly option: string };


/**
 * What may follow a pool's path: `rest` are the tokens after the string. Undefined when the
 * declaration is over (after `)` or a format without options), so the caller offers what it would.
 */
export function importClauseWants(rest: readonly IToken[]): ImportWant[] | undefined {
  const [from, format, open] = rest;
  if (from === undefined) return [{ kind: 'from' }];
  if (from.image !== 'from') return undefined;
  if (format === undefined) return [{ kind: 'import-formats' }];
  // `from verl` and `from verl(…)` end the declaration.
  if (open === undefined || !is(open, T.LParen) || rest.some((t) => is(t, T.RParen))) return undefined;
  const last = rest[rest.length - 1]!;
  const name = rest[rest.length - 2];
  // `dialect: |`: the option's values (an empty list for a free-text option).
  if (is(last, T.Colon) && name !== undefined && is(name, T.Identifier) && is(rest[rest.length - 3], T.LParen, T.Comma)) return [{ kind: 'import-values', format: format.image, option: name.image }];
  if (!is(last, T.LParen, T.Comma)) return [];
  const written = new Set(rest.slice(3).filter((t, i, list) => is(t, T.Identifier) && is(list[i + 1], T.Colon)).map((t) => t.image));
  return [{ kind: 'import-options', format: format.image, exclude: written }];
}

/**
 * What may follow a pool's path (`segment`: the declaration's tokens from `pool`): `from` and the
 * next declaration, the formats, the options, or the next declaration once the clause is done.
 * Undefined for any other declaration, or before the path.
 */
export function poolClauseWants(segment: readonly IToken[]): (ImportWant | { readonly kind: 'declaration-keywords' })[] | undefined {
  if (!is(segment[0], T.Pool) || !is(segment[3], T.StringLiteral)) return undefined;
  const clause = importClauseWants(segment.slice(4));
  if (clause === undefined) return [{ kind: 'declaration-keywords' }];
  return segment.length === 4 ? [...clause, { kind: 'declaration-keywords' }] : clause;
}

/** What a completion item of the clause is; lsp/completion.ts gives each its protocol kind. */
export type ImportItemKind = 'keyword' | 'importer' | 'option' | 'option-value';

export interface ImportItem {
  readonly label: string;
  readonly kind: ImportItemKind;
  readonly detail: string;
  readonly doc: string;
  readonly snippet?: string;
}

export const fromDoc = 'Reads the pool\'s files with an importer: `from verl(dialect: search_r1)` (docs/language.md, "Pools from other frameworks").';

/** The completion items of one want of the clause. */
export function importItems(want: ImportWant): ImportItem[] {
  switch (want.kind) {
    case 'from':
      return [{ label: 'from', kind: 'keyword', detail: 'from FORMAT(options)', doc: fromDoc, snippet: 'from ${1:format}' }];
    case 'import-formats':
      return importers.map((i) => ({ label: i.format, kind: 'importer', detail: 'importer', doc: importerDoc(i) }));
    case 'import-options': {
      const docs = importerFor(want.format)?.optionDocs ?? {};
      return Object.entries(docs).filter(([name]) => !want.exclude.has(name))
        .map(([name, doc]) => ({ label: name, kind: 'option', detail: `${want.format} option`, doc, snippet: `${name}: $1` }));
    }
    case 'import-values':
      return (importerFor(want.format)?.optionValues(want.option) ?? [])
        .map(({ value, doc }) => ({ label: value, kind: 'option-value', detail: `${want.format} ${want.option}`, doc }));
  }
}

/** An importer as hover and completion describe it: its summary, then each option with its doc. */
export function importerDoc(importer: RegisteredImporter): string {
  const options = Object.entries(importer.optionDocs).map(([name, doc]) => `- \`${name}\`: ${doc}`);
  return [importer.summary, ...(options.length === 0 ? [] : ['Options:', options.join('\n')])].join('\n\n');
}

const inside = (span: Span | undefined, offset: number): span is Span => span !== undefined && span.start <= offset && offset <= span.end;

/** The doc of an option's value as written, when the importer lists that option's values. */
function valueDoc(importer: RegisteredImporter, option: ImportOption): OptionValue | undefined {
  const written = importOptionText(option);
  return importer.optionValues(option.name.text).find((v) => v.value === written);
}

/** What a hover over a pool's `from`, format or option name says, and the span it covers. */
export function importHover(spec: Spec, offset: number): { readonly lines: string[]; readonly span: Span } | undefined {
  for (const decl of spec.decls) {
    const clause = decl.kind === 'pool' ? decl.source : undefined;
    if (clause === undefined || !inside(clause.span, offset)) continue;
    if (inside(clause.from.span, offset)) return { lines: ['`from`', fromDoc], span: clause.from.span };
    const importer = clause.format === undefined ? undefined : importerFor(clause.format.text);
    if (inside(clause.format?.span, offset)) {
      return { lines: importer === undefined ? [`\`${clause.format.text}\`: no importer reads this format`] : [`importer \`${importer.format}\``, importerDoc(importer)], span: clause.format.span };
    }
    const option = clause.options.find((o) => inside(o.name.span, offset));
    const doc = option === undefined ? undefined : importer?.optionDocs[option.name.text];
    if (option !== undefined && doc !== undefined && importer !== undefined) return { lines: [`option \`${option.name.text}\` of importer \`${importer.format}\``, doc], span: option.name.span };
    const valued = clause.options.find((o) => o.value !== undefined && inside(o.value.span, offset));
    const meant = valued === undefined || importer === undefined ? undefined : valueDoc(importer, valued);
    if (valued?.value !== undefined && meant !== undefined) {
      return { lines: [`\`${meant.value}\`: a value of option \`${valued.name.text}\` of importer \`${clause.format?.text ?? ''}\``, meant.doc], span: valued.value.span };
    }
  }
  return undefined;
}
