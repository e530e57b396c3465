import type { PreparedEdits } from '../edits/prepare.js';
import type { Span } from '../problems/span.js';
import type { AuditDecl } from '../syntax/ast.js';

/**
 * Prepared audits kept between runs, one per audit name: reused while the spec's structure and the
 * data it read are the same (the key says both), so a weight edit re-runs arithmetic only. Its
 * lifetime is its owner's: the language server's worker keeps one, a CLI run makes a fresh one.
 */
export class PreparedAudits {
  private readonly prepared = new Map<string, { key: string; edits: PreparedEdits }>();

  get(audit: string, key: string): PreparedEdits | undefined {
    const entry = this.prepared.get(audit);
    return entry?.key === key ? entry.edits : undefined;
  }

  keep(audit: string, key: string, edits: PreparedEdits): void {
    this.prepared.set(audit, { key, edits });
  }

  /** Data files changed on disk: nothing prepared from them can be trusted. */
  clear(): void {
    this.prepared.clear();
  }
}

/** Spans of the numbers that only scoring reads: weights, penalties, expected values, settings. */
function scoringNumberSpans(audit: AuditDecl, rewardWeightSpans: readonly Span[]): Span[] {
  const spans: Span[] = [...rewardWeightSpans];
  for (const item of audit.items) {
    if (item.kind === 'lattice') for (const entry of item.entries) if (entry.lambda !== undefined) spans.push(entry.lambda.span);
    if (item.kind === 'expect-metric' && item.value !== undefined) spans.push(item.value.span);
    if (item.kind === 'setting') for (const value of item.values) spans.push(value.span);
  }
  return spans.sort((a, b) => a.start - b.start);
}

/**
 * The spec as an audit's preparation sees it: the text with every scoring-only number masked and
 * whitespace folded. Two texts with the same fingerprint prepare the same edits and feature values
 * (a comment edit re-prepares needlessly, which is only slower).
 */
export function structuralFingerprint(text: string, audit: AuditDecl, rewardWeightSpans: readonly Span[]): string {
  let masked = '';
  let at = 0;
  for (const span of scoringNumberSpans(audit, rewardWeightSpans)) {
    masked += `${text.slice(at, span.start)}\u0000`;
    at = span.end;
  }
  masked += text.slice(at);
  return masked.replace(/\s+/g, ' ');
}
