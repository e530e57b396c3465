import { keywordDefs, type KeywordForm } from '../problems/vocabulary.js';

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

/** The keywords that start a declaration (`reward` twice: a block, and `=` a derived reward). */
export const declarationSnippets: readonly KeywordSnippet[] = keywordDefs.flatMap((k) => (k.declaration ?? []).map((form) => snippetOf(k.word, form)));

export const auditItemSnippets: readonly KeywordSnippet[] = keywordDefs.flatMap((k) => (k.auditItem === undefined ? [] : [snippetOf(k.word, k.auditItem)]));

/** Keywords that start an operand: quantifiers, negation and the boolean constants. */
export const operandKeywordSnippets: readonly KeywordSnippet[] = keywordDefs.flatMap((k) => (k.operand === undefined ? [] : [snippetOf(k.word, k.operand)]));
