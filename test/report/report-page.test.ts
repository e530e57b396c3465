import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { before, describe, it } from 'node:test';
import { JSDOM } from 'jsdom';
import { formatHtml } from '../../server/src/render/format-html.js';
import { marginView, strataGroups, sweepLines } from '../../server/src/render/report-page/chart-data.js';
import { hasseLayout } from '../../server/src/render/report-page/hasse.js';
import { renderReportPage } from '../../server/src/render/report-page/render-page.js';
import { report as reportSchema, type LatticeReport, type Report } from '../../server/src/report/schema.js';
import { goldenReport, withAudit } from './golden-report.js';
import { runPage } from './page-runner.js';

// The report page: the lattice drawn on the server, the data the charts plot, a CSP that lets
// nothing remote in, JSON that cannot break out of its script element, and the view script run
// for real (the bundle the CLI inlines) in jsdom with a stand-in 2D context.

const nonce = 'bm9uY2Utbm9uY2Utbm9uY2U=';
const webviewSource = "'self' https://*.vscode-cdn.net";

function parse(html: string): Document {
  return new JSDOM(html).window.document;
}

function cspOf(doc: Document): Map<string, string[]> {
  const content = doc.querySelector('meta[http-equiv="Content-Security-Policy"]')?.getAttribute('content');
  assert.ok(content, 'a CSP meta element');
  return new Map(content.split(';').map((d) => d.trim().split(/\s+/)).map(([name, ...sources]) => [name!, sources]));
}

/** Every source is 'none', 'self', the page's nonce, the webview's own origin, or data: for images. */
function assertStrictCsp(doc: Document, pageNonce: string, own: readonly string[]): void {
  const csp = cspOf(doc);
  for (const [directive, sources] of csp) {
    for (const s of sources) {
      const allowed = s === "'none'" || s === "'self'" || s === `'nonce-${pageNonce}'` || own.includes(s) || (s === 'data:' && directive === 'img-src');
      assert.ok(allowed, `${directive} allows ${s}`);
    }
  }
  assert.deepEqual(csp.get('default-src'), ["'none'"]);
  assert.deepEqual(csp.get('script-src'), [`'nonce-${pageNonce}'`]);
  assert.deepEqual(csp.get('base-uri'), ["'none'"]);
  // Everything the page itself runs or styles carries the nonce; no inline handlers or style attributes.
  for (const e of doc.querySelectorAll('script:not([type="application/json"]), style')) assert.equal(e.getAttribute('nonce'), pageNonce, e.outerHTML.slice(0, 40));
  for (const e of doc.querySelectorAll('*')) {
    for (const a of e.getAttributeNames()) assert.ok(a !== 'style' && !a.startsWith('on'), `<${e.tagName.toLowerCase()} ${a}>`);
  }
}

function nodesOf(doc: Document, audit: number): Element[] {
  return [...doc.querySelectorAll(`section.audit[data-audit="${audit}"] svg.hasse g.node`)];
}

function embeddedReport(doc: Document): Report {
  return JSON.parse(doc.getElementById('herald-report')!.textContent!) as Report;
}

describe('report page: the golden report', () => {
  const golden = goldenReport();
  const doc = parse(renderReportPage(golden, { nonce }));

  it('draws the lattice on the server: one node per subset of {U, L, F}, {L} ringed as the minimal repair', () => {
    const nodes = nodesOf(doc, 0);
    assert.equal(nodes.length, 8);
    assert.deepEqual(new Set(nodes.map((n) => n.getAttribute('data-subset'))).size, 8);
    const minimal = nodes.filter((n) => n.classList.contains('minimal'));
    assert.deepEqual(minimal.map((n) => n.getAttribute('data-detectors')), ['L']);
    assert.ok(minimal[0]!.querySelector('rect.ring'));
    assert.equal(minimal[0]!.querySelector('text.repair-tag')?.textContent, 'minimal repair');
    // Every subset with L is sufficient (and has the ✓); the others keep a positive oracle-worst ASR.
    assert.deepEqual(nodes.filter((n) => n.classList.contains('sufficient')).map((n) => n.getAttribute('data-detectors')).sort(), ['L', 'L,F', 'U,L', 'U,L,F']);
    const empty = nodes.find((n) => n.getAttribute('data-detectors') === '')!;
    assert.ok(empty.classList.contains('asr-severe'));
    // same_final ties (margin 0, a success) on every trajectory under R0.
    assert.equal(empty.querySelector('text.asr')?.textContent, '100.00%');
    assert.ok(minimal[0]!.classList.contains('asr-zero'));
    // Edges S → S ∪ {d}: 3 · 2² of them; only ∅ → {L} leads to the repair.
    const edges = [...doc.querySelectorAll('section.audit[data-audit="0"] svg.hasse line.edge')];
    assert.equal(edges.length, 12);
    assert.deepEqual(edges.filter((e) => e.classList.contains('toward-repair')).map((e) => e.querySelector('title')?.textContent), ['∅ + L → {L}']);
  });

  it('embeds the report as JSON that reads back unchanged', () => {
    const embedded = embeddedReport(doc);
    assert.deepEqual(embedded, JSON.parse(JSON.stringify(golden)));
    assert.deepEqual(embedded.audits[0]!.lattice.minimal, [['L']]);
  });

  it('has a chart container per attack, two for the sweep, one for the strata', () => {
    const kinds = [...doc.querySelectorAll('[data-chart]')].map((e) => e.getAttribute('data-chart'));
    assert.deepEqual(kinds, ['margins', 'margins', 'sweep-asr', 'sweep-margin', 'strata']);
  });

  it('keeps the tables below the pictures', () => {
    assert.match(doc.querySelector('details.tables')!.textContent!, /R0 \+0\.81375 → R_L −0\.38625 → R_full \+0\.41375/);
  });

  it('lists skipped rows where they are seen, each with its file and line for the editor; none when every row was read', () => {
    assert.equal(doc.querySelector('.skipped-rows'), null);
    const issues = [{ file: 'pools/p.jsonl', line: 4, reason: 'not JSON' }, { file: 'pools/p.jsonl', line: 9, reason: 'question_id: required' }];
    const report = withAudit(golden, (a) => ({ ...a, pools: a.pools.map((p, i) => (i === 0 ? { ...p, skipped: 3, issues } : p)) }));
    const page = parse(renderReportPage(report, { nonce }));
    const card = page.querySelector('section.audit .skipped-rows')!;
    assert.equal(card.querySelector('h3')?.textContent, 'Skipped rows (3)');
    const rows = [...card.querySelectorAll('li.skipped-row')];
    assert.deepEqual(rows.map((r) => [r.getAttribute('data-row-file'), r.getAttribute('data-row-line'), r.textContent]), [
      ['pools/p.jsonl', '4', 'pools/p.jsonl:4: not JSON'], ['pools/p.jsonl', '9', 'pools/p.jsonl:9: question_id: required'],
    ]);
    assert.match(card.textContent!, /… and 1 more row in /);
    // Above the pictures, not folded into the tables.
    assert.equal(card.closest('details'), null);
  });

  it('says small samples above the pictures and marks their rates; explains labels where they appear', () => {
    const small = [...doc.querySelectorAll('section.audit p.small-sample')].map((p) => p.textContent);
    assert.deepEqual(small.map((t) => /has only (\d+) isolated-eligible clusters/.exec(t ?? '')?.[1]), ['3', '3']);
    assert.match(doc.querySelector('details.tables')!.textContent!, /100\.00% \[100\.0, 100\.0\] †/);
    const label = [...doc.querySelectorAll('details.tables td')].find((td) => td.textContent === 'label-free');
    assert.match(label?.getAttribute('title') ?? '', /^label-free: the edit was chosen without reading gold/);
    const reward = doc.querySelector('section.audit p.meta span.explained');
    assert.equal(reward?.textContent, 'R0 (reads gold)');
    assert.match(reward?.getAttribute('title') ?? '', /^R0 reads gold, so the figures whose edit is chosen to maximise it \(oracle-worst\) are oracle upper bounds; first-visible figures/);
  });

  it('has a strict CSP, in a browser page and in a webview', () => {
    assertStrictCsp(doc, nonce, []);
    const webview = parse(renderReportPage(golden, { nonce, cspSource: webviewSource, scriptUri: 'https://file+.vscode-resource.vscode-cdn.net/ext/dist/report-view.js' }));
    assertStrictCsp(webview, nonce, webviewSource.split(' '));
    assert.equal(webview.querySelector('script[src]')?.getAttribute('nonce'), nonce);
  });

  it('refuses a weak nonce, a CSP source that is not one, and a script that would end its element', () => {
    assert.throws(() => renderReportPage(golden, { nonce: 'abc' }), /nonce/);
    assert.throws(() => renderReportPage(golden, { nonce, cspSource: "https://x.example; script-src 'unsafe-inline'" }), /CSP source/);
    assert.throws(() => renderReportPage(golden, { nonce, inlineScript: 'var s = "</script>";' }), /<\/script/);
  });

  it('cannot be broken out of by a trajectory id, an attack name or a spec name', () => {
    const evil = '</script><script>alert(1)</script><!--';
    const report = withAudit({ ...golden, spec: evil }, (a) => ({
      ...a,
      attacks: a.attacks.map((t, i) => (i === 0 ? { ...t, name: evil } : t)),
      cancellation: a.cancellation.map((c) => ({ ...c, example: { ...c.example, trajectory: evil } })),
    }));
    const html = renderReportPage(report, { nonce });
    const json = /<script type="application\/json" id="herald-report">([\s\S]*?)<\/script>/.exec(html)?.[1] ?? '';
    assert.doesNotMatch(json, /</);
    const page = parse(html);
    assert.equal(page.querySelectorAll('script').length, 1, 'only the JSON element; the page was rendered without the view');
    assert.deepEqual(embeddedReport(page), JSON.parse(JSON.stringify(report)));
    assert.equal(page.title, `HERALD audit report: ${evil}`);
  });
});

describe('report page: chart data', () => {
  const audit = goldenReport().audits[0]!;

  it('bins every trajectory once per reward and selection, with ties on the winning side of 0', () => {
    const launder = audit.attacks.find((a) => a.name === 'launder')!;
    const view = marginView(audit, launder);
    assert.equal(view.edges.length, 25);
    assert.ok(view.edges.includes(0));
    assert.deepEqual(view.series.map((s) => `${s.reward}/${s.role}/${s.selection}/${s.shown}`), [
      'R0/audited/first_visible/true', 'R0/audited/oracle_worst/true', 'R_L/compared/first_visible/false', 'R_L/compared/oracle_worst/false',
      'R_full/compared/first_visible/false', 'R_full/compared/oracle_worst/false', 'R0[L]/repair/first_visible/true', 'R0[L]/repair/oracle_worst/true',
    ]);
    for (const s of view.series) assert.equal(s.trajectories, launder.counts.rows.isolatedEligible);
    // Under R0, t1 gains +0.81375 and t3 ties: two of the four trajectories are at or right of 0.
    const r0 = view.series.find((s) => s.reward === 'R0' && s.selection === 'oracle_worst')!;
    const winning = r0.counts.filter((_, i) => view.edges[i]! >= 0).reduce((a, b) => a + b, 0);
    assert.equal(winning, 2);
    const repair = view.series.find((s) => s.role === 'repair' && s.selection === 'oracle_worst')!;
    assert.deepEqual(repair.detectors, ['L']);
    assert.equal(repair.figures?.asr, 0);
    assert.equal(repair.counts.filter((_, i) => view.edges[i]! >= 0).reduce((a, b) => a + b, 0), 0);
  });

  it('draws the sweep as one line per attack and selection, in scale order', () => {
    const lines = sweepLines(audit);
    assert.equal(lines.length, audit.attacks.length * 2);
    for (const l of lines) assert.deepEqual(l.points.map((p) => p.scale), [...audit.settings.sweep].sort((a, b) => a - b));
  });

  it('gives each cancellation finding its active and inactive strata', () => {
    const groups = strataGroups(audit);
    assert.equal(groups.length, audit.cancellation.length);
    assert.ok(groups.length > 0);
    const g = groups[0]!;
    assert.equal(g.larger, 'R_full');
    assert.equal(g.active.asr, audit.cancellation[0]!.strata.active.asr);
    assert.equal(g.inactive.clusters, audit.cancellation[0]!.strata.inactive.clusters);
  });

  it('lays a ten-detector lattice out as dots, row by row', () => {
    const detectors = Array.from({ length: 10 }, (_, i) => ({ name: `D${i}`, lambda: 1 }));
    const subsets = Array.from({ length: 1 << 10 }, (_, mask) => ({
      detectors: detectors.filter((_, j) => (mask & (1 << j)) !== 0).map((d) => d.name),
      results: [], sufficient: false, minimal: false,
    }));
    const lattice: LatticeReport = { detectors, subsets, minimal: [], vacuous: false };
    const layout = hasseLayout(lattice)!;
    assert.equal(layout.compact, true);
    assert.equal(layout.nodes.length, 1024);
    assert.equal(layout.edges.length, 10 * 512);
    assert.deepEqual(layout.nodes.filter((n) => n.row === 5).length, 252);
    for (const e of layout.edges) assert.equal(layout.nodes[e.to]!.row, layout.nodes[e.from]!.row + 1);
  });
});

describe('report page: the standalone page of the sample spec (herald audit --format html)', () => {
  let html = '';
  let doc: Document;

  before(() => {
    const out = path.join(mkdtempSync(path.join(tmpdir(), 'herald-page-')), 'report.html');
    const result = spawnSync(process.execPath, [path.resolve('dist/herald.js'), 'audit', 'samples/paper.reward', '--format', 'html', '--out', out, '--quiet'], { encoding: 'utf8' });
    assert.equal(result.status, 0, result.stderr);
    html = readFileSync(out, 'utf8');
    doc = parse(html);
  });

  it('draws every audit\'s lattice with {L} as the minimal repair', () => {
    const report = reportSchema.parse(embeddedReport(doc));
    assert.deepEqual(report.audits.map((a) => a.name), ['paper', 'replication', 'sensitivity']);
    report.audits.forEach((audit, i) => {
      const nodes = nodesOf(doc, i);
      assert.equal(nodes.length, 2 ** audit.lattice.detectors.length);
      assert.deepEqual(nodes.filter((n) => n.classList.contains('minimal')).map((n) => n.getAttribute('data-detectors')), ['L']);
    });
    assert.equal(nodesOf(doc, 0).length, 8);
  });

  it('loads nothing remote: strict CSP, no http(s) URL anywhere, the view script inlined with the nonce', () => {
    const pageNonce = /'nonce-([^']+)'/.exec(cspOf(doc).get('script-src')!.join(' '))![1]!;
    assertStrictCsp(doc, pageNonce, []);
    assert.doesNotMatch(html, /https?:\/\//i);
    const scripts = [...doc.querySelectorAll('script')];
    assert.equal(scripts.length, 2);
    assert.equal(scripts[1]!.getAttribute('src'), null);
    assert.ok(scripts[1]!.textContent!.length > 50_000, 'the bundled view, Chart.js included');
  });

  it('runs its script: a canvas in every chart container, the lattice details, the selection switch', () => {
    const { window, errors } = runPage(html);
    const document = window.document;
    assert.deepEqual(errors, []);
    assert.ok(document.documentElement.classList.contains('js'));
    const containers = [...document.querySelectorAll('[data-chart]')];
    assert.ok(containers.length >= 10);
    for (const c of containers) {
      // Chart.js took the canvas (it sets its display) and the view did not fall back to text.
      assert.equal(c.querySelector('canvas')?.style.display, 'block', `chart in ${c.getAttribute('aria-label')}`);
      assert.ok(!c.classList.contains('failed'));
    }
    assert.equal(document.querySelectorAll('svg.hasse').length, 3);

    const card = document.querySelector('[data-lattice="0"]')!;
    const panel = card.querySelector('.subset-detail')!;
    assert.equal(panel.querySelector('h4')?.textContent, '{L}: R0 − 1.2·L');
    assert.equal(panel.querySelectorAll('tbody tr').length, 3 * 2);
    card.querySelector('g.node[data-detectors=""]')!.dispatchEvent(new window.MouseEvent('click', { bubbles: true }));
    assert.match(panel.querySelector('h4')?.textContent ?? '', /^∅: R0$/);

    const box = document.querySelector('[data-chart="margins"]')!.parentElement!;
    const firstVisible = [...box.querySelectorAll('.toolbar button')].find((b) => b.textContent === 'first-visible')!;
    firstVisible.dispatchEvent(new window.MouseEvent('click', { bubbles: true }));
    assert.equal(firstVisible.getAttribute('aria-pressed'), 'true');
    assert.match(box.querySelector('.caption')?.textContent ?? '', /^first-visible: R0: ASR .* · R0\[L\]: ASR 0\.00%/);
    const log = [...box.querySelectorAll('.toolbar button')].find((b) => b.textContent === 'log counts')!;
    log.dispatchEvent(new window.MouseEvent('click', { bubbles: true }));
    assert.equal(log.getAttribute('aria-pressed'), 'true');
    assert.equal(box.querySelectorAll('canvas').length, 1, 'redrawn on the same canvas');
    assert.deepEqual(errors, []);
    window.close();
  });
});

describe('formatHtml', () => {
  it('is the report page with the view inlined', () => {
    const doc = parse(formatHtml(goldenReport()));
    assert.equal(nodesOf(doc, 0).length, 8);
    assert.ok(doc.querySelectorAll('script')[1]!.textContent!.includes('herald-report'));
  });
});
