import type { PoolProfile } from '../pool/profile.js';

// A pool profile's words, shared by every view that shows one (the report's pool profile table,
// render/format-profile.ts, and the pool line's hover). Apart from data-reasons.ts, which reads the
// checked model: the report page carries these words and nothing of the checker.

/**
 * What a profile counts, in the order and words every view shows it (the report's pool profile
 * table, the pool line's hover): rows that have each part.
 */
export function profileCounts(profile: PoolProfile): { readonly what: string; readonly rows: number }[] {
  return [
    { what: 'final answer', rows: profile.withAnswer },
    { what: 'citations', rows: profile.withCitations },
    { what: 'searches', rows: profile.withSearches },
    { what: 'retrieved ids', rows: profile.withRetrieved },
    { what: 'reasoning', rows: profile.withReasoning },
    { what: 'gold answers', rows: profile.withGoldAnswers },
    { what: 'gold support', rows: profile.withGoldSupport },
  ];
}

/**
 * `dialect 400, step 400, …`: each logged field (top-level key of `meta`) with the rows that have
 * it; `none` without any. `key` writes a key as the view needs it (a hover: a code span).
 */
export function loggedFieldsText(profile: PoolProfile, key: (name: string) => string = (name) => name): string {
  return profile.meta.length === 0 ? 'none' : profile.meta.map((m) => `${key(m.key)} ${m.rows}`).join(', ');
}
