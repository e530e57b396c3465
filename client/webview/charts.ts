import type { ChartConfiguration, TooltipItem } from 'chart.js';
import { type AttackReport, type AuditReport, margin, type MarginSeries, marginView, percent, rateWithUpper, type Selection, selectionTitle, shortLabel, shortNumber, strataGroups, sweepLines } from '../../server/src/contract/view.js';
import { chartEvents, intervalWhiskers, thresholdLine } from './chart-plugins.js';
import { withAlpha, type Theme } from './theme.js';

// Chart.js configurations for the report page's charts, from the plain data in chart-data.ts.

const common = (theme: Theme) => ({
  responsive: true,
  maintainAspectRatio: false,
  animation: false as const,
  events: chartEvents,
  color: theme.fg,
  font: { family: theme.font },
});

const axisTitle = (text: string, theme: Theme) => ({ display: true, text, color: theme.muted });
const grid = (theme: Theme) => ({ color: withAlpha(theme.line, 0.6) });

function seriesColor(s: MarginSeries, compared: number, theme: Theme): string {
  if (s.role === 'audited') return theme.audited;
  if (s.role === 'repair') return theme.repair;
  return theme.series[compared % theme.series.length]!;
}

function seriesName(s: MarginSeries): string {
  return s.role === 'repair' ? `${s.reward} (minimal repair)` : s.role === 'audited' ? `${s.reward} (audited)` : s.reward;
}

export function marginChart(audit: AuditReport, attack: AttackReport, selection: Selection, theme: Theme, log = false): ChartConfiguration<'bar', { x: number; y: number }[]> {
  const view = marginView(audit, attack);
  const series = view.series.filter((s) => s.selection === selection);
  let compared = 0;
  const step = (view.edges[1] ?? 1) - (view.edges[0] ?? 0);
  return {
    type: 'bar',
    data: {
      datasets: series.map((s) => {
        const color = seriesColor(s, s.role === 'compared' ? compared++ : 0, theme);
        return {
          label: seriesName(s),
          data: s.counts.map((y, i) => ({ x: view.centres[i]!, y })),
          backgroundColor: withAlpha(color, 0.4),
          borderColor: color,
          borderWidth: 1,
          hidden: !s.shown,
          grouped: false,
          barPercentage: 1,
          categoryPercentage: 1,
        };
      }),
    },
    options: {
      ...common(theme),
      parsing: false,
      scales: {
        x: {
          type: 'linear', offset: false, min: view.edges[0], max: view.edges[view.edges.length - 1],
          title: axisTitle(`paired margin (${selectionTitle[selection]} edit)`, theme), ticks: { color: theme.muted, includeBounds: false }, grid: grid(theme),
        },
        // On the log axis a bar starts below 1, so a single trajectory still shows.
        y: log
          ? {
            type: 'logarithmic', min: 0.5, title: axisTitle('trajectories (log)', theme), grid: grid(theme),
            ticks: { color: theme.muted, callback: (value) => (Number.isInteger(Math.log10(Number(value))) ? Number(value).toLocaleString('en') : '') },
          }
          : { beginAtZero: true, title: axisTitle('trajectories', theme), ticks: { color: theme.muted, precision: 0 }, grid: grid(theme) },
      },
      plugins: {
        legend: { labels: { color: theme.fg, boxWidth: 12 } },
        tooltip: {
          callbacks: {
            title: (items: TooltipItem<'bar'>[]) => {
              const x = items[0]?.parsed.x ?? 0;
              return `margin in [${shortNumber(x - step / 2)}, ${shortNumber(x + step / 2)})`;
            },
            label: (item: TooltipItem<'bar'>) => `${item.dataset.label ?? ''}: ${item.parsed.y ?? 0}`,
          },
        },
      },
    },
    plugins: [thresholdLine<'bar'>({ axis: 'x', label: 'M ≥ 0', color: theme.bad, shade: withAlpha(theme.bad, 0.07) })],
  };
}

type SweepMetric = 'asr' | 'meanMargin';

export function sweepChart(audit: AuditReport, metric: SweepMetric, theme: Theme): ChartConfiguration<'line', { x: number; y: number | null }[]> {
  const lines = sweepLines(audit);
  const attacks = [...new Set(lines.map((l) => l.attack))];
  // An undefined point (no isolated-eligible cluster) is a gap in the line, never a zero.
  const value = (p: { asr: number | null; meanMargin: number | null }): number | null =>
    (metric === 'asr' ? (p.asr === null ? null : p.asr * 100) : p.meanMargin);
  return {
    type: 'line',
    data: {
      datasets: lines.map((l) => {
        const color = theme.series[attacks.indexOf(l.attack) % theme.series.length]!;
        return {
          label: `${l.attack} · ${selectionTitle[l.selection]}`,
          data: l.points.map((p) => ({ x: p.scale, y: value(p) })),
          borderColor: color,
          backgroundColor: color,
          borderDash: l.selection === 'first_visible' ? [6, 4] : [],
          borderWidth: 2.5,
          pointRadius: 3,
          tension: 0,
        };
      }),
    },
    options: {
      ...common(theme),
      parsing: false,
      scales: {
        x: { type: 'linear', title: axisTitle('penalty scale (× every λ)', theme), ticks: { color: theme.muted }, grid: grid(theme) },
        y: metric === 'asr'
          ? { beginAtZero: true, title: axisTitle('ASR (%)', theme), ticks: { color: theme.muted }, grid: grid(theme) }
          : { title: axisTitle('mean paired margin', theme), ticks: { color: theme.muted }, grid: grid(theme) },
      },
      plugins: {
        legend: {
          labels: {
            color: theme.fg, usePointStyle: true, pointStyleWidth: 30,
            // Each entry a short stroke, dashed (first-visible) or solid (oracle-worst) as in the plot;
            // the default entry takes its style from the points, which have no dash.
            generateLabels: (chart) => chart.data.datasets.map((d, i) => ({
              text: d.label ?? '', fontColor: theme.fg, hidden: !chart.isDatasetVisible(i), datasetIndex: i,
              strokeStyle: String(d.borderColor), fillStyle: String(d.borderColor), lineWidth: 2.5, pointStyle: 'line' as const,
              lineDash: lines[i]?.selection === 'first_visible' ? [5, 3] : [],
            })),
          },
        },
        tooltip: {
          callbacks: {
            title: (items: TooltipItem<'line'>[]) => `scale ×${shortNumber(items[0]?.parsed.x ?? 0)}`,
            label: (item: TooltipItem<'line'>) => {
              const line = lines[item.datasetIndex];
              const p = line?.points[item.dataIndex];
              if (line === undefined || p === undefined) return '';
              return metric === 'asr'
                ? `${item.dataset.label ?? ''}: ${rateWithUpper(p.asr, p.upper)} (${shortLabel(line.label)})`
                : `${item.dataset.label ?? ''}: ${margin(p.meanMargin)}`;
            },
          },
        },
      },
    },
    plugins: metric === 'meanMargin' ? [thresholdLine<'line'>({ axis: 'y', label: 'M = 0', color: theme.bad })] : [],
  };
}

export function strataChart(audit: AuditReport, theme: Theme): ChartConfiguration<'bar', (number | null)[], string[]> {
  const groups = strataGroups(audit);
  const bars = [
    { key: 'active' as const, label: 'term active on the original', color: theme.bad },
    { key: 'inactive' as const, label: 'term inactive', color: theme.muted },
  ];
  return {
    type: 'bar',
    data: {
      labels: groups.map((g) => [`${g.larger} vs ${g.smaller}`, `${g.attack} · ${selectionTitle[g.selection]}`, `term ${g.term}`]),
      datasets: bars.map((b) => ({
        label: b.label,
        data: groups.map((g) => { const asr = g[b.key].asr; return asr === null ? null : asr * 100; }),
        backgroundColor: withAlpha(b.color, 0.55),
        borderColor: b.color,
        borderWidth: 1,
      })),
    },
    options: {
      ...common(theme),
      scales: {
        x: { ticks: { color: theme.fg }, grid: { display: false } },
        y: {
          beginAtZero: true, suggestedMax: groups.reduce((m, g) => Math.max(m, (g.active.high ?? 0) * 100, (g.inactive.high ?? 0) * 100), 0),
          title: axisTitle('ASR under the larger reward (%)', theme), ticks: { color: theme.muted }, grid: grid(theme),
        },
      },
      plugins: {
        legend: { labels: { color: theme.fg, boxWidth: 12 } },
        tooltip: {
          callbacks: {
            label: (item: TooltipItem<'bar'>) => {
              const g = groups[item.dataIndex];
              const s = g?.[bars[item.datasetIndex]!.key];
              if (g === undefined || s === undefined) return '';
              const interval = s.method === 'none' ? 'n/a' : `[${percent(s.low)}, ${percent(s.high)}]`;
              return `${item.dataset.label ?? ''}: ${percent(s.asr)} ${interval} over ${s.clusters} clusters`;
            },
          },
        },
      },
    },
    plugins: [intervalWhiskers(bars.map((b) => groups.map((g) => {
      const { low, high } = g[b.key];
      return low === null || high === null ? undefined : { low: low * 100, high: high * 100 };
    })), theme.fg)],
  };
}
