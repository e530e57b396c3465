import type { ChartConfiguration, Plugin, TooltipItem } from 'chart.js';
import { type ComparisonReport, exposureView, type ForestRow, forestRows, type SignalReport, thresholdLabelRoom } from '../../server/src/contract/view.js';
import { chartEvents, thresholdLine } from './chart-plugins.js';
import { withAlpha, type Theme } from './theme.js';

// The exposure curve of a training-signal audit and the forest plot of a policy comparison, from
// the plain data in training-chart-data.ts.

const axisTitle = (text: string, theme: Theme) => ({ display: true, text, color: theme.muted });
const grid = (theme: Theme) => ({ color: withAlpha(theme.line, 0.6) });

/** Bars: firing rows per step. Lines (right axis): groups whose advantages the penalty changed, cumulative. */
export function exposureChart(signal: SignalReport, theme: Theme): ChartConfiguration<'bar' | 'line', number[], string> {
  const view = exposureView(signal);
  const colors = (j: number): string => theme.series[j % theme.series.length]!;
  return {
    type: 'bar',
    data: {
      labels: view.steps.map(String),
      datasets: [
        ...view.lines.map((l, j) => ({
          type: 'bar' as const, label: `${l.detector}: rows firing`, data: [...l.firingRows], yAxisID: 'rows',
          backgroundColor: withAlpha(colors(j), 0.45), borderColor: colors(j), borderWidth: 1,
        })),
        ...view.lines.map((l, j) => ({
          type: 'line' as const, label: `${l.detector}: groups changed (cumulative)`, data: [...l.cumulativeChanged], yAxisID: 'groups',
          borderColor: colors(j), backgroundColor: colors(j), stepped: true, pointRadius: 0, borderWidth: 2,
        })),
        {
          type: 'line' as const, label: `min_groups (${view.minGroups})`, data: view.steps.map(() => view.minGroups), yAxisID: 'groups',
          borderColor: theme.warn, borderDash: [5, 4], pointRadius: 0, borderWidth: 1.5,
        },
      ],
    },
    options: {
      responsive: true, maintainAspectRatio: false, animation: false, events: chartEvents,
      scales: {
        x: { title: axisTitle('training step (meta.step)', theme), ticks: { color: theme.muted }, grid: { display: false } },
        rows: { type: 'linear', position: 'left', beginAtZero: true, title: axisTitle('rows firing', theme), ticks: { color: theme.muted, precision: 0 }, grid: grid(theme) },
        groups: { type: 'linear', position: 'right', beginAtZero: true, title: axisTitle('groups changed, cumulative', theme), ticks: { color: theme.muted, precision: 0 }, grid: { display: false } },
      },
      plugins: { legend: { labels: { color: theme.fg, boxWidth: 12 } } },
    },
  };
}

/** A dot at each row's point estimate, over its interval bar. */
function estimateDots(rows: readonly ForestRow[], color: string): Plugin<'bar'> {
  return {
    id: 'estimate-dots',
    afterDatasetsDraw(chart) {
      const x = chart.scales['x'];
      const meta = chart.getDatasetMeta(0);
      if (x === undefined) return;
      const { ctx } = chart;
      ctx.save();
      ctx.fillStyle = color;
      meta.data.forEach((bar, i) => {
        const row = rows[i];
        if (row === undefined) return;
        ctx.beginPath();
        ctx.arc(x.getPixelForValue(row.estimate), bar.y, 3.5, 0, 2 * Math.PI);
        ctx.fill();
      });
      ctx.restore();
    },
  };
}

/** Horizontal interval bars (floating bars from low to high), one row per metric and benchmark: treatment − base, as every table. */
export function forestChart(comparison: ComparisonReport, theme: Theme): ChartConfiguration<'bar', [number, number][], string> {
  const rows = forestRows(comparison);
  const tone = (r: ForestRow): string => (r.verdict === 'improves' ? theme.good : r.verdict === 'worsens' ? theme.bad : r.verdict === 'blocks a reduction claim' ? theme.warn : theme.muted);
  return {
    type: 'bar',
    data: {
      labels: rows.map((r) => r.label),
      datasets: [{
        label: '95% interval (treatment − base, points)',
        data: rows.map((r): [number, number] => [r.low, r.high]),
        backgroundColor: rows.map((r) => withAlpha(tone(r), 0.5)),
        borderColor: rows.map(tone),
        borderWidth: 1,
        barPercentage: 0.45,
      }],
    },
    options: {
      indexAxis: 'y', responsive: true, maintainAspectRatio: false, animation: false, events: chartEvents,
      layout: { padding: { top: thresholdLabelRoom } },
      scales: {
        x: { title: axisTitle('treatment − base, points (↑ better rows improve to the right, ↓ better rows to the left)', theme), ticks: { color: theme.muted }, grid: grid(theme) },
        y: { ticks: { color: theme.fg, autoSkip: false }, grid: { display: false } },
      },
      plugins: {
        legend: { display: false },
        tooltip: {
          callbacks: {
            label: (item: TooltipItem<'bar'>) => {
              const r = rows[item.dataIndex];
              return r === undefined ? '' : `${r.estimate.toFixed(2)} [${r.low.toFixed(2)}, ${r.high.toFixed(2)}]${r.method === 'exact-zero' ? ' (no events)' : ''}: ${r.verdict}`;
            },
          },
        },
      },
    },
    // The label sits above the plot, in room kept for it: inside, it covered the first row's whisker.
    plugins: [thresholdLine<'bar'>({ axis: 'x', label: 'no change', color: theme.muted, labelAbove: true }), estimateDots(rows, theme.fg)],
  };
}

/** Pixels a forest plot needs: one band per row. */
export const forestHeight = (comparison: ComparisonReport): number => 60 + thresholdLabelRoom + 22 * forestRows(comparison).length;
