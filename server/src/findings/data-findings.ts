import type { AuditFailure } from '../audit/audit-spec.js';
import { resolveLink, specRelative } from '../inputs/paths.js';
import { auditIssueCodes } from '../problems/issue-codes.js';
import type { Problem } from '../problems/problem.js';
import type { RowIssue } from '../pool/types.js';
import type { SpecModel } from '../semantics/check.js';

/** How many skipped rows a finding names in its message; all of them are in its rows. */
const rowsInMessage = 5;

/**
 * Bad rows, one finding per file, on the `pool` (or `corpus`) declaration that links it. Issues name
 * files as they were opened, links as the spec writes them: both resolve against the spec's folder.
 */
export function rowFindings(issues: readonly RowIssue[], model: SpecModel, specDir: string): Problem[] {
  const byFile = new Map<string, RowIssue[]>();
  for (const issue of issues) {
    if (issue.line === 0) continue;
    const file = resolveLink(specDir, issue.file);
    byFile.set(file, [...(byFile.get(file) ?? []), issue]);
  }
  const problems: Problem[] = [];
  for (const [file, rows] of byFile) {
    const decl = [...model.globals.values()].find((s) => (s.decl.kind === 'pool' || s.decl.kind === 'corpus') && s.decl.path !== undefined && resolveLink(specDir, s.decl.path.value) === file);
    if (decl === undefined) continue;
    const name = specRelative(specDir, file);
    const shown = rows.slice(0, rowsInMessage).map((r) => `${name}:${r.line}: ${r.reason}`).join('; ');
    problems.push({
      code: auditIssueCodes.badRows, severity: 'error', span: decl.decl.span,
      message: `${rows.length} row${rows.length === 1 ? '' : 's'} skipped: ${shown}${rows.length > rowsInMessage ? `; and ${rows.length - rowsInMessage} more` : ''}`,
      rows: rows.map((r) => ({ file, line: r.line, message: `skipped row: ${r.reason}` })),
      key: [name],
    });
  }
  return problems;
}

/**
 * Audits that could not run: a linked file could not be read (an issue on line 0) or a figure was
 * not finite. On each audit's name that the failure concerns.
 */
export function failureFindings(issues: readonly RowIssue[], failures: readonly AuditFailure[], model: SpecModel): Problem[] {
  const unreadable = issues.filter((i) => i.line === 0).map((i) => i.reason);
  return model.spec.decls.flatMap((decl): Problem[] => {
    if (decl.kind !== 'audit' || decl.name === undefined) return [];
    const name = decl.name.text;
    const reasons = [...unreadable, ...failures.filter((f) => f.audit === name).map((f) => f.reason)];
    if (reasons.length === 0) return [];
    return [{ code: auditIssueCodes.auditFailed, severity: 'error', span: decl.name.span, message: `the audit could not run: ${reasons.join('; ')}`, key: [name] }];
  });
}
