import { namedPair, pairAttribute, type Report, rowFileAttribute, rowLineAttribute, type ViewMessage } from '../../server/src/contract/view.js';

// In a VS Code webview, the rows and worked pairs the page names become links: a row opens its file
// at its line, a worked pair also opens side by side. The page only posts what was clicked
// (view-messages.ts); the extension checks it and opens the editor. On a standalone page (no VS Code
// API) they stay plain text.

interface VsCodeApi {
  postMessage(message: ViewMessage): void;
}
declare const acquireVsCodeApi: (() => VsCodeApi) | undefined;

/** Runs `act` on a click, and on Enter or Space when the element has the focus. */
function activate(element: HTMLElement, act: () => void): void {
  element.addEventListener('click', (event) => {
    event.preventDefault();
    act();
  });
  element.addEventListener('keydown', (event) => {
    if (event.key !== 'Enter' && event.key !== ' ') return;
    event.preventDefault();
    act();
  });
}

function pairButton(api: VsCodeApi, audit: string, report: Report['audits'][number], ref: string): HTMLButtonElement | undefined {
  const pair = namedPair(report, ref);
  if (pair === undefined) return undefined;
  const button = document.createElement('button');
  button.type = 'button';
  button.className = 'pair-link';
  button.textContent = 'side by side';
  button.title = `Open ${pair.trajectory} and its ${pair.attack} edit side by side, with the margin term by term`;
  button.setAttribute('aria-label', `side by side: ${button.title}`);
  const { trajectory, pool, line, attack, position, replacement } = pair;
  activate(button, () => api.postMessage({ kind: 'openPair', audit, pair: { trajectory, pool, line, attack, position, replacement } }));
  return button;
}

export function wireRowLinks(report: Report): void {
  if (typeof acquireVsCodeApi !== 'function') return;
  const api = acquireVsCodeApi();
  for (const element of document.querySelectorAll<HTMLElement>(`[${rowFileAttribute}][${rowLineAttribute}]`)) {
    const file = element.getAttribute(rowFileAttribute) ?? '';
    const line = Number(element.getAttribute(rowLineAttribute));
    if (file === '' || !Number.isInteger(line) || line < 1) continue;
    const target = element.querySelector<HTMLElement>('code') ?? element;
    target.classList.add('row-link');
    target.tabIndex = 0;
    target.setAttribute('role', 'link');
    target.title = `Open ${file} at line ${line}`;
    target.setAttribute('aria-label', `${target.textContent ?? ''}: open ${file} at line ${line}`);
    activate(target, () => api.postMessage({ kind: 'openRow', file, line }));
    const ref = element.getAttribute(pairAttribute);
    const auditIndex = Number(element.closest<HTMLElement>('[data-audit]')?.dataset['audit']);
    const audit = report.audits[auditIndex];
    if (ref === null || audit === undefined) continue;
    const button = pairButton(api, audit.name, audit, ref);
    if (button !== undefined) element.append(button);
  }
}
