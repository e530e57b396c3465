import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { formatHtml } from '../../server/src/render/format-html.js';
import { escapeHtml } from '../../server/src/render/report-page/html.js';
import { goldenReport, withAudit } from './golden-report.js';

const attack = '<script>alert("x")</script>';

describe('formatHtml', () => {
  const html = formatHtml(goldenReport());

  it('is a standalone page whose CSP runs only its own nonce and loads nothing remote', () => {
    assert.match(html, /^<!DOCTYPE html>/);
    const csp = /<meta http-equiv="Content-Security-Policy" content="([^"]*)">/.exec(html)?.[1]?.replace(/&#39;/g, "'");
    const nonce = /^default-src 'none'; img-src data:; style-src 'nonce-([A-Za-z0-9+/]+=*)'; script-src 'nonce-\1'; base-uri 'none'; form-action 'none'$/.exec(csp ?? '')?.[1];
    assert.ok(nonce, 'CSP meta');
    assert.doesNotMatch(html, /https?:\/\//i);
    assert.doesNotMatch(html, /<link|<img|<iframe|src=/i);
    // Two scripts: the report as JSON, and the inlined view that carries the nonce.
    assert.deepEqual([...html.matchAll(/<script[^>]*>/g)].map((m) => m[0]), ['<script type="application/json" id="herald-report">', `<script nonce="${nonce}">`]);
    assert.notEqual(formatHtml(goldenReport()).match(/&#39;nonce-([^&]+)&#39;/)?.[1], nonce, 'a fresh nonce per page');
  });

  it('shows the same figures as the table', () => {
    assert.ok(html.includes('50.00% [0.0, 100.0]'));
    assert.ok(html.includes('R0 +0.81375 → R_L −0.38625 → R_full +0.41375'));
    assert.match(html, /<td>\{L\}<\/td>.*◀ minimal repair/);
    assert.ok(html.includes('λ_L = 1.2 &gt; max gain 0.81375'));
    assert.match(html, /<rect class="fill" width="50" height="10">/);
  });

  it('escapes every string from the report', () => {
    const report = withAudit(goldenReport(), (a) => ({
      ...a,
      name: attack,
      cancellation: a.cancellation.map((c) => ({ ...c, example: { ...c.example, trajectory: attack } })),
      pools: a.pools.map((p) => ({ ...p, skipped: 1, issues: [{ file: `${attack}.jsonl`, line: 2, reason: '<img src=x onerror=alert(1)>' }] })),
    }));
    const page = formatHtml({ ...report, spec: attack });
    const scripts = [...page.matchAll(/<script[^>]*>[\s\S]*?<\/script>/g)];
    assert.equal(scripts.length, 2, 'the JSON and the view script, nothing the report injected');
    assert.doesNotMatch(scripts.reduce((rest, m) => rest.replace(m[0], ''), page), /<script|<img/i);
    assert.ok(page.includes('&lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt;'));
    assert.ok(page.includes('&lt;img src=x onerror=alert(1)&gt;'));
  });

  it('escapes the five HTML metacharacters', () => {
    assert.equal(escapeHtml(`<a href="x" title='y'>&</a>`), '&lt;a href=&quot;x&quot; title=&#39;y&#39;&gt;&amp;&lt;/a&gt;');
  });
});
