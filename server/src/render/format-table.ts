import { mapBlockText, type Block, type Cell, type Column, type Tone } from './format-blocks.js';
import { describeReport } from './format-document.js';
import { escapeControls } from '../report/escape-text.js';
import type { Report } from '../report/schema.js';

// The audit summary for a terminal or a CI log: aligned plain-text tables, ANSI colour only when
// asked. For a terminal (`fit`) no line is wider than 120 columns, free text cut with "…"; for a
// file or a pipe nothing is cut (prose still wraps at 120). Text from the data (ids, file names,
// reasons) is escaped before it is measured, so it can neither break a line nor send escapes of its own.

export interface TableOptions {
  /** Colour headings, ✓/✗ and rates with ANSI escapes (for a terminal, not for a log file). */
  readonly color?: boolean;
  /**
   * Cut table cells, headings and lines to 120 columns (default true: a terminal). False for a
   * file or a pipe, where a reader or a program wants every character and the lines may be long.
   */
  readonly fit?: boolean;
}

const maxWidth = 120;
const ruleWidth = 100;
const gap = '  ';
const minShrunk = 8;

const ansi: Record<Tone | 'heading', string> = {
  good: '\u001b[32m', bad: '\u001b[31m', warn: '\u001b[33m', muted: '\u001b[2m', accent: '\u001b[1;36m', heading: '\u001b[1m',
};
const reset = '\u001b[0m';

/** Width in terminal columns: one per code point (every symbol used here is single-width). */
const width = (s: string): number => [...s].length;

function truncate(s: string, w: number): string {
  const chars = [...s];
  return chars.length <= w ? s : `${chars.slice(0, Math.max(0, w - 1)).join('')}…`;
}

function pad(s: string, w: number): string {
  return s + ' '.repeat(Math.max(0, w - width(s)));
}

/** How a rendering paints and whether it cuts to the page width. */
interface Layout {
  readonly paint: Paint;
  readonly fit: boolean;
}

function layoutOf(options: TableOptions): Layout {
  return {
    paint: (s, tone) => (options.color === true && tone !== undefined && s.trim() !== '' ? `${ansi[tone]}${s}${reset}` : s),
    fit: options.fit ?? true,
  };
}

export function formatTable(report: Report, options: TableOptions = {}): string {
  const layout = layoutOf(options);
  const doc = describeReport(report);
  const lines: string[] = [
    layout.paint('HERALD audit report', 'heading'),
    ...wrapRuns(doc.summary.map((c) => ({ ...c, text: escapeControls(c.text) })), 0, layout),
  ];
  for (const audit of doc.audits) {
    for (const block of audit.blocks) for (const line of renderBlock(mapBlockText(block, escapeControls), layout)) lines.push(line);
  }
  return `${lines.join('\n')}\n`;
}

/** Blocks alone as the text table prints them (the paper's tables: `herald audit --tables text`). */
export function formatBlocks(blocks: readonly Block[], options: TableOptions = {}): string {
  const layout = layoutOf(options);
  const lines = blocks.flatMap((block) => renderBlock(mapBlockText(block, escapeControls), layout));
  return `${lines.join('\n').replace(/^\n/, '')}\n`;
}

type Paint = (s: string, tone: Tone | 'heading' | undefined) => string;

function renderBlock(block: Block, layout: Layout): string[] {
  const { paint } = layout;
  switch (block.kind) {
    case 'heading': {
      const title = layout.fit ? truncate(block.text, ruleWidth - 8) : block.text;
      const bar = block.level === 1 ? '═' : '─';
      return ['', paint(`${bar.repeat(2)} ${title} ${bar.repeat(Math.max(2, ruleWidth - width(title) - 4))}`, 'heading')];
    }
    case 'fields': {
      const nameWidth = block.fields.reduce((w, f) => Math.max(w, width(f.name)), -Infinity);
      return block.fields.flatMap((f) => wrapRuns(f.value, 2 + nameWidth + 2, layout, `${gap}${pad(f.name, nameWidth)}${gap}`));
    }
    case 'paragraph':
      return wrapRuns(block.runs, gap.length + (block.indent ?? 0), layout);
    case 'table':
      return ['', ...renderTable(block.columns, block.rows, layout)];
  }
}

/**
 * Lays out a table two spaces in. When it is wider than the page and is to fit, the free-text
 * columns marked `shrink` are cut with an ellipsis, widest first; numbers are never cut.
 */
function renderTable(columns: readonly Column[], rows: readonly (readonly Cell[])[], { paint, fit }: Layout): string[] {
  // A loop, not Math.max(...rows): a sweep or lattice table may have more rows than a call takes arguments.
  const widths = columns.map((c, i) => rows.reduce((w, r) => Math.max(w, width(r[i]?.text ?? '')), width(c.title)));
  const total = (): number => gap.length + widths.reduce((s, w) => s + w, 0) + gap.length * (columns.length - 1);
  const clip = (line: string): string => (fit ? clipToPage(line) : line);
  while (fit && total() > maxWidth) {
    let widest = -1;
    columns.forEach((c, i) => {
      if (c.shrink === true && widths[i]! > minShrunk && (widest < 0 || widths[i]! > widths[widest]!)) widest = i;
    });
    if (widest < 0) break;
    widths[widest] = Math.max(minShrunk, widths[widest]! - (total() - maxWidth));
  }
  const line = (cells: readonly Cell[], header: boolean): string => {
    const parts = columns.map((c, i) => {
      const shown = truncate(cells[i]?.text ?? '', widths[i]!);
      const fill = ' '.repeat(Math.max(0, widths[i]! - width(shown)));
      const painted = paint(shown, header ? 'heading' : cells[i]?.tone);
      return c.align === 'right' ? fill + painted : painted + fill;
    });
    return clip(`${gap}${parts.join(gap)}`.trimEnd());
  };
  return [
    line(columns.map((c) => ({ text: c.title })), true),
    clip(`${gap}${widths.map((w) => '─'.repeat(w)).join(gap)}`),
    ...rows.map((r) => line(r, false)),
  ];
}

/** Last resort when a table still does not fit: cut the plain text (an escape sequence is never cut). */
function clipToPage(line: string): string {
  if (!line.includes('\u001b') && width(line) > maxWidth) return truncate(line, maxWidth);
  return line;
}

/** Word-wraps runs of text at the page width with a hanging indent; `first` prefixes the first line. */
function wrapRuns(runs: readonly Cell[], indent: number, { paint, fit }: Layout, first = ' '.repeat(indent)): string[] {
  const words: { text: string; tone: Tone | undefined; space: boolean }[] = [];
  let space = false;
  for (const run of runs) {
    for (const piece of run.text.split(/( +)/)) {
      if (piece === '') continue;
      if (piece.trim() === '') {
        space = true;
        continue;
      }
      words.push({ text: piece, tone: run.tone, space });
      space = false;
    }
  }
  // A line is a list of same-tone segments, painted once each when the line is done.
  const lines: string[] = [];
  let prefix = first;
  let segments: { text: string; tone: Tone | undefined }[] = [];
  let used = width(first);
  const flush = (): void => {
    lines.push(`${prefix}${segments.map((g) => paint(g.text, g.tone)).join('')}`.trimEnd());
    prefix = ' '.repeat(indent);
    segments = [];
    used = indent;
  };
  for (const word of words) {
    const lead = word.space && segments.length > 0 ? ' ' : '';
    if (segments.length > 0 && used + width(lead + word.text) > maxWidth) flush();
    const shownLead = segments.length > 0 ? lead : '';
    // A word longer than the line is cut only to fit a terminal.
    const shown = fit ? truncate(word.text, maxWidth - used - shownLead.length) : word.text;
    const last = segments[segments.length - 1];
    if (last !== undefined && last.tone === word.tone) last.text += shownLead + shown;
    else {
      if (shownLead !== '') segments.push({ text: shownLead, tone: undefined });
      segments.push({ text: shown, tone: word.tone });
    }
    used += width(shownLead + shown);
  }
  flush();
  return lines;
}
