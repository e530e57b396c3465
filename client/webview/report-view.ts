import {
  BarController, BarElement, CategoryScale, Chart, Legend, LinearScale, LineController, LineElement, LogarithmicScale, PointElement, Tooltip,
  type ChartConfiguration, type ChartType, type DefaultDataPoint,
} from 'chart.js';
import { type AuditReport, type ChartKind, latticeDetailClass, marginView, type Report, reportDataId, type Selection, selectionTitle, seriesSummary } from '../../server/src/contract/view.js';
import { marginChart, strataChart, sweepChart } from './charts.js';
import { wireLattice } from './lattice-detail.js';
import { wireRowLinks } from './row-links.js';
import { readTheme, type Theme } from './theme.js';
import { exposureChart, forestChart, forestHeight } from './training-charts.js';

// The report page's script (dist/report-view.js): reads the report the page embeds as JSON and
// draws the charts into the containers the server rendered. It fetches nothing (the page's CSP would
// stop it anyway); in VS Code it posts only which row or worked pair a reader clicked (row-links.ts).
// The lattice diagram is already on the page; this only adds its details panel.

Chart.register(BarController, BarElement, CategoryScale, LinearScale, LogarithmicScale, LineController, LineElement, PointElement, Legend, Tooltip);

function readReport(): Report | undefined {
  const text = document.getElementById(reportDataId)?.textContent;
  if (text === undefined || text === null) return undefined;
  try {
    return JSON.parse(text) as Report;
  } catch {
    return undefined;
  }
}

/** The charts on the page, so a theme change can redraw them all. */
class ChartSet {
  private readonly charts: Chart[] = [];

  draw<T extends ChartType, D = DefaultDataPoint<T>, L = unknown>(container: HTMLElement, config: ChartConfiguration<T, D, L>): void {
    let canvas = container.querySelector('canvas');
    if (canvas === null) {
      canvas = document.createElement('canvas');
      canvas.setAttribute('role', 'img');
      canvas.setAttribute('aria-label', container.getAttribute('aria-label') ?? '');
      container.appendChild(canvas);
    }
    Chart.getChart(canvas)?.destroy();
    this.charts.push(new Chart(canvas, config) as unknown as Chart);
  }

  destroyAll(): void {
    for (const chart of this.charts.splice(0)) chart.destroy();
  }
}

/** What the reader picked for one margin chart. */
interface MarginChoice {
  selection: Selection;
  /** A log count axis, so the few edits on the winning side of 0 stay visible beside thousands. */
  log: boolean;
}

/**
 * A toggle button: a native button, so Tab reaches it and Enter or Space presses it. Its label
 * starts with the text it shows (what a speech user says) and adds what it does.
 */
function toggle(text: string, does: string, pressed: boolean, onPress: (button: HTMLButtonElement) => void): HTMLButtonElement {
  const b = document.createElement('button');
  b.type = 'button';
  b.textContent = text;
  b.setAttribute('aria-label', `${text}: ${does}`);
  b.setAttribute('aria-pressed', String(pressed));
  b.addEventListener('click', () => onPress(b));
  return b;
}

function marginToolbar(attack: string, choice: MarginChoice, redraw: () => void): HTMLElement {
  const bar = document.createElement('div');
  bar.className = 'toolbar';
  bar.setAttribute('role', 'toolbar');
  bar.setAttribute('aria-label', `Margin chart of ${attack}: which edit, and the count axis`);
  const selections = (['oracle_worst', 'first_visible'] as const).map((s) => toggle(selectionTitle[s], `show the margins of the ${selectionTitle[s]} edit`, s === choice.selection, (pressed) => {
    for (const b of selections) b.setAttribute('aria-pressed', String(b === pressed));
    choice.selection = s;
    redraw();
  }));
  const log = toggle('log counts', 'count trajectories on a log axis', choice.log, (b) => {
    choice.log = !choice.log;
    b.setAttribute('aria-pressed', String(choice.log));
    redraw();
  });
  bar.append('selection:', ...selections, ' ', log);
  return bar;
}

/** The same caption the server wrote for oracle-worst, for the selection now shown. */
function marginCaption(audit: AuditReport, attackIndex: number, selection: Selection, caption: Element | null): void {
  const attack = audit.attacks[attackIndex];
  if (caption === null || attack === undefined) return;
  const shown = marginView(audit, attack).series.filter((s) => s.shown && s.selection === selection);
  const parts: (Node | string)[] = [`${selectionTitle[selection]}: `];
  shown.forEach((s, i) => {
    const name = document.createElement('b');
    name.textContent = s.reward;
    parts.push(i === 0 ? '' : ' · ', name, seriesSummary(s));
  });
  caption.replaceChildren();
  for (const part of parts) caption.append(part);
}

function drawChart(charts: ChartSet, report: Report, container: HTMLElement, theme: Theme, choices: Map<HTMLElement, MarginChoice>): void {
  if (container.dataset['chart'] === 'exposure') {
    const signal = report.signals?.[Number(container.dataset['signal'])];
    if (signal !== undefined) charts.draw(container, exposureChart(signal, theme));
    return;
  }
  if (container.dataset['chart'] === 'forest') {
    const comparison = report.comparisons?.[Number(container.dataset['comparison'])];
    if (comparison === undefined) return;
    // Sized through the CSSOM, which the page's style-src policy allows (a style attribute it would not).
    container.style.height = `${forestHeight(comparison)}px`;
    charts.draw(container, forestChart(comparison, theme));
    return;
  }
  const audit = report.audits[Number(container.dataset['audit'])];
  if (audit === undefined) return;
  const kind = container.dataset['chart'] as ChartKind;
  switch (kind) {
    case 'margins': {
      const attackIndex = Number(container.dataset['attack']);
      const attack = audit.attacks[attackIndex];
      if (attack === undefined) return;
      let choice = choices.get(container);
      if (choice === undefined) {
        const made: MarginChoice = { selection: 'oracle_worst', log: false };
        choices.set(container, (choice = made));
        container.before(marginToolbar(attack.name, made, () => {
          charts.draw(container, marginChart(audit, attack, made.selection, readTheme(document.body), made.log));
          marginCaption(audit, attackIndex, made.selection, container.parentElement?.querySelector('.caption') ?? null);
        }));
      }
      charts.draw(container, marginChart(audit, attack, choice.selection, theme, choice.log));
      return;
    }
    case 'sweep-asr':
      return charts.draw(container, sweepChart(audit, 'asr', theme));
    case 'sweep-margin':
      return charts.draw(container, sweepChart(audit, 'meanMargin', theme));
    case 'strata':
      return charts.draw(container, strataChart(audit, theme));
    default:
      return;
  }
}

function main(): void {
  const report = readReport();
  if (report === undefined) return;
  document.documentElement.classList.add('js');

  const charts = new ChartSet();
  const choices = new Map<HTMLElement, MarginChoice>();
  const drawAll = (): void => {
    charts.destroyAll();
    const theme = readTheme(document.body);
    Chart.defaults.color = theme.fg;
    Chart.defaults.font.family = theme.font;
    for (const container of document.querySelectorAll<HTMLElement>('[data-chart]')) {
      try {
        drawChart(charts, report, container, theme, choices);
      } catch (error) {
        // One chart that cannot draw leaves its fallback text; the others still draw.
        container.classList.add('failed');
        console.error('herald report view:', error);
      }
    }
  };
  drawAll();

  for (const card of document.querySelectorAll<HTMLElement>('[data-lattice]')) {
    const audit = report.audits[Number(card.dataset['lattice'])];
    const panel = card.querySelector<HTMLElement>(`.${latticeDetailClass}`);
    if (audit !== undefined && panel !== null) wireLattice(audit, card, panel);
  }

  wireRowLinks(report);

  // VS Code switches themes by changing the body's class; the charts read colours when drawn.
  new MutationObserver(drawAll).observe(document.body, { attributes: true, attributeFilter: ['class'] });
}

main();
