import { aggregateDocs, aggregateWords, keywordDefs, type KeywordForm } from '../problems/vocabulary.js';

// The keyword completions, as the vocabulary (problems/vocabulary.ts) declares them.

/** A keyword offered as a completion, with the snippet that writes out its construct. */
export interface KeywordSnippet {
  readonly label: string;
  readonly keyword: string;
  readonly snippet: string;
  readonly detail: string;
}

function snippetOf(word: string, form: KeywordForm): KeywordSnippet {
  return { label: form.label ?? word, keyword: word, snippet: form.snippet, detail: form.usage };
}

/** `edit` starts a declaration too, though it is a word rather than a reserved keyword (docs/language.md). */
export const editSnippet: KeywordSnippet = {
  label: 'edit', keyword: 'edit', detail: 'edit NAME "doc" = OPERATION, …',
  snippet: 'edit ${1:name} "${2:what loophole it tries}" = $0',
};
export const editDoc = '`edit NAME "doc" [when BOOL] = OP, …` declares an exact edit of a trajectory, the kind of an attack: `delete`, `duplicate`, `replace … with`, `append … to citations`, `set answer = …` (docs/language.md, "Edits").';

/** The keywords that start a declaration (`reward` twice: a block, and `=` a derived reward), and `edit`. */
export const declarationSnippets: readonly KeywordSnippet[] = [...keywordDefs.flatMap((k) => (k.declaration ?? []).map((form) => snippetOf(k.word, form))), editSnippet];

export const auditItemSnippets: readonly KeywordSnippet[] = keywordDefs.flatMap((k) => (k.auditItem === undefined ? [] : [snippetOf(k.word, k.auditItem)]));

/** Keywords that start an operand: quantifiers, negation and the boolean constants. */
export const operandKeywordSnippets: readonly KeywordSnippet[] = keywordDefs.flatMap((k) => (k.operand === undefined ? [] : [snippetOf(k.word, k.operand)]));

/** The aggregations (`sum s in steps: …`): names, not keywords, offered where an operand starts, each with its doc. */
export const aggregateSnippets: readonly (KeywordSnippet & { readonly doc: string })[] = aggregateWords.map((word) => ({
  ...snippetOf(word, aggregateDocs[word]), doc: aggregateDocs[word].doc,
}));
