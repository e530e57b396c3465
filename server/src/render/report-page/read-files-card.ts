import { importSentence, resolutionCounts, unresolvedSentence } from '../../findings/wording.js';
import { plural } from '../../report/format-numbers.js';
import type { PoolImportReport, PoolResolutionReport } from '../../report/schema.js';
import { h, type Html } from './html.js';
import { rowFileAttribute, rowLineAttribute } from './page-contract.js';

// What reading the pools took, beside the skipped rows: each import's counts and how the ids a log
// did not give were resolved against the corpus, with the rows whose results did not resolve (each
// carrying its file and line for the editor, like a skipped row).

export interface ReadPool {
  readonly name: string;
  readonly file: string;
  readonly resolution?: PoolResolutionReport | undefined;
  readonly import?: PoolImportReport | undefined;
}

function poolItems(p: ReadPool): Html[] {
  const r = p.resolution;
  const unresolved = r === undefined ? undefined : unresolvedSentence(r);
  const head = h('p', { class: 'note' }, h('strong', {}, `${p.name} (${p.file})`), ': ',
    p.import === undefined ? '' : `${importSentence(p.import)}${p.import.notes.length === 0 ? '' : ` (${p.import.notes.join('; ')})`}${r === undefined ? '' : '. '}`,
    r === undefined ? '' : `ids: ${resolutionCounts(r)}`,
    unresolved === undefined ? '' : h('span', { class: 'warn' }, ` (${unresolved})`), '.');
  if (r === undefined || r.notes.length === 0) return [head];
  const items = r.notes.map((n) => h('li', { class: 'unresolved-row', [rowFileAttribute]: n.file, [rowLineAttribute]: n.line }, h('code', {}, `${n.file}:${n.line}`), `: ${n.reason}`));
  const more = r.rowsWithUnresolved - r.notes.length;
  return [head, h('ul', { class: 'rows' }, items, more > 0 ? h('li', { class: 'muted' }, `… and ${plural(more, 'more row')} in ${p.file}`) : null)];
}

/** The card of a section's imports and id resolution, or null when no pool was imported or logged anything to resolve. */
export function readFilesCard(pools: readonly ReadPool[]): Html | null {
  const said = pools.filter((p) => p.resolution !== undefined || p.import !== undefined);
  if (said.length === 0) return null;
  return h('figure', { class: 'card wide read-files' },
    h('h3', {}, 'Imports and ids'),
    said.flatMap(poolItems));
}
