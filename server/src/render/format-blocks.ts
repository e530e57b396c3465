// The pieces an audit summary is made of (headings, key–value fields, tables, sentences): the text
// table and the HTML page both render these, so the two exports cannot disagree on content.

export type Tone = 'good' | 'bad' | 'warn' | 'muted' | 'accent';

/** A rate drawn as a bar in HTML: the point estimate and, when known, its interval. */
export interface Bar {
  readonly value: number;
  readonly low?: number;
  readonly high?: number;
}

export interface Cell {
  readonly text: string;
  readonly tone?: Tone | undefined;
  readonly bar?: Bar | undefined;
  /** What the cell means, as a tooltip in HTML (a terminal table says it in a note instead). */
  readonly title?: string | undefined;
}

export interface Column {
  readonly title: string;
  readonly align?: 'left' | 'right';
  /** Free text that may be cut with an ellipsis when a terminal table is too wide. */
  readonly shrink?: boolean;
}

export type Block =
  | { readonly kind: 'heading'; readonly level: 1 | 2; readonly text: string }
  | { readonly kind: 'fields'; readonly fields: readonly { readonly name: string; readonly value: readonly Cell[] }[] }
  | { readonly kind: 'table'; readonly columns: readonly Column[]; readonly rows: readonly (readonly Cell[])[] }
  | { readonly kind: 'paragraph'; readonly runs: readonly Cell[]; readonly indent?: number };

export const cell = (text: string, tone?: Tone, bar?: Bar, title?: string): Cell => ({ text, tone, bar, ...(title === undefined ? {} : { title }) });
export const text = (t: string): Cell => ({ text: t });
export const paragraph = (runs: readonly Cell[], indent = 0): Block => ({ kind: 'paragraph', runs, indent });
export const heading = (t: string, level: 1 | 2 = 2): Block => ({ kind: 'heading', level, text: t });
/** How a rate is coloured: muted when undefined (no clusters), warn above zero, good at zero. */
export const rateTone = (asr: number | null): Tone | undefined => (asr === null ? 'muted' : asr > 0 ? 'warn' : 'good');

/** A rate's bar with whatever ends of its interval are known; none for an undefined rate. */
export function rateBar(value: number | null, low?: number | null, high?: number | null): Bar | undefined {
  if (value === null) return undefined;
  return { value, ...(low === null || low === undefined ? {} : { low }), ...(high === null || high === undefined ? {} : { high }) };
}
export const check = (ok: boolean): Cell => cell(ok ? '✓' : '✗', ok ? 'good' : 'bad');

/** The block with `f` applied to every text in it: how a renderer escapes what the data put there. */
export function mapBlockText(block: Block, f: (text: string) => string): Block {
  const run = (c: Cell): Cell => ({ ...c, text: f(c.text) });
  switch (block.kind) {
    case 'heading':
      return { ...block, text: f(block.text) };
    case 'fields':
      return { ...block, fields: block.fields.map((field) => ({ name: f(field.name), value: field.value.map(run) })) };
    case 'table':
      return { ...block, columns: block.columns.map((c) => ({ ...c, title: f(c.title) })), rows: block.rows.map((r) => r.map(run)) };
    case 'paragraph':
      return { ...block, runs: block.runs.map(run) };
  }
}

