import type { IToken } from 'chevrotain';
import { CompletionItemKind, InsertTextFormat, MarkupKind, type CompletionItem, type MarkupContent } from 'vscode-languageserver/node';
import { builtinFields, builtinFieldsByName, builtinFunctions, functionSignature, memberOf, membersOf } from '../language/builtins.js';
import { elementTypes, typeNames, type Type, type Visibility } from '../language/types.js';
import { attackKinds, generatorKinds, metricKinds, selectionKinds } from '../semantics/builtins.js';
import type { AuditWordCategory, DeclSymbol, SymbolInfo } from '../semantics/symbols.js';
import { optionDocs } from '../semantics/check-blocks.js';
import { auditOptionDocs, poolSelectionDocs } from '../semantics/audit-options.js';
import type { AuditDecl, Decl } from '../syntax/ast.js';
import { Corpus, Identifier } from '../syntax/tokens.js';
import { aggregateSnippets, auditItemSnippets, declarationSnippets, editDoc, editSnippet, operandKeywordSnippets, type KeywordSnippet } from '../ide/completion-keywords.js';
import { completionWants, type ScopedVariable, type Want } from '../ide/completion-context.js';
import { importItems, type ImportItemKind } from '../ide/import-clause.js';
import { codeBlock, declDetail, declDoc, exprOf, functionDoc, memberVisibility, sourceText, typeAndVisibility } from '../ide/describe.js';
import type { DocumentAnalysis } from './document-analysis.js';
import { auditKeywordDocs, keywordDocs } from '../ide/keyword-docs.js';
import { pathItems } from './path-completion.js';
import { WorkspaceTrust } from '../inputs/trust.js';
import { markdownText } from '../ide/row-text.js';

// `"` and `/` open and go on with a link's path.
export const completionTriggerCharacters = ['.', '(', ',', '"', '/'] as const;

export interface CompletionOptions {
  readonly snippets: boolean;
  readonly markdown: boolean;
  /** Which folders a link's path may be completed from; everything when the editor has no notion of trust. */
  readonly trust?: WorkspaceTrust | undefined;
}

const declItemKinds: Record<Decl['kind'], CompletionItemKind> = {
  corpus: CompletionItemKind.File,
  logged: CompletionItemKind.Field,
  edit: CompletionItemKind.Operator,
  pool: CompletionItemKind.File,
  signal: CompletionItemKind.Variable,
  detector: CompletionItemKind.Event,
  reward: CompletionItemKind.Function,
  audit: CompletionItemKind.Module,
  training: CompletionItemKind.Module,
  comparison: CompletionItemKind.Module,
};

const importItemKinds: Record<ImportItemKind, CompletionItemKind> = {
  keyword: CompletionItemKind.Keyword,
  importer: CompletionItemKind.Module,
  option: CompletionItemKind.Property,
  'option-value': CompletionItemKind.EnumMember,
};

const auditWords: Record<AuditWordCategory, { words: Readonly<Record<string, string>>; kind: CompletionItemKind; detail: string }> = {
  'attack-kind': { words: attackKinds, kind: CompletionItemKind.EnumMember, detail: 'attack kind' },
  generator: { words: generatorKinds, kind: CompletionItemKind.Function, detail: 'candidate generator' },
  metric: { words: metricKinds, kind: CompletionItemKind.Function, detail: 'metric' },
  selection: { words: selectionKinds, kind: CompletionItemKind.EnumMember, detail: 'selection' },
  option: { words: optionDocs, kind: CompletionItemKind.Property, detail: 'option' },
  'audit-option': { words: auditOptionDocs, kind: CompletionItemKind.Property, detail: 'audit option' },
  'pool-selection': { words: poolSelectionDocs, kind: CompletionItemKind.EnumMember, detail: 'pool selection' },
};

/** Variables first, then the spec's own names, then built-ins, then keywords. */
const rank = { variable: '0', declared: '1', field: '2', function: '3', keyword: '4' } as const;

class ItemBuilder {
  readonly items: CompletionItem[] = [];
  private readonly seen = new Set<string>();

  constructor(private readonly analysis: DocumentAnalysis, private readonly options: CompletionOptions) {}

  get trust(): WorkspaceTrust {
    return this.options.trust ?? WorkspaceTrust.everything;
  }

  private docs(text: string | undefined): MarkupContent | string | undefined {
    if (text === undefined || text === '') return undefined;
    return this.options.markdown ? { kind: MarkupKind.Markdown, value: text } : text;
  }

  add(label: string, kind: CompletionItemKind, sort: string, detail: string | undefined, doc: string | undefined, snippet?: string): CompletionItem | undefined {
    const key = `${label}\u0000${kind}`;
    if (this.seen.has(key)) return undefined;
    this.seen.add(key);
    const documentation = this.docs(doc);
    const item: CompletionItem = { label, kind, sortText: `${sort}${label}`, ...(detail === undefined ? {} : { detail }), ...(documentation === undefined ? {} : { documentation }) };
    if (snippet !== undefined && this.options.snippets) {
      item.insertText = snippet;
      item.insertTextFormat = InsertTextFormat.Snippet;
    }
    this.items.push(item);
    return item;
  }

  keyword(snippet: KeywordSnippet, doc: string | undefined): void {
    const item = this.add(snippet.label, CompletionItemKind.Keyword, rank.keyword, snippet.detail, doc, snippet.snippet);
    // Without snippets a label like `reward =` must still insert just the keyword.
    if (item !== undefined && !this.options.snippets && snippet.label !== snippet.keyword) {
      item.insertText = snippet.keyword;
      item.filterText = snippet.keyword;
    }
  }

  plainKeyword(word: string): void {
    this.add(word, CompletionItemKind.Keyword, rank.keyword, undefined, keywordDocs[word.split(' ')[0]!]);
  }

  declared(symbol: DeclSymbol): void {
    const body = exprOf(symbol.decl);
    // A doc string is the user's text: escaped as markdown, where `<answer>` would be swallowed as HTML.
    const written = declDoc(symbol.decl);
    const doc = [written !== undefined && this.options.markdown ? markdownText(written) : written, body === undefined ? undefined : codeBlock(sourceText(this.analysis, body.span))].filter((d) => d !== undefined && d !== '');
    this.add(symbol.name, declItemKinds[symbol.kind], rank.declared, declDetail(this.analysis, symbol), doc.join('\n\n'));
  }

  auditWord(category: AuditWordCategory): void {
    const { words, kind, detail } = auditWords[category];
    for (const [word, doc] of Object.entries(words)) {
      const snippet = category === 'generator' ? `${word}(\${1:8})` : category === 'metric' ? (word === 'minimal_repair' ? 'minimal_repair == {$1}' : `${word}($1)`)
        : category === 'pool-selection' && word === 'best' ? 'best($1)' : undefined;
      this.add(word, kind, rank.declared, detail, doc, snippet);
    }
    // The spec's own edits are attack kinds too.
    if (category === 'attack-kind') for (const symbol of declaredOfKind(this.analysis, 'edit')) this.declared(symbol);
    if (category === 'generator') {
      this.add('candidates', CompletionItemKind.Keyword, rank.keyword, 'candidates "file.jsonl"', keywordDocs['candidates'], 'candidates "${1:candidates.jsonl}"');
    }
  }
}

function symbolType(analysis: DocumentAnalysis, symbol: SymbolInfo): { type: Type; visibility: Visibility } | undefined {
  switch (symbol.kind) {
    case 'variable':
      return symbol;
    case 'field':
      return symbol.field;
    case 'member':
      return { type: symbol.member.type, visibility: memberVisibility(symbol.owner) };
    case 'function':
    case 'audit-word':
    case 'attack':
      return undefined;
    default:
      return analysis.analyzed.model.declInfo.get(symbol.decl);
  }
}

/**
 * The type of a chain like `gold.answers` or `s`, from what the checker recorded at its first name,
 * else from the quantifiers around the cursor and the built-ins (the checker may have skipped
 * a node the parser could not finish).
 */
function chainType(analysis: DocumentAnalysis, chain: readonly IToken[], scope: readonly ScopedVariable[]): { type: Type; visibility: Visibility } | undefined {
  const first = chain[0];
  if (first === undefined || (first.tokenType !== Identifier && first.tokenType !== Corpus)) return undefined;
  const recorded = analysis.analyzed.model.occurrences.find((o) => o.span.start === first.startOffset);
  let typed = recorded === undefined ? undefined : symbolType(analysis, recorded.symbol);
  if (typed === undefined) {
    const index = scope.map((v) => v.name.image).lastIndexOf(first.image);
    typed = index >= 0 ? variableType(analysis, scope, index) : builtinFieldsByName.get(first.image);
  }
  for (let i = 2; i < chain.length && typed !== undefined; i += 2) {
    const member = memberOf(typed.type, chain[i]!.image);
    typed = member === undefined ? undefined : { type: member.type, visibility: typed.visibility };
  }
  return typed;
}

function variableType(analysis: DocumentAnalysis, scope: readonly ScopedVariable[], index: number): { type: Type; visibility: Visibility } | undefined {
  const variable = scope[index]!;
  const recorded = analysis.analyzed.model.occurrences.find((o) => o.isDeclaration && o.span.start === variable.name.startOffset && o.symbol.kind === 'variable');
  if (recorded !== undefined) return symbolType(analysis, recorded.symbol);
  const collection = chainType(analysis, variable.collection, scope.slice(0, index));
  const element = collection === undefined ? undefined : elementTypes[collection.type];
  return element === undefined || collection === undefined ? undefined : { type: element, visibility: collection.visibility };
}

function auditAt(analysis: DocumentAnalysis, start: number): AuditDecl | undefined {
  return analysis.analyzed.parsed.spec.decls.find((d): d is AuditDecl => d.kind === 'audit' && d.span.start === start);
}

function declaredOfKind(analysis: DocumentAnalysis, kind: Decl['kind']): DeclSymbol[] {
  return [...analysis.analyzed.model.globals.values()].filter((s) => s.kind === kind);
}

function addExpression(b: ItemBuilder, analysis: DocumentAnalysis, want: Extract<Want, { kind: 'expression' }>): void {
  const visibleOk = (visibility: Visibility | undefined): boolean => !want.visibleOnly || visibility !== 'oracle';
  const shadowed = new Set<string>();
  for (let i = want.scope.length - 1; i >= 0; i--) {
    const name = want.scope[i]!.name.image;
    if (shadowed.has(name)) continue;
    shadowed.add(name);
    const typed = variableType(analysis, want.scope, i);
    b.add(name, CompletionItemKind.Variable, rank.variable, typed === undefined ? 'variable' : `variable: ${typeAndVisibility(typed.type, typed.visibility)}`,
      'A quantifier variable: one element of the collection at a time.');
  }
  for (const symbol of analysis.analyzed.model.globals.values()) {
    if ((symbol.kind !== 'signal' && symbol.kind !== 'detector') || symbol.name === want.exclude || shadowed.has(symbol.name)) continue;
    if (visibleOk(analysis.analyzed.model.declInfo.get(symbol.decl)?.visibility)) b.declared(symbol);
  }
  for (const field of builtinFields) {
    if (shadowed.has(field.name) || analysis.analyzed.model.globals.has(field.name) || !visibleOk(field.visibility)) continue;
    b.add(field.name, CompletionItemKind.Field, rank.field, `${typeNames[field.type]}, ${field.visibility}`, field.doc);
  }
  for (const fn of builtinFunctions) b.add(fn.name, CompletionItemKind.Function, rank.function, functionSignature(fn), functionDoc(fn), `${fn.name}($1)`);
  for (const snippet of operandKeywordSnippets) b.keyword(snippet, keywordDocs[snippet.keyword]);
  for (const snippet of aggregateSnippets) b.keyword(snippet, snippet.doc);
}

function addWant(b: ItemBuilder, analysis: DocumentAnalysis, want: Want): void {
  switch (want.kind) {
    case 'declaration-keywords':
      for (const snippet of declarationSnippets) b.keyword(snippet, snippet === editSnippet ? editDoc : keywordDocs[snippet.keyword]);
      return;
    case 'audit-item-keywords':
      for (const snippet of auditItemSnippets) b.keyword(snippet, auditKeywordDocs[snippet.keyword] ?? keywordDocs[snippet.keyword]);
      return;
    case 'keywords':
      for (const word of want.words) b.plainKeyword(word);
      return;
    case 'edit-words':
      for (const [word, doc] of Object.entries(want.words)) b.add(word, CompletionItemKind.Keyword, rank.keyword, 'edit', doc);
      return;
    case 'declared':
      for (const symbol of declaredOfKind(analysis, want.declKind)) if (!want.exclude.has(symbol.name)) b.declared(symbol);
      return;
    case 'audit-words':
      b.auditWord(want.category);
      return;
    case 'audit-rewards': {
      const audit = auditAt(analysis, want.auditStart);
      const named = new Set(audit?.items.flatMap((i) => (i.kind === 'audit-reward' ? (i.reward === undefined ? [] : [i.reward.text]) : i.kind === 'audit-compare' ? i.rewards.map((r) => r.text) : [])));
      for (const symbol of declaredOfKind(analysis, 'reward')) if (named.size === 0 || named.has(symbol.name)) b.declared(symbol);
      return;
    }
    case 'audit-attacks':
      for (const item of auditAt(analysis, want.auditStart)?.items ?? []) {
        if (item.kind !== 'attack' || item.name === undefined) continue;
        const kind = item.attackKind?.text;
        b.add(item.name.text, CompletionItemKind.Method, rank.declared, `attack${kind === undefined ? '' : ` (${kind})`}`, kind === undefined ? undefined : analysis.analyzed.model.edits.get(kind)?.doc);
      }
      return;
    case 'lattice-detectors': {
      const lattice = new Set(auditAt(analysis, want.auditStart)?.items.flatMap((i) => (i.kind === 'lattice' ? i.entries.map((e) => e.detector.text) : [])));
      for (const symbol of declaredOfKind(analysis, 'detector')) {
        if ((lattice.size === 0 || lattice.has(symbol.name)) && !want.exclude.has(symbol.name)) b.declared(symbol);
      }
      return;
    }
    case 'expression':
      addExpression(b, analysis, want);
      return;
    case 'path':
      // A loop: a folder may hold more entries than a call takes arguments.
      for (const item of pathItems(analysis, want, b.trust)) b.items.push(item);
      return;
    case 'from':
    case 'import-formats':
    case 'import-options':
    case 'import-values':
      for (const item of importItems(want)) b.add(item.label, importItemKinds[item.kind], item.kind === 'keyword' ? rank.keyword : rank.declared, item.detail, item.doc, item.snippet);
      return;
    case 'members': {
      const owner = chainType(analysis, want.object, want.scope);
      for (const member of owner === undefined ? [] : membersOf(owner.type)) {
        b.add(member.name, CompletionItemKind.Field, rank.field, `${typeNames[member.type]}, ${owner!.visibility}`, member.doc);
      }
      return;
    }
  }
}

export function completion(analysis: DocumentAnalysis, offset: number, options: CompletionOptions): CompletionItem[] {
  const { tokens, spec } = analysis.analyzed.parsed;
  const builder = new ItemBuilder(analysis, options);
  for (const want of completionWants(tokens, spec.comments, offset)) addWant(builder, analysis, want);
  return builder.items;
}
