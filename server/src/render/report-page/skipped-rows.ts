import { plural } from '../../report/format-numbers.js';
import { h, type Html } from './html.js';
import { rowFileAttribute, rowLineAttribute } from './page-contract.js';

// The rows an analysis skipped, listed where a reader of the page sees them (not folded away with
// the tables): one item per row the report keeps, each carrying its file and line for the editor.

/** A file an analysis read, as the report describes it (a corpus, a pool, a training or evaluation log). */
export interface ReadFile {
  readonly name: string;
  readonly file: string;
  readonly skipped: number;
  readonly issues: readonly { readonly file: string; readonly line: number; readonly reason: string }[];
}

function fileItems(read: ReadFile): Html[] {
  const shown = read.issues.filter((i) => i.line > 0);
  const items = shown.map((issue) => h('li', { class: 'skipped-row', [rowFileAttribute]: issue.file, [rowLineAttribute]: issue.line },
    h('code', {}, `${issue.file}:${issue.line}`), `: ${issue.reason}`));
  // The report keeps the first issues of each file; say how many more there were.
  const more = read.skipped - shown.length;
  return more > 0 ? [...items, h('li', { class: 'muted' }, `… and ${plural(more, 'more row')} in ${read.file}`)] : items;
}

/** The skipped-rows card of a section, or null when every row of every file was read. */
export function skippedRowsCard(files: readonly ReadFile[]): Html | null {
  const skipped = files.filter((f) => f.skipped > 0);
  if (skipped.length === 0) return null;
  const total = skipped.reduce((n, f) => n + f.skipped, 0);
  return h('figure', { class: 'card wide skipped-rows' },
    h('h3', {}, `Skipped rows (${total})`),
    h('p', { class: 'note' }, `${plural(total, 'row')} failed validation and ${total === 1 ? 'was' : 'were'} left out of every figure: `,
      skipped.map((f) => `${f.name} (${f.file}): ${f.skipped}`).join(', '), '.'),
    h('ul', { class: 'rows' }, skipped.flatMap(fileItems)));
}
