import type { TextEdit } from 'vscode-languageserver/node';
import type { AuditDecl } from '../syntax/ast.js';
import type { DocumentAnalysis } from './document-analysis.js';

// Small text edits that quick fixes share, written in the spec's own layout.

export function lineStart(text: string, offset: number): number {
  return text.lastIndexOf('\n', offset - 1) + 1;
}

/** Adds a reward to the audit's `compare` line, or writes a `compare` line under its `reward` line. */
export function addToCompare(analysis: DocumentAnalysis, audit: AuditDecl, reward: string): TextEdit | undefined {
  const compare = audit.items.find((i) => i.kind === 'audit-compare');
  const last = compare?.kind === 'audit-compare' ? compare.rewards[compare.rewards.length - 1] : undefined;
  if (last !== undefined) return { range: analysis.lines.range({ start: last.span.end, end: last.span.end }), newText: `, ${reward}` };
  const rewardItem = audit.items.find((i) => i.kind === 'audit-reward');
  if (rewardItem === undefined) return undefined;
  const indent = analysis.text.slice(lineStart(analysis.text, rewardItem.span.start), rewardItem.span.start);
  return { range: analysis.lines.range({ start: rewardItem.span.end, end: rewardItem.span.end }), newText: `\n${indent}compare ${reward}` };
}
