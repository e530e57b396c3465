import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { formatHtml } from '../../server/src/render/format-html.js';
import { pageStyle } from '../../server/src/render/report-page/page-style.js';
import { goldenReport } from './golden-report.js';
import { runPage } from './page-runner.js';

// The report view for a keyboard and a screen reader: every control the page and its script make
// (buttons, links, lattice nodes, anything with a click handler) has a label naming it, is reached
// by Tab, answers the keyboard as it answers the mouse, and shows where the focus is.

/** The page as VS Code's webview runs it (row links and pair buttons are made only there). */
function webviewPage(): ReturnType<typeof runPage> {
  const html = formatHtml(goldenReport()).replace('<body>', '<body><script>window.acquireVsCodeApi = () => ({ postMessage: () => undefined });</script>');
  return runPage(html);
}

const interactive = 'button, select, input, textarea, a, [role="button"], [role="link"], [tabindex]';

describe('report view: keyboard and screen reader', () => {
  const { window, errors, listeners } = webviewPage();
  const document = window.document;
  const controls = new Set<Element>([...document.querySelectorAll(interactive)]);
  for (const [target, types] of listeners) {
    if (target instanceof window.Element && (types.has('click') || types.has('mousedown'))) controls.add(target);
  }

  it('runs, and has the controls this test is about', () => {
    assert.deepEqual(errors, []);
    const count = (selector: string): number => [...controls].filter((c) => c.matches(selector)).length;
    assert.ok(count('.toolbar button') >= 3, 'the margin chart toggles');
    assert.ok(count('button.pair-link') >= 1, 'a worked pair\'s side-by-side button');
    assert.ok(count('.row-link') >= 1, 'a row link');
    assert.ok(count('svg.hasse g.node') >= 2, 'lattice nodes');
  });

  it('labels every control: an aria-label that starts with the text it shows', () => {
    for (const control of controls) {
      const label = control.getAttribute('aria-label') ?? '';
      assert.ok(label.trim() !== '', `no aria-label: ${control.outerHTML.slice(0, 120)}`);
      // An SVG node shows several text lines (set, rate, tags); its label names the subset instead.
      if (control.namespaceURI !== 'http://www.w3.org/2000/svg') {
        const shown = (control.textContent ?? '').trim();
        assert.ok(label.startsWith(shown), `label "${label}" does not start with the shown text "${shown}"`);
      }
    }
  });

  it('reaches every control by Tab, and none only by the mouse', () => {
    for (const control of controls) {
      const native = control.matches('button, select, input, textarea, a[href]') && !control.hasAttribute('disabled');
      const tabIndex = Number(control.getAttribute('tabindex') ?? (native ? 0 : -1));
      assert.ok(tabIndex >= 0, `not in the Tab order: ${control.outerHTML.slice(0, 120)}`);
      assert.ok(native || control.hasAttribute('role'), `a focusable element without a role: ${control.outerHTML.slice(0, 120)}`);
      // A native button turns Enter and Space into a click; anything else needs its own key handler.
      const types = listeners.get(control) ?? new Set<string>();
      if (types.has('click') && !control.matches('button')) assert.ok(types.has('keydown') || types.has('keyup'), `mouse-only: ${control.outerHTML.slice(0, 120)}`);
    }
  });

  it('says which toggle and which lattice node are pressed', () => {
    const toolbar = document.querySelector('.toolbar')!;
    assert.equal(toolbar.getAttribute('role'), 'toolbar');
    assert.match(toolbar.getAttribute('aria-label') ?? '', /^Margin chart of \S+/);
    for (const b of toolbar.querySelectorAll('button')) assert.match(b.getAttribute('aria-pressed') ?? '', /^(true|false)$/);
    const nodes = [...document.querySelectorAll('svg.hasse g.node')];
    assert.equal(nodes.filter((n) => n.getAttribute('aria-pressed') === 'true').length, 1);
    const other = nodes.find((n) => n.getAttribute('aria-pressed') === 'false')!;
    other.dispatchEvent(new window.KeyboardEvent('keydown', { key: 'Enter', bubbles: true }));
    assert.equal(other.getAttribute('aria-pressed'), 'true');
    assert.equal(nodes.filter((n) => n.getAttribute('aria-pressed') === 'true').length, 1);
  });

  it('shows where the focus is on every kind of control', () => {
    const style = pageStyle;
    for (const selector of ['button:focus-visible', '.row-link:focus-visible', 'summary:focus-visible', 'svg.hasse .node:focus-visible .box']) {
      assert.ok(style.includes(selector), `no focus style for ${selector}`);
    }
  });
});
