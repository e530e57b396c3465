import type { Analyzed } from '../semantics/analyze.js';

/**
 * A spec's text with its analysis: what the features in ide/ read. The language server's
 * `DocumentAnalysis` (lsp/document-analysis.ts: one document version) is one, so it passes its own.
 */
export interface AnalyzedText {
  readonly text: string;
  readonly analyzed: Analyzed;
}
