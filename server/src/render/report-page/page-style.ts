// The report page's one stylesheet (inlined with the page's nonce). Colours are custom properties:
// a light and a dark palette, picked by the OS setting in a browser and by the theme's body class in
// a VS Code webview; the browser-side charts read the same properties, so both follow the theme.

const light = {
  fg: '#1b1f24', muted: '#57606a', line: '#d0d7de', bg: '#ffffff', card: '#f6f8fa', head: '#eef1f4',
  good: '#1a7f37', bad: '#cf222e', warn: '#9a6700', accent: '#0550ae', bar: '#bf8700', ci: '#eaeef2',
  'asr-zero': '#d1f4db', 'asr-low': '#fff3b0', 'asr-mid': '#ffd98a', 'asr-high': '#ffb38a', 'asr-severe': '#ff8f8f', 'asr-none': '#e6e9ed',
  'series-audited': '#cf222e', 'series-repair': '#1a7f37', 'series-1': '#8250df', 'series-2': '#0969da', 'series-3': '#bf3989', 'series-4': '#6e7781',
  'series-5': '#9a6700', 'series-6': '#1b7c83', 'edge': '#afb8c1',
};

const dark: typeof light = {
  fg: '#e6edf3', muted: '#8d96a0', line: '#30363d', bg: '#0d1117', card: '#161b22', head: '#1f252d',
  good: '#3fb950', bad: '#f85149', warn: '#d29922', accent: '#58a6ff', bar: '#d29922', ci: '#30363d',
  'asr-zero': '#1b4329', 'asr-low': '#4a4418', 'asr-mid': '#5c4312', 'asr-high': '#6b3519', 'asr-severe': '#7d2226', 'asr-none': '#2a3038',
  'series-audited': '#ff7b72', 'series-repair': '#3fb950', 'series-1': '#bc8cff', 'series-2': '#58a6ff', 'series-3': '#f778ba', 'series-4': '#8d96a0',
  'series-5': '#d29922', 'series-6': '#39c5cf', 'edge': '#484f58',
};

const palette = (p: typeof light): string => Object.entries(p).map(([k, v]) => `--${k}: ${v};`).join(' ');

export const pageStyle = `
:root { color-scheme: light dark; ${palette(light)} }
@media (prefers-color-scheme: dark) { :root { ${palette(dark)} } }
body.vscode-light, body.vscode-high-contrast-light { ${palette(light)} }
body.vscode-dark, body.vscode-high-contrast:not(.vscode-high-contrast-light) { ${palette(dark)} }
body { font: 14px/1.45 var(--vscode-font-family, system-ui, -apple-system, "Segoe UI", sans-serif); color: var(--fg);
  background: var(--vscode-editor-background, var(--bg)); margin: 1.5rem auto; max-width: 84rem; padding: 0 1.25rem; }
h1 { font-size: 1.5rem; margin: 0 0 .25rem; }
h2 { font-size: 1.3rem; margin: 2.25rem 0 .5rem; padding-bottom: .25rem; border-bottom: 2px solid var(--line); }
h3 { font-size: 1.05rem; margin: 0 0 .35rem; }
h4 { font-size: .95rem; margin: .25rem 0; font-weight: 600; }
p { margin: .35rem 0; }
code { font-family: var(--vscode-editor-font-family, ui-monospace, SFMono-Regular, Menlo, Consolas, monospace); font-size: .92em; }
.muted { color: var(--muted); } .good { color: var(--good); } .bad { color: var(--bad); font-weight: 600; } .warn { color: var(--warn); }
.accent { color: var(--accent); font-weight: 600; }
.meta { color: var(--muted); margin-bottom: 1rem; }
.chips { display: flex; flex-wrap: wrap; gap: .35rem; margin: .5rem 0 1rem; padding: 0; list-style: none; }
.chip { border: 1px solid var(--line); border-radius: 999px; padding: .05rem .6rem; font-size: .85rem; background: var(--card); }
.chip.passed { border-color: var(--good); color: var(--good); } .chip.failed { border-color: var(--bad); color: var(--bad); font-weight: 600; }
.cards { display: grid; grid-template-columns: repeat(auto-fit, minmax(30rem, 1fr)); grid-auto-flow: row dense; gap: 1rem; }
.card { margin: 0; padding: 1rem 1.1rem; border: 1px solid var(--line); border-radius: 8px; background: var(--card); min-width: 0; }
.card.wide { grid-column: 1 / -1; }
.card > p.note { color: var(--muted); font-size: .88rem; }
.split { display: grid; grid-template-columns: minmax(0, 3fr) minmax(14rem, 2fr); gap: 1.25rem; align-items: start; }
.split .note { margin-top: 0; }
@media (max-width: 60rem) { .split { grid-template-columns: minmax(0, 1fr); } }
.small-multiples { display: grid; grid-template-columns: repeat(auto-fit, minmax(24rem, 1fr)); gap: .75rem 1.25rem; }
.chart-box { min-width: 0; }
.js .chart { position: relative; height: 240px; }
.js .chart.tall { height: 300px; }
.chart-fallback { color: var(--muted); font-size: .88rem; border: 1px dashed var(--line); border-radius: 6px; padding: .75rem; margin: 0; }
.js .chart-fallback { display: none; }
.js .chart.failed { height: auto; } .js .chart.failed .chart-fallback { display: block; }
.caption { font-size: .85rem; color: var(--muted); margin: .3rem 0 0; }
.caption b { color: var(--fg); font-weight: 600; }
.toolbar { display: flex; gap: .25rem; margin: 0 0 .5rem; align-items: center; font-size: .85rem; color: var(--muted); }
.toolbar button { font: inherit; color: var(--fg); background: var(--bg); border: 1px solid var(--line); border-radius: 4px; padding: .1rem .55rem; cursor: pointer; }
.toolbar button[aria-pressed="true"] { border-color: var(--accent); color: var(--accent); font-weight: 600; }
ul.pairs { margin: .35rem 0 0; padding-left: 1.2rem; font-size: .88rem; } ul.pairs li { margin: .15rem 0; }
.row-link { cursor: pointer; color: var(--accent); text-decoration: underline dotted; }
.row-link:focus-visible, button:focus-visible, summary:focus-visible { outline: 2px solid var(--accent); outline-offset: 1px; }
button.pair-link { font: inherit; font-size: .82rem; color: var(--accent); background: var(--bg); border: 1px solid var(--line); border-radius: 4px; padding: 0 .45rem; margin-left: .4rem; cursor: pointer; }
.hasse-scroll { overflow-x: auto; }
svg.hasse { display: block; margin: .25rem auto; font-size: 12.5px; }
svg.hasse .row-label { fill: var(--muted); font-size: 11.5px; }
svg.hasse .edge { stroke: var(--edge); stroke-width: 1.2; }
svg.hasse .edge.toward-repair { stroke: var(--accent); stroke-width: 2.4; }
svg.hasse.compact .edge { stroke-width: .6; opacity: .6; }
svg.hasse .node { cursor: pointer; outline: none; }
svg.hasse .node .box { stroke: var(--line); stroke-width: 1.2; }
svg.hasse .node.sufficient .box { stroke: var(--good); stroke-width: 1.8; }
svg.hasse .node .ring { fill: none; stroke: var(--accent); stroke-width: 3; }
svg.hasse .node:focus .box, svg.hasse .node:hover .box, svg.hasse .node.selected .box { stroke: var(--accent); stroke-width: 2.4; }
svg.hasse .node:focus-visible .box { stroke-width: 3.5; stroke-dasharray: 4 2; }
svg.hasse .node .set { fill: var(--fg); font-weight: 600; }
svg.hasse .node .asr { fill: var(--fg); font-variant-numeric: tabular-nums; }
svg.hasse .node .check { fill: var(--good); font-weight: 700; }
svg.hasse .node .repair-tag { fill: var(--accent); font-weight: 600; font-size: 11.5px; }
.asr-zero .box, .swatch.asr-zero { fill: var(--asr-zero); background: var(--asr-zero); }
.asr-low .box, .swatch.asr-low { fill: var(--asr-low); background: var(--asr-low); }
.asr-mid .box, .swatch.asr-mid { fill: var(--asr-mid); background: var(--asr-mid); }
.asr-high .box, .swatch.asr-high { fill: var(--asr-high); background: var(--asr-high); }
.asr-severe .box, .swatch.asr-severe { fill: var(--asr-severe); background: var(--asr-severe); }
.asr-none .box, .swatch.asr-none { fill: var(--asr-none); background: var(--asr-none); }
.legend { display: flex; flex-wrap: wrap; gap: .3rem .9rem; font-size: .82rem; color: var(--muted); margin: .5rem 0 0; padding: 0; list-style: none; }
.legend li { display: flex; align-items: center; gap: .3rem; }
.swatch { display: inline-block; width: .9rem; height: .9rem; border: 1px solid var(--line); border-radius: 3px; }
.swatch.ring { background: none; border: 2.5px solid var(--accent); }
.swatch.check { border: 0; width: auto; height: auto; color: var(--good); font-weight: 700; }
.subset-detail { margin-top: .6rem; font-size: .88rem; }
.subset-detail:empty { display: none; }
details.tables { margin: 1.5rem 0 0; }
details.tables > summary { cursor: pointer; font-weight: 600; color: var(--accent); }
.scroll { overflow-x: auto; }
p.indent { margin-left: 1.5rem; }
table { border-collapse: collapse; margin: .5rem 0 1rem; font-variant-numeric: tabular-nums; }
th, td { padding: .25rem .6rem; border-bottom: 1px solid var(--line); text-align: left; vertical-align: middle; white-space: nowrap; }
th { background: var(--head); font-weight: 600; }
td.num, th.num { text-align: right; }
table.fields th { background: none; text-align: left; color: var(--muted); font-weight: 500; border: 0; padding-left: 0; }
table.fields td { border: 0; white-space: normal; }
svg.bar { vertical-align: middle; margin-right: .5rem; }
svg.bar .track { fill: var(--ci); } svg.bar .ci { fill: var(--bar); opacity: .3; } svg.bar .fill { fill: var(--bar); }
[title].explained { text-decoration: underline dotted; cursor: help; }
ul.rows { margin: .35rem 0 0; padding-left: 1.2rem; font-size: .88rem; }
ul.rows li { margin: .1rem 0; }
footer { margin: 2.5rem 0 1rem; color: var(--muted); font-size: .82rem; }
`;
