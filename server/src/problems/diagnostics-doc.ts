import { issueCodeDocs, type IssueCode } from './issue-codes.js';

/** docs/diagnostics.md: one heading per issue code, so `diagnostics.md#<code>` links resolve. */
export function renderDiagnosticsDoc(): string {
  const sections = (Object.entries(issueCodeDocs) as [IssueCode, string][]).map(([code, doc]) => `## ${code}\n${doc}\n`);
  return `# Diagnostics\n\nEvery problem the checker reports carries one of these stable codes. Generated from\n\`server/src/problems/issue-codes.ts\` by \`npm run docs\`; do not edit by hand.\n\n${sections.join('\n')}`;
}
