import { traceOf } from '../pool/types.js';
import type { CheckedRow, DataRow } from './pool-rows.js';

// What a data file's row shows in a hover, as text made where the row is checked: on the server
// thread for a file's own rows, in the worker for an imported log's (lsp/import-run.ts), so only
// these few lines per row cross between the threads, never the rows with their passages.

/** A checked row as a hover shows it: a kept row's lines (markdown) instead of the row. */
export type ShownRow =
  | Exclude<CheckedRow, { readonly ok: true }>
  | { readonly ok: true; readonly line: number; readonly unresolved?: string; readonly shown: readonly string[] };

/** Characters of a question, answer or passage shown in a hover. */
const maxTextShown = 240;

const clip = (text: string): string => (text.length > maxTextShown ? `${text.slice(0, maxTextShown)}…` : text);

/** A code span of `text`. */
export const code = (text: string): string => `\`${text.replace(/`/g, "'")}\``;

const markupCharacters = /[\\`*_[\]<>|~]/g;

/** Markdown text, inside a line that starts with other text, with every character that could start markup escaped. */
export function markdownText(text: string): string {
  return text.replace(markupCharacters, '\\$&').replace(/\r?\n/g, ' ');
}

/** The text `markdownText` escaped, for a client that shows hovers as plain text. */
export function unescapeMarkdown(text: string): string {
  return text.replace(/\\([\\`*_[\]<>|~])/g, '$1');
}

function rowLines(value: DataRow): string[] {
  switch (value.kind) {
    case 'pool': {
      const { row } = value;
      const searches = row.steps.filter((s) => s.type === 'search').length;
      // Format v2 steps beyond searches and invalid actions (an imported Search-R1 rollout thinks, a deep-research run calls tools).
      const trace = traceOf(row);
      const more = (['tool', 'reasoning'] as const).flatMap((type) => {
        const n = trace.filter((s) => s.type === type).length;
        return n === 0 ? [] : [`, ${n} ${type === 'tool' ? 'tool calls' : 'reasoning steps'}`];
      }).join('');
      const steps = `${searches} searches, ${row.steps.length - searches} invalid steps${more}`;
      const meta = (['model', 'sample', 'group'] as const).flatMap((k) => (row.meta[k] === undefined ? [] : [`${k} ${code(String(row.meta[k]))}`]));
      return [
        `**trajectory** ${code(row.id)} · question ${code(row.question_id)}${meta.length > 0 ? ` · ${meta.join(', ')}` : ''}`,
        `Question: ${markdownText(clip(row.question))}`,
        row.final === null
          ? `no final · ${steps}`
          : `final answer ${code(clip(row.final.answer))}, citing ${row.final.citations.map(code).join(', ') || 'nothing'} · ${steps}`,
      ];
    }
    case 'corpus':
      return [`**passage** ${code(value.passage.id)}: **${markdownText(value.passage.title)}**`, `Text: ${markdownText(clip(value.passage.text))}`];
    case 'candidates':
      return [`**candidates** for ${code(value.list.traj_id)}, citation ${value.list.citation_index}: ${value.list.candidates.map(code).join(', ') || 'none'}`];
  }
}

/** The rows as hovers show them. */
export function shownRows(rows: readonly CheckedRow[]): ShownRow[] {
  return rows.map((r): ShownRow => (r.ok ? { ok: true, line: r.line, ...(r.unresolved === undefined ? {} : { unresolved: r.unresolved }), shown: rowLines(r.value) } : r));
}
