import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { JSDOM } from 'jsdom';
import { formatHtml } from '../../server/src/render/format-html.js';
import { renderReportPage } from '../../server/src/render/report-page/render-page.js';
import { namedPair, reportFiles, viewMessageOf, type ViewMessage } from '../../server/src/render/report-page/view-messages.js';
import { goldenReport, withAudit } from './golden-report.js';
import { runPage } from './page-runner.js';

// The report view's way to the data: the worked pairs behind an audit's findings, listed with their
// rows, and (in VS Code) the clicks on a row or a pair posted to the extension, which opens the file
// at that line or the pair side by side.

const nonce = 'bm9uY2Utbm9uY2Utbm9uY2U=';

describe('report page: the worked pairs card', () => {
  const golden = goldenReport();
  const doc = new JSDOM(renderReportPage(golden, { nonce })).window.document;
  const items = [...doc.querySelectorAll('section.audit .worked-pairs li.worked-pair')];

  it('lists each worked pair of the audit once, with its row, its edit, its margins and why it is named', () => {
    const audit = golden.audits[0]!;
    assert.equal(doc.querySelector('.worked-pairs h3')?.textContent, `Worked pairs (${items.length})`);
    const cancellation = audit.cancellation.find((c) => c.larger === 'R_full')!.example;
    const item = items.find((i) => i.querySelector('b')?.textContent === cancellation.trajectory && i.textContent!.includes('launder'))!;
    assert.deepEqual([item.getAttribute('data-row-file'), item.getAttribute('data-row-line')], ['p.jsonl', String(cancellation.line)]);
    assert.equal(item.querySelector('code')?.textContent, `p.jsonl:${cancellation.line}`);
    assert.match(item.textContent!, /t1 \(launder, citation 0 → p2\): R0 \+0\.81375 → R_L −0\.38625 → R_full \+0\.41375 \(launder wins under R_full by switching off support_miss/);
    // The pair each item names is the report's, through its data-pair reference.
    for (const i of items) assert.ok(namedPair(audit, i.getAttribute('data-pair')!), i.textContent!);
    const keys = items.map((i) => `${i.getAttribute('data-row-line')} ${i.textContent!.split(':')[1]}`);
    assert.equal(new Set(keys).size, keys.length, 'each pair once');
  });

  it('has no card when the audit names no worked pair', () => {
    const none = withAudit(golden, (a) => ({ ...a, cancellation: [], certificate: a.certificate.map((c) => ({ ...c, example: null })) }));
    assert.equal(new JSDOM(renderReportPage(none, { nonce })).window.document.querySelector('.worked-pairs'), null);
  });
});

describe('report page: rows and pairs the reader clicks', () => {
  const golden = goldenReport();

  /** The page with its view script, in a stand-in webview that records what the page posts. */
  function webviewPage(): { window: Window & typeof globalThis; posted: unknown[]; errors: string[] } {
    const html = formatHtml(golden).replace('<body>', '<body><script>window.posted = []; window.acquireVsCodeApi = () => ({ postMessage: (m) => window.posted.push(m) });</script>');
    const { window, errors } = runPage(html);
    const posted = (window as unknown as { posted: unknown[] }).posted;
    return { window: window as unknown as Window & typeof globalThis, posted, errors };
  }

  it('posts the row to open when a reader clicks a row or presses Enter on it', () => {
    const { window, posted, errors } = webviewPage();
    const item = window.document.querySelector('.worked-pairs li.worked-pair')!;
    const row = item.querySelector<HTMLElement>('code.row-link')!;
    assert.equal(row.getAttribute('role'), 'link');
    assert.equal(row.tabIndex, 0);
    row.dispatchEvent(new window.MouseEvent('click', { bubbles: true }));
    row.dispatchEvent(new window.KeyboardEvent('keydown', { key: 'Enter', bubbles: true }));
    const expected = { kind: 'openRow', file: 'p.jsonl', line: Number(item.getAttribute('data-row-line')) };
    assert.deepEqual(JSON.parse(JSON.stringify(posted)), [expected, expected]);
    assert.deepEqual(errors, []);
    window.close();
  });

  it('posts the pair to open side by side from its button', () => {
    const { window, posted } = webviewPage();
    const item = window.document.querySelector('.worked-pairs li.worked-pair')!;
    const button = item.querySelector<HTMLButtonElement>('button.pair-link')!;
    assert.equal(button.textContent, 'side by side');
    button.dispatchEvent(new window.MouseEvent('click', { bubbles: true }));
    const { trajectory, pool, line, attack, position, replacement } = namedPair(golden.audits[0]!, item.getAttribute('data-pair')!)!;
    assert.deepEqual(JSON.parse(JSON.stringify(posted)), [{ kind: 'openPair', audit: 'a', pair: { trajectory, pool, line, attack, position, replacement } }]);
    window.close();
  });

  it('leaves rows and pairs as plain text on a standalone page', () => {
    const { window, errors } = runPage(formatHtml(golden));
    assert.equal(window.document.querySelectorAll('.row-link, button.pair-link').length, 0);
    assert.ok(window.document.querySelectorAll('.worked-pairs li.worked-pair').length > 0);
    assert.deepEqual(errors, []);
    window.close();
  });
});

describe('report view messages: what the extension accepts from the page', () => {
  const pair = { trajectory: 't1', pool: 'p', line: 1, attack: 'launder', position: 0, replacement: 'p2' };

  it('accepts a row or a pair, and nothing else', () => {
    const good: ViewMessage[] = [{ kind: 'openRow', file: 'pools/p.jsonl', line: 4 }, { kind: 'openPair', audit: 'a', pair }, { kind: 'openPair', audit: 'a', pair: { ...pair, position: null, replacement: null } }];
    for (const m of good) assert.deepEqual(viewMessageOf(JSON.parse(JSON.stringify(m))), m);
    const bad: unknown[] = [
      null, 'openRow', { kind: 'openRow', file: 'p.jsonl', line: 0 }, { kind: 'openRow', file: 'p.jsonl', line: 1.5 }, { kind: 'openRow', file: 3, line: 1 },
      { kind: 'openPair', audit: 'a', pair: { ...pair, line: -1 } }, { kind: 'openPair', pair }, { kind: 'openPair', audit: 'a', pair: { ...pair, position: '0' } },
      { kind: 'run', command: 'rm' },
    ];
    for (const m of bad) assert.equal(viewMessageOf(m), undefined, JSON.stringify(m));
  });

  it('keeps only the fields it knows', () => {
    assert.deepEqual(viewMessageOf({ kind: 'openRow', file: 'p.jsonl', line: 2, extra: 'x' }), { kind: 'openRow', file: 'p.jsonl', line: 2 });
  });

  it('names the files a report reads, the only ones the page may open', () => {
    assert.deepEqual([...reportFiles(goldenReport())].sort(), ['c.jsonl', 'p.jsonl']);
  });
});
