import { type AuditReport, selectionTitle, subsetFigures } from '../../server/src/contract/view.js';

// Clicking (or pressing Enter on) a node of the server-drawn Hasse diagram shows that subset's
// figures under the diagram. Built with DOM calls; report strings only ever become text nodes.

function element<K extends keyof HTMLElementTagNameMap>(tag: K, text?: string, className?: string): HTMLElementTagNameMap[K] {
  const e = document.createElement(tag);
  if (text !== undefined) e.textContent = text;
  if (className !== undefined) e.className = className;
  return e;
}

function showSubset(audit: AuditReport, subset: number, panel: HTMLElement): void {
  const figures = subsetFigures(audit, subset);
  if (figures === undefined) return;
  const heading = element('h4', `${figures.set}: ${figures.reward}`);
  const state = element('p', figures.state, figures.sufficient ? 'good' : 'warn');
  const table = element('table');
  const head = table.createTHead().insertRow();
  for (const title of ['attack', 'selection', 'ASR', 'mean margin', 'clusters', 'label']) head.appendChild(element('th', title));
  const body = table.createTBody();
  for (const r of figures.rows) {
    const row = body.insertRow();
    row.appendChild(element('td', r.attack));
    row.appendChild(element('td', selectionTitle[r.selection]));
    row.appendChild(element('td', r.asr, r.asrPositive ? 'warn num' : 'good num'));
    row.appendChild(element('td', r.meanMargin, 'num'));
    row.appendChild(element('td', String(r.clusters), 'num'));
    row.appendChild(element('td', r.label, 'muted'));
  }
  panel.replaceChildren(heading, state, table);
}

/** Wires every node of the lattice card inside `card` to the detail panel. */
export function wireLattice(audit: AuditReport, card: HTMLElement, panel: HTMLElement): void {
  const nodes = [...card.querySelectorAll<SVGGElement>('g.node[data-subset]')];
  const select = (node: SVGGElement): void => {
    for (const n of nodes) {
      n.classList.toggle('selected', n === node);
      // The node shown in the detail panel is the pressed one, for a screen reader as for the eye.
      n.setAttribute('aria-pressed', String(n === node));
    }
    showSubset(audit, Number(node.dataset['subset']), panel);
  };
  for (const node of nodes) {
    node.addEventListener('click', () => select(node));
    node.addEventListener('keydown', (event) => {
      if (event.key !== 'Enter' && event.key !== ' ') return;
      event.preventDefault();
      select(node);
    });
  }
  // Start on the minimal repair, or on the audited reward when there is none.
  const first = nodes.find((n) => n.classList.contains('minimal')) ?? nodes.find((n) => n.dataset['detectors'] === '');
  if (first !== undefined) select(first);
}
