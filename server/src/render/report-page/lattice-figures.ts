import { detectorSet, margin, minus, rateWithUpper, shortLabel, shortNumber, vacuousLattice } from '../../report/format-numbers.js';
import type { AuditReport } from '../../report/schema.js';
import type { Selection } from './chart-data.js';

// A lattice subset as words: its set, the reward it scores, and its figures per attack; the
// diagram's tooltips and the view's click-for-details panel both say it this way.

export function setLabel(detectors: readonly string[]): string {
  return detectors.length === 0 ? '∅' : detectorSet(detectors);
}

/** R0 − 1.2·L − 1·F: the reward a subset scores. */
export function subsetReward(audit: AuditReport, detectors: readonly string[]): string {
  const lambda = new Map(audit.lattice.detectors.map((d) => [d.name, d.lambda]));
  return [audit.reward.name, ...detectors.map((d) => `${minus} ${shortNumber(lambda.get(d) ?? Number.NaN)}·${d}`)].join(' ');
}

export interface SubsetFigures {
  readonly set: string;
  readonly reward: string;
  readonly sufficient: boolean;
  readonly minimal: boolean;
  /** "sufficient; observed inclusion-minimal repair", "sufficient", "not sufficient". */
  readonly state: string;
  readonly rows: readonly {
    readonly attack: string;
    readonly selection: Selection;
    readonly asr: string;
    readonly asrPositive: boolean;
    readonly meanMargin: string;
    readonly clusters: number;
    readonly label: string;
  }[];
}

export function subsetFigures(audit: AuditReport, index: number): SubsetFigures | undefined {
  const subset = audit.lattice.subsets[index];
  if (subset === undefined) return undefined;
  return {
    set: setLabel(subset.detectors),
    reward: subsetReward(audit, subset.detectors),
    sufficient: subset.sufficient,
    minimal: subset.minimal,
    state: audit.lattice.vacuous ? vacuousLattice
      : subset.minimal ? 'sufficient; observed inclusion-minimal repair' : subset.sufficient ? 'sufficient (not minimal)' : 'not sufficient: an oracle-worst ASR is above zero',
    rows: subset.results.map((r) => ({
      attack: r.attack, selection: r.selection, asr: rateWithUpper(r.asr, r.upper), asrPositive: r.asr !== null && r.asr > 0,
      meanMargin: margin(r.meanMargin), clusters: r.clusters, label: shortLabel(r.label),
    })),
  };
}
