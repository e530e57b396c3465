import type { FormattingOptions, TextEdit } from 'vscode-languageserver/node';
import { formatSpec } from '../format/format.js';
import type { DocumentAnalysis } from './document-analysis.js';

/**
 * The formatter's output as one edit over the lines that changed. Cutting at line starts inside
 * the common prefix and suffix keeps the edit off `\r\n` pairs and surrogate pairs, and leaves
 * the cursor, folds and marks of untouched lines alone.
 */
export function formattingEdits(analysis: DocumentAnalysis, options: FormattingOptions): TextEdit[] {
  const before = analysis.text;
  // The formatter indents with spaces; a client that asks for tabs still gets its width.
  const after = formatSpec(before, { indent: options.tabSize });
  if (after === before) return [];
  let prefix = 0;
  const shorter = Math.min(before.length, after.length);
  while (prefix < shorter && before.charCodeAt(prefix) === after.charCodeAt(prefix)) prefix++;
  prefix = before.lastIndexOf('\n', prefix - 1) + 1;
  let suffix = 0;
  while (suffix < shorter - prefix && before.charCodeAt(before.length - 1 - suffix) === after.charCodeAt(after.length - 1 - suffix)) suffix++;
  const common = before.slice(before.length - suffix);
  const lineBreak = common.indexOf('\n');
  suffix = lineBreak < 0 ? 0 : suffix - lineBreak - 1;
  const range = analysis.lines.range({ start: prefix, end: before.length - suffix });
  return [{ range, newText: after.slice(prefix, after.length - suffix) }];
}
