import type { PoolProfile } from '../pool/profile.js';

// `herald import`'s pool profile (docs/import.md): what the imported rows hold, counted, and what
// that leaves an attack to edit, so a log without citations says so where it is imported, not only
// as an ineligible attack later.

/** The profile as lines for stderr; `resolved`: the rows were resolved against a corpus (`--corpus`), so results carry ids. */
export function profileLines(profile: PoolProfile, resolved: boolean): string[] {
  const p = profile;
  const lines = [
    `herald import: profile: ${p.rows} rows: ${p.withFinal} with a final (${p.withAnswer} with an answer), ${p.withCitations} with citations (${p.citations} in all), `
      + `${p.withSearches} with searches (${p.searches} in all), ${p.withRetrieved} with results that have ids, ${p.withTools} with tool calls, `
      + `${p.withReasoning} with reasoning, ${p.withInvalid} with invalid actions, ${p.withGoldAnswers} with gold answers, ${p.withGoldSupport} with gold support ids`,
  ];
  if (p.meta.length > 0) lines.push(`  logged fields (meta): ${p.meta.map((m) => `${m.key} ${m.rows}`).join(', ')}`);
  if (p.withCitations === 0) lines.push('  no citations: citation attacks (fake_id, launder) have nothing to edit, and a detector over citations (the paper\'s L, F) cannot fire');
  if (p.withSearches === 0 && p.withTools === 0) lines.push('  no searches or tool calls: same_final has nothing to delete');
  if (p.withRetrieved === 0 && !resolved && p.withSearches + p.withTools > 0) {
    lines.push('  no result has an id yet: ids come from the corpus when the pool is loaded (--corpus counts how many resolve)');
  }
  return lines;
}
