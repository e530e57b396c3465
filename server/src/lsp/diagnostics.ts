import * as path from 'node:path';
import { pathToFileURL } from 'node:url';
import { DiagnosticSeverity, DiagnosticTag, type Diagnostic, type DiagnosticRelatedInformation } from 'vscode-languageserver/node';
import type { IssueCode } from '../problems/issue-codes.js';
import type { Problem, Severity } from '../problems/problem.js';
import { escapeControls } from '../report/escape-text.js';
import type { DocumentAnalysis } from './document-analysis.js';
import { workedPairsKey } from './worked-pair-links.js';

/**
 * Where every issue code is explained: one heading per code in this file of the package, so
 * `codeDescription.href` is `file:///…/docs/diagnostics.md#<code>` inside the installed
 * extension (or the checkout). Clicking a code in the Problems panel opens that section offline.
 */
export const diagnosticsDocument = 'docs/diagnostics.md';

export function diagnosticsDocumentUri(packageRoot: string): string {
  return pathToFileURL(path.join(packageRoot, diagnosticsDocument)).href;
}

const severities: Record<Severity, DiagnosticSeverity> = {
  error: DiagnosticSeverity.Error,
  warning: DiagnosticSeverity.Warning,
  information: DiagnosticSeverity.Information,
  hint: DiagnosticSeverity.Hint,
};

export function codeDescriptionHref(docsUri: string, code: IssueCode): string {
  return `${docsUri}#${code}`;
}

/** A problem as a diagnostic; its messages quote data (ids, reasons, file names), so they are escaped (report/escape-text.ts). */
export function toDiagnostic(problem: Problem, analysis: DocumentAnalysis, docsUri: string): Diagnostic {
  const diagnostic: Diagnostic = {
    range: analysis.lines.range(problem.span),
    severity: severities[problem.severity],
    source: 'herald',
    code: problem.code,
    codeDescription: { href: codeDescriptionHref(docsUri, problem.code) },
    message: escapeControls(problem.message),
  };
  // Spans of the spec first, then the data rows the finding is about, each opening its file at its line.
  const rowAt = (file: string, oneBased: number, message: string): DiagnosticRelatedInformation => {
    const line = Math.max(0, oneBased - 1);
    return { location: { uri: pathToFileURL(file).href, range: { start: { line, character: 0 }, end: { line, character: 0 } } }, message: escapeControls(message) };
  };
  const rows = problem.rows ?? [];
  const last = rows[rows.length - 1];
  const related = [
    ...(problem.related ?? []).map((r) => ({ location: { uri: analysis.uri, range: analysis.lines.range(r.span) }, message: escapeControls(r.message) })),
    ...rows.map((row) => rowAt(row.file, row.line, row.message)),
    // The list is bounded (maxListedRows): the rest are counted, after the last row listed.
    ...(problem.moreRows === undefined || last === undefined ? [] : [rowAt(last.file, last.line, `… and ${problem.moreRows} more`)]),
  ];
  if (related.length > 0) diagnostic.relatedInformation = related;
  if (problem.unnecessary === true) diagnostic.tags = [DiagnosticTag.Unnecessary];
  // Worked pairs travel in `data` too, so a code action can open one side by side (lsp/worked-pair-links.ts).
  const pairs = (problem.rows ?? []).flatMap((row) => (row.pair === undefined ? [] : [{ ...row.pair, line: row.line }]));
  if (problem.data !== undefined || pairs.length > 0) diagnostic.data = { ...problem.data, ...(pairs.length > 0 ? { [workedPairsKey]: pairs } : {}) };
  return diagnostic;
}

export function diagnosticsOf(analysis: DocumentAnalysis, docsUri: string): Diagnostic[] {
  return analysis.analyzed.problems.map((p) => toDiagnostic(p, analysis, docsUri));
}
