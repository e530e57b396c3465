import type { Bar, Block, Cell, Column } from '../format-blocks.js';
import { h, type Html } from './html.js';

// The same blocks as the terminal table (format-document.ts), as HTML: the page shows them under
// the pictures for readers who want every figure. Rate bars are tiny SVGs, so the page needs no
// style attributes (the CSP allows only the page's own stylesheet).

/** A share in [0, 1] as a percentage of a 100-wide bar; anything else (NaN, out of range) is clamped. */
function share(x: number | undefined): number {
  const v = x === undefined || !Number.isFinite(x) ? 0 : Math.min(1, Math.max(0, x));
  return Math.round(v * 10000) / 100;
}

function bar(b: Bar): Html {
  const low = share(b.low ?? 0);
  return h('svg', { class: 'bar', viewBox: '0 0 100 10', preserveAspectRatio: 'none', width: 96, height: 10, 'aria-hidden': 'true' },
    h('rect', { class: 'track', width: 100, height: 10 }),
    b.high === undefined ? null : h('rect', { class: 'ci', x: low, width: Math.max(0, share(b.high) - low), height: 10 }),
    h('rect', { class: 'fill', width: share(b.value), height: 10 }));
}

function run(cell: Cell): Html | string {
  return cell.tone === undefined && cell.title === undefined ? cell.text : h('span', { class: cell.tone, title: cell.title }, cell.text);
}

function cellHtml(cell: Cell, tag: 'td' | 'th', align: Column['align']): Html {
  // A cell with a bar is left-aligned so that the bars line up down the column.
  const classes = [align === 'right' && cell.bar === undefined ? 'num' : '', cell.tone ?? ''].filter((c) => c !== '').join(' ');
  return h(tag, { class: classes === '' ? undefined : classes, title: cell.title }, cell.bar === undefined ? null : bar(cell.bar), cell.text);
}

export function blockHtml(block: Block): Html {
  switch (block.kind) {
    case 'heading':
      return block.level === 1 ? h('h3', {}, block.text) : h('h4', {}, block.text);
    case 'fields':
      return h('table', { class: 'fields' }, block.fields.map((f) => h('tr', {}, h('th', {}, f.name), h('td', {}, f.value.map(run)))));
    case 'paragraph':
      return h('p', { class: (block.indent ?? 0) > 0 ? 'indent' : undefined }, block.runs.map(run));
    case 'table':
      return h('div', { class: 'scroll' }, h('table', {},
        h('thead', {}, h('tr', {}, block.columns.map((c) => cellHtml({ text: c.title }, 'th', c.align)))),
        h('tbody', {}, block.rows.map((r) => h('tr', {}, block.columns.map((c, i) => cellHtml(r[i] ?? { text: '' }, 'td', c.align)))))));
  }
}

export function runsHtml(cells: readonly Cell[]): Html[] {
  return cells.map((c) => h('span', { class: c.tone }, c.text));
}
