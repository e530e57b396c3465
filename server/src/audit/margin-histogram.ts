import type { AttackReport, LatticeReport } from '../report/schema.js';
import type { AttackRun } from '../edits/attack-run.js';
import { strengthenedScorer, type FeatureTable, type Scorer } from '../edits/features.js';
import { selections } from '../edits/attack-plan.js';
import { editMargins, selectedMargins, selectionLabel } from '../scoring/scoring.js';
import type { ScoringMemo } from '../edits/scoring-memo.js';

// The distribution of selected paired margins behind each ASR, binned for the report page's
// pictures. Bins are fixed per attack (shared by every reward and selection, so the series overlay)
// and deterministic: a rounded step, edges on multiples of it, so 0 (the success threshold) is an
// edge whenever the margins straddle it.

export type MarginHistogram = AttackReport['marginHistogram'];

export const histogramBins = 24;

/** A reward whose margins are binned, and why it is there. */
export interface HistogramScorer {
  readonly scorer: Scorer;
  readonly role: 'audited' | 'compared' | 'repair';
  readonly detectors: readonly string[];
}

/** One scorer per observed inclusion-minimal repair S ≠ ∅: R_S = R − Σ_{j∈S} λ_j f_j, named R[S]. */
export function repairScorers(table: FeatureTable, base: Scorer, lattice: LatticeReport): HistogramScorer[] {
  const lambda = new Map(lattice.detectors.map((d) => [d.name, d.lambda]));
  return lattice.minimal
    .filter((subset) => subset.length > 0)
    .map((subset) => ({
      scorer: strengthenedScorer(table, base, subset.map((name) => ({ key: `decl:${name}`, lambda: lambda.get(name)! })), `${base.name}[${subset.join('+')}]`),
      role: 'repair',
      detectors: [...subset],
    }));
}

/** The smallest of 1, 2, 2.5, 5 × 10^k that is at least `x` (x > 0). */
function niceStep(x: number): number {
  const power = 10 ** Math.floor(Math.log10(x));
  const mantissa = [1, 2, 2.5, 5, 10].find((m) => m * power >= x * (1 - 1e-12)) ?? 10;
  return mantissa * power;
}

const round12 = (x: number): number => Number(x.toPrecision(12)) + 0;

/** `bins + 1` edges on multiples of a rounded step that cover [min, max], the spare bins split around it. */
export function histogramEdges(min: number, max: number, bins = histogramBins): number[] {
  let step = niceStep(max > min ? (max - min) / bins : Math.max(Math.abs(min), 1) / bins);
  const span = (s: number): number => Math.max(1, Math.ceil(max / s) - Math.floor(min / s));
  // Aligning the ends to multiples of the step can need one bin more than (max − min) / step.
  while (span(step) > bins) step = niceStep(step * 1.000001);
  const first = Math.floor(min / step) - Math.floor((bins - span(step)) / 2);
  return Array.from({ length: bins + 1 }, (_, i) => round12((first + i) * step));
}

/** The bin of x: edges[i] ≤ x < edges[i+1], the last bin closed; x must lie within the edges. */
export function binOf(edges: readonly number[], x: number): number {
  const bins = edges.length - 1;
  const step = (edges[bins]! - edges[0]!) / bins;
  let i = Math.min(bins - 1, Math.max(0, Math.floor((x - edges[0]!) / step)));
  // The division can land one bin off at an edge; the edges themselves decide.
  while (i > 0 && x < edges[i]!) i--;
  while (i < bins - 1 && x >= edges[i + 1]!) i++;
  return i;
}

/** Both selections' margins under every scorer, binned on one set of edges for the attack. */
export function attackMarginHistogram(run: AttackRun, scorers: readonly HistogramScorer[], memo: ScoringMemo): MarginHistogram {
  const selected = scorers.flatMap((s) => {
    const margins = editMargins(run, s.scorer.weights, memo);
    return selections.map((selection) => ({
      ...s,
      selection,
      margins: selectedMargins(run, margins, selection, memo),
    }));
  });
  let min = Infinity;
  let max = -Infinity;
  for (const s of selected) {
    for (const m of s.margins) {
      if (!Number.isFinite(m)) continue;
      min = Math.min(min, m);
      max = Math.max(max, m);
    }
  }
  if (min > max) return { edges: [], series: selected.map((s) => ({ ...seriesHead(s, run), counts: [] })) };
  const edges = histogramEdges(min, max);
  return {
    edges,
    series: selected.map((s) => {
      const counts = new Array<number>(edges.length - 1).fill(0);
      for (const m of s.margins) if (Number.isFinite(m)) counts[binOf(edges, m)]!++;
      return { ...seriesHead(s, run), counts };
    }),
  };
}

function seriesHead(s: HistogramScorer & { readonly selection: (typeof selections)[number] }, run: AttackRun): Omit<MarginHistogram['series'][number], 'counts'> {
  return { reward: s.scorer.name, role: s.role, detectors: [...s.detectors], selection: s.selection, label: selectionLabel(s.selection, s.scorer, run) };
}
