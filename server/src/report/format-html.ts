import type { Bar, Block, Cell } from './format-blocks.js';
import { describeReport } from './format-document.js';
import type { Report } from './schema.js';

// A standalone page with the same content as the terminal table: inline CSS, no script, nothing
// fetched (the CSP forbids it), every string from the report escaped.

const csp = "default-src 'none'; style-src 'unsafe-inline'; img-src data:";

const css = `
:root { color-scheme: light dark; --fg: #1b1f24; --muted: #57606a; --line: #d0d7de; --bg: #ffffff; --head: #f6f8fa;
  --good: #1a7f37; --bad: #cf222e; --warn: #9a6700; --accent: #0550ae; --bar: #bf8700; --ci: #eaeef2; }
@media (prefers-color-scheme: dark) { :root { --fg: #e6edf3; --muted: #8d96a0; --line: #30363d; --bg: #0d1117; --head: #161b22;
  --good: #3fb950; --bad: #f85149; --warn: #d29922; --accent: #58a6ff; --bar: #d29922; --ci: #30363d; } }
body { font: 14px/1.45 system-ui, -apple-system, "Segoe UI", sans-serif; color: var(--fg); background: var(--bg); margin: 2rem auto; max-width: 72rem; padding: 0 1rem; }
h1 { font-size: 1.5rem; margin: 0 0 .25rem; }
h2 { font-size: 1.25rem; margin: 2.5rem 0 .75rem; padding-bottom: .25rem; border-bottom: 2px solid var(--line); }
h3 { font-size: 1rem; margin: 1.75rem 0 .5rem; }
p { margin: .35rem 0; }
.scroll { overflow-x: auto; }
p.indent { margin-left: 1.5rem; }
table { border-collapse: collapse; margin: .5rem 0 1rem; font-variant-numeric: tabular-nums; }
th, td { padding: .25rem .6rem; border-bottom: 1px solid var(--line); text-align: left; vertical-align: middle; white-space: nowrap; }
th { background: var(--head); font-weight: 600; }
td.num, th.num { text-align: right; }
table.fields th { background: none; text-align: left; color: var(--muted); font-weight: 500; border: 0; padding-left: 0; }
table.fields td { border: 0; white-space: normal; }
.good { color: var(--good); } .bad { color: var(--bad); font-weight: 600; } .warn { color: var(--warn); }
.muted { color: var(--muted); } .accent { color: var(--accent); font-weight: 600; }
code { font-family: ui-monospace, SFMono-Regular, Menlo, Consolas, monospace; font-size: .92em; }
.bar { display: inline-block; position: relative; width: 6rem; height: .6rem; margin-right: .5rem; vertical-align: middle;
  background: var(--ci); border-radius: 2px; overflow: hidden; }
.bar .ci { position: absolute; top: 0; bottom: 0; background: var(--bar); opacity: .3; }
.bar .fill { position: absolute; top: 0; bottom: 0; left: 0; background: var(--bar); }
`;

const entities: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' };

/** Escapes text for element content and quoted attribute values. */
export function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => entities[c]!);
}

/** A share in [0, 1] as a CSS percentage; anything else (NaN, out of range) is clamped. */
function cssPercent(x: number | undefined): string {
  const v = x === undefined || !Number.isFinite(x) ? 0 : Math.min(1, Math.max(0, x));
  return `${(v * 100).toFixed(2)}%`;
}

function bar(b: Bar): string {
  const ci = b.high === undefined ? '' : `<span class="ci" style="left:${cssPercent(b.low ?? 0)};width:${cssPercent((b.high ?? 0) - (b.low ?? 0))}"></span>`;
  return `<span class="bar" aria-hidden="true">${ci}<span class="fill" style="width:${cssPercent(b.value)}"></span></span>`;
}

function run(cell: Cell): string {
  const text = escapeHtml(cell.text);
  return cell.tone === undefined ? text : `<span class="${cell.tone}">${text}</span>`;
}

function cellHtml(cell: Cell, tag: 'td' | 'th', align: 'left' | 'right' | undefined): string {
  // A cell with a bar is left-aligned so that the bars line up down the column.
  const classes = [align === 'right' && cell.bar === undefined ? 'num' : '', cell.tone ?? ''].filter((c) => c !== '').join(' ');
  const attr = classes === '' ? '' : ` class="${classes}"`;
  return `<${tag}${attr}>${cell.bar === undefined ? '' : bar(cell.bar)}${escapeHtml(cell.text)}</${tag}>`;
}

function blockHtml(block: Block): string {
  switch (block.kind) {
    case 'heading':
      return block.level === 1 ? `<h2>${escapeHtml(block.text)}</h2>` : `<h3>${escapeHtml(block.text)}</h3>`;
    case 'fields':
      return `<table class="fields">${block.fields.map((f) => `<tr><th>${escapeHtml(f.name)}</th><td>${f.value.map(run).join('')}</td></tr>`).join('')}</table>`;
    case 'paragraph':
      return `<p${(block.indent ?? 0) > 0 ? ' class="indent"' : ''}>${block.runs.map(run).join('')}</p>`;
    case 'table': {
      const head = `<thead><tr>${block.columns.map((c) => cellHtml({ text: c.title }, 'th', c.align)).join('')}</tr></thead>`;
      const body = block.rows.map((r) => `<tr>${block.columns.map((c, i) => cellHtml(r[i] ?? { text: '' }, 'td', c.align)).join('')}</tr>`).join('\n');
      return `<div class="scroll"><table>${head}<tbody>\n${body}\n</tbody></table></div>`;
    }
  }
}

export function formatHtml(report: Report): string {
  const doc = describeReport(report);
  const sections = doc.audits.map((a) => `<section>\n${a.blocks.map(blockHtml).join('\n')}\n</section>`);
  return [
    '<!DOCTYPE html>',
    '<html lang="en">',
    '<head>',
    '<meta charset="utf-8">',
    `<meta http-equiv="Content-Security-Policy" content="${csp}">`,
    '<meta name="viewport" content="width=device-width, initial-scale=1">',
    '<meta name="referrer" content="no-referrer">',
    `<title>${escapeHtml(doc.title)}</title>`,
    `<style>${css}</style>`,
    '</head>',
    '<body>',
    '<header>',
    '<h1>HERALD audit report</h1>',
    `<p>${doc.summary.map(run).join('')}</p>`,
    '</header>',
    '<main>',
    ...sections,
    '</main>',
    '</body>',
    '</html>',
    '',
  ].join('\n');
}
