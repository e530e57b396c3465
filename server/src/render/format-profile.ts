import { cell, heading, paragraph, text, type Block } from './format-blocks.js';
import { loggedFieldsText, profileCounts } from '../findings/profile-words.js';
import type { AuditReport } from '../report/schema.js';

// The pool profile section: what the audit's pools hold, counted (rows with a final answer,
// citations, searches, retrieved ids, reasoning, gold, and each logged field), so a figure that
// tests nothing can be read against the data (a log with no citations has nothing to launder).

export function profileBlocks(audit: AuditReport): Block[] {
  if (audit.pools.length === 0) return [];
  const columns = profileCounts(audit.pools[0]!.profile).map((c) => ({ title: c.what, align: 'right' as const }));
  return [
    heading('pool profile'),
    paragraph([cell('rows of each pool that have each part; the logged fields are the keys of meta, with the rows that have them', 'muted')]),
    {
      kind: 'table',
      columns: [{ title: 'pool' }, { title: 'rows', align: 'right' }, ...columns],
      rows: audit.pools.map((p) => [
        text(p.name), text(String(p.profile.rows)),
        ...profileCounts(p.profile).map((c) => cell(String(c.rows), c.rows === 0 && p.profile.rows > 0 ? 'warn' : undefined)),
      ]),
    },
    { kind: 'fields', fields: audit.pools.map((p, i) => ({ name: i === 0 ? 'logged fields' : '', value: [text(`${p.name}: ${loggedFieldsText(p.profile)}`)] })) },
  ];
}
