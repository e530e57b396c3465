import { margin, rateWithUpper, shortLabel } from '../../report/format-numbers.js';
import type { AttackReport, AuditReport, RateEstimateReport } from '../../report/schema.js';

// What each chart of the report page plots, computed from the report alone: plain data, no DOM and
// no chart library, so the server's captions and the browser's charts agree and tests can check it.

export type Selection = 'first_visible' | 'oracle_worst';
export type Label = 'label-free' | 'oracle upper bound';
type SeriesReport = AttackReport['marginHistogram']['series'][number];

export const selectionTitle: Record<Selection, string> = { first_visible: 'first-visible', oracle_worst: 'oracle-worst' };

/** The headline figures of one scored reward under one selection. */
/** Null figures are undefined (no isolated-eligible cluster): drawn as gaps, written `n/a`. */
export interface SeriesFigures {
  readonly asr: number | null;
  /** Upper end of the interval (the exact zero-event bound when nothing succeeded). */
  readonly upper: number | null;
  readonly clusters: number;
  readonly meanMargin: number | null;
  /** Only attack results carry it; lattice subsets keep the mean alone. */
  readonly worstMargin: number | null | undefined;
}

export interface MarginSeries {
  readonly reward: string;
  readonly role: SeriesReport['role'];
  readonly detectors: readonly string[];
  readonly selection: Selection;
  readonly label: Label;
  readonly counts: readonly number[];
  readonly trajectories: number;
  readonly figures: SeriesFigures | undefined;
  /** Drawn at first: the audited reward and its minimal repairs (compared rewards when there is none). */
  readonly shown: boolean;
  /** An earlier shown series of the same selection with exactly these counts: the bars coincide. */
  readonly sameAs: string | undefined;
}

export interface MarginView {
  readonly attack: string;
  readonly edges: readonly number[];
  /** Bin centres, for a linear x axis. */
  readonly centres: readonly number[];
  readonly series: readonly MarginSeries[];
}

function figuresOf(audit: AuditReport, attack: AttackReport, series: Pick<SeriesReport, 'reward' | 'role' | 'detectors' | 'selection'>): SeriesFigures | undefined {
  if (series.role === 'repair') {
    const key = [...series.detectors].sort().join('\n');
    const subset = audit.lattice.subsets.find((s) => [...s.detectors].sort().join('\n') === key);
    const r = subset?.results.find((x) => x.attack === attack.name && x.selection === series.selection);
    return r === undefined ? undefined : { asr: r.asr, upper: r.upper, clusters: r.clusters, meanMargin: r.meanMargin, worstMargin: undefined };
  }
  const r = attack.results.find((x) => x.reward === series.reward && x.selection === series.selection);
  if (r === undefined) return undefined;
  const e: RateEstimateReport = r.estimate;
  return { asr: e.asr, upper: e.interval.high, clusters: e.clusters, meanMargin: e.meanMargin, worstMargin: e.worstMargin };
}

export function marginView(audit: AuditReport, attack: AttackReport): MarginView {
  const { edges, series } = attack.marginHistogram;
  const hasRepair = series.some((s) => s.role === 'repair');
  const shown = (s: SeriesReport): boolean => s.role === 'audited' || s.role === 'repair' || (s.role === 'compared' && !hasRepair);
  const key = (s: SeriesReport): string => s.counts.join(',');
  return {
    attack: attack.name,
    edges,
    centres: edges.slice(1).map((e, i) => (e + edges[i]!) / 2),
    series: series.map((s, i) => ({
      reward: s.reward, role: s.role, detectors: s.detectors, selection: s.selection, label: s.label, counts: s.counts,
      trajectories: s.counts.reduce((a, b) => a + b, 0),
      figures: figuresOf(audit, attack, s),
      shown: shown(s),
      sameAs: series.slice(0, i).find((t) => shown(t) && t.selection === s.selection && key(t) === key(s))?.reward,
    })),
  };
}

/** What a margin chart's caption says of one series: ": ASR 6.70% (oracle UB), mean −0.48900, worst +0.81375". */
export function seriesSummary(s: MarginSeries): string {
  const same = s.sameAs === undefined ? '' : ` (same bars as ${s.sameAs})`;
  if (s.figures === undefined) return `: no figures${same}`;
  const f = s.figures;
  const worst = f.worstMargin === undefined || f.worstMargin === null ? '' : `, worst ${margin(f.worstMargin)}`;
  const mean = f.meanMargin === null ? '' : `, mean ${margin(f.meanMargin)}`;
  return `: ASR ${rateWithUpper(f.asr, f.upper)} (${shortLabel(s.label)})${mean}${worst}${same}`;
}

export interface SweepPoint {
  readonly scale: number;
  readonly asr: number | null;
  readonly upper: number | null;
  readonly meanMargin: number | null;
  readonly clusters: number;
}

export interface SweepLine {
  readonly attack: string;
  readonly selection: Selection;
  readonly label: Label;
  readonly points: readonly SweepPoint[];
}

/** One line per attack × selection, points in increasing scale. */
export function sweepLines(audit: AuditReport): SweepLine[] {
  const lines = new Map<string, { attack: string; selection: Selection; label: Label; points: SweepPoint[] }>();
  for (const e of audit.sweep) {
    const key = `${e.attack}\n${e.selection}`;
    const line = lines.get(key) ?? { attack: e.attack, selection: e.selection, label: e.label, points: [] };
    line.points.push({ scale: e.scale, asr: e.asr, upper: e.upper, meanMargin: e.meanMargin, clusters: e.clusters });
    // One oracle-worst point under a reward that reads gold makes the line an upper bound.
    if (e.label === 'oracle upper bound') line.label = e.label;
    lines.set(key, line);
  }
  return [...lines.values()].map((l) => ({ ...l, points: [...l.points].sort((a, b) => a.scale - b.scale) }));
}

export interface StratumBar {
  readonly asr: number | null;
  readonly low: number | null;
  readonly high: number | null;
  readonly clusters: number;
  readonly method: RateEstimateReport['interval']['method'];
}

export interface StrataGroup {
  /** e.g. "R_full vs R_L · launder · oracle-worst". */
  readonly title: string;
  readonly larger: string;
  readonly smaller: string;
  readonly attack: string;
  readonly selection: Selection;
  readonly term: string;
  readonly termWeight: number;
  readonly count: number;
  readonly active: StratumBar;
  readonly inactive: StratumBar;
}

const stratum = (e: RateEstimateReport): StratumBar => ({ asr: e.asr, low: e.interval.low, high: e.interval.high, clusters: e.clusters, method: e.interval.method });

/** Each cancellation finding: the larger reward's ASR where the cancelled term was active on the original, and where it was not. */
export function strataGroups(audit: AuditReport): StrataGroup[] {
  return audit.cancellation.map((c) => ({
    title: `${c.larger} vs ${c.smaller} · ${c.attack} · ${selectionTitle[c.selection]}`,
    larger: c.larger, smaller: c.smaller, attack: c.attack, selection: c.selection, term: c.term, termWeight: c.termWeight, count: c.count,
    active: stratum(c.strata.active), inactive: stratum(c.strata.inactive),
  }));
}
