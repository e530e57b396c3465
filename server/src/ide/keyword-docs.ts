import { keywordDefs } from '../problems/vocabulary.js';

// The keyword hovers, as the vocabulary (problems/vocabulary.ts) declares them.

/** One line per keyword, shown on hover and as completion documentation. */
export const keywordDocs: Readonly<Record<string, string>> = Object.fromEntries(keywordDefs.map((k) => [k.word, k.doc]));

/** Inside an audit block some keywords name an item instead of declaring something. */
export const auditKeywordDocs: Readonly<Record<string, string>> = Object.fromEntries(
  keywordDefs.flatMap((k) => (k.auditItem?.doc === undefined ? [] : [[k.word, k.auditItem.doc]])),
);
