import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { escapeHtml, formatHtml } from '../../server/src/report/format-html.js';
import { goldenReport, withAudit } from './golden-report.js';

const attack = '<script>alert("x")</script>';

describe('formatHtml', () => {
  const html = formatHtml(goldenReport());

  it('is a standalone page with a CSP that forbids scripts and remote loads', () => {
    assert.match(html, /^<!DOCTYPE html>/);
    assert.ok(html.includes(`<meta http-equiv="Content-Security-Policy" content="default-src 'none'; style-src 'unsafe-inline'; img-src data:">`));
    assert.doesNotMatch(html, /https?:\/\//i);
    assert.doesNotMatch(html, /<script|<link|<img|src=/i);
  });

  it('shows the same figures as the table', () => {
    assert.ok(html.includes('50.00% [0.0, 100.0]'));
    assert.ok(html.includes('R0 +0.81375 → R_L −0.38625 → R_full +0.41375'));
    assert.match(html, /<td>\{L\}<\/td>.*◀ minimal repair/);
    assert.ok(html.includes('λ_L = 1.2 &gt; max gain 0.81375'));
    assert.match(html, /class="fill" style="width:50\.00%"/);
  });

  it('escapes every string from the report', () => {
    const report = withAudit(goldenReport(), (a) => ({
      ...a,
      name: attack,
      cancellation: a.cancellation.map((c) => ({ ...c, example: { ...c.example, trajectory: attack } })),
      pools: a.pools.map((p) => ({ ...p, skipped: 1, issues: [{ file: `${attack}.jsonl`, line: 2, reason: '<img src=x onerror=alert(1)>' }] })),
    }));
    const page = formatHtml({ ...report, spec: attack });
    assert.doesNotMatch(page, /<script|<img/i);
    assert.ok(page.includes('&lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt;'));
    assert.ok(page.includes('&lt;img src=x onerror=alert(1)&gt;'));
  });

  it('escapes the five HTML metacharacters', () => {
    assert.equal(escapeHtml(`<a href="x" title='y'>&</a>`), '&lt;a href=&quot;x&quot; title=&#39;y&#39;&gt;&amp;&lt;/a&gt;');
  });
});
