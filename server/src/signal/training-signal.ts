import { advantageTolerance, groupAdvantages, largestShift, type Normalization } from './group-advantages.js';

/** One logged training trajectory as the analysis sees it: its group, step, reward and detector values. */
export interface SignalRow {
  /** The update group (`meta.group`); undefined when the row names none. */
  readonly group: string | undefined;
  readonly step: number | undefined;
  /** The training reward R(τ), penalties included. */
  readonly reward: number;
  /** f_j(τ) for each detector term, in the order of `SignalDetector`s. */
  readonly fires: readonly number[];
}

/** A detector term of the training reward: R = … − λ·f. */
export interface SignalDetector {
  readonly name: string;
  readonly lambda: number;
}

export interface GroupExample {
  readonly group: string;
  readonly step: number | null;
  readonly size: number;
  /** Samples of the group on which the detector fires. */
  readonly firing: number;
  /** max_i |A_i(R) − A_i(R + λ·f)|: how far the penalty moves the group's advantages. */
  readonly shift: number;
}

export interface DetectorSignal {
  readonly name: string;
  readonly lambda: number;
  readonly firingRows: number;
  readonly firingGroups: number;
  /** Groups where it fires on some samples but not all. */
  readonly mixedGroups: number;
  /** Groups where it fires on every sample: the group mean absorbs the penalty. */
  readonly allFiringGroups: number;
  /** Firing groups whose normalised advantages differ with and without the penalty. */
  readonly changedGroups: number;
  /** Firing groups whose advantages are the same with and without it: the optimizer never sees it. */
  readonly cancelledGroups: number;
  readonly largestShift: number;
  readonly changedExample: GroupExample | null;
  readonly cancelledExample: GroupExample | null;
}

/** A detector's signal while the groups are counted. */
type Tally = { -readonly [K in keyof DetectorSignal]: DetectorSignal[K] };

export interface StepExposure {
  readonly step: number;
  readonly rows: number;
  readonly groups: number;
  readonly detectors: readonly { readonly name: string; readonly firingRows: number; readonly firingGroups: number; readonly changedGroups: number }[];
}

export interface SignalAnalysis {
  readonly rows: number;
  readonly groups: number;
  /** Rows without `meta.group`: a group of one, whose advantage is always zero. */
  readonly ungroupedRows: number;
  /** Groups whose advantages are all zero under the full reward: no gradient from them at all. */
  readonly flatGroups: number;
  readonly detectors: readonly DetectorSignal[];
  /** Per training step, in ascending order; rows without `meta.step` are left out. */
  readonly steps: readonly StepExposure[];
}

interface Group {
  readonly key: string;
  readonly rows: SignalRow[];
}

function groupsOf(rows: readonly SignalRow[]): Group[] {
  const byKey = new Map<string, Group>();
  rows.forEach((row, i) => {
    // An ungrouped row is its own group; the index keeps it apart from every named group.
    const key = row.group ?? `\u0000${i}`;
    let group = byKey.get(key);
    if (group === undefined) byKey.set(key, (group = { key, rows: [] }));
    group.rows.push(row);
  });
  return [...byKey.values()];
}

/** The step a group belongs to: its rows' smallest step (a group is one update, so they agree). */
function stepOf(group: Group): number | undefined {
  let step: number | undefined;
  for (const row of group.rows) if (row.step !== undefined && (step === undefined || row.step < step)) step = row.step;
  return step;
}

/**
 * The training-signal audit of one reward on logged update groups. For each detector term −λ·f,
 * compares the group-normalised advantages of R with those of R + λ·f (the reward without that
 * term): with centring, r̃'_i = (r_i − r̄_g) − λ(f_i − f̄_g), so a detector that fires on all or
 * none of a group's samples leaves its advantages unchanged.
 */
export function analyseTrainingSignal(rows: readonly SignalRow[], detectors: readonly SignalDetector[], normalization: Normalization): SignalAnalysis {
  const groups = groupsOf(rows);
  const tallies = detectors.map((d): Tally => ({
    name: d.name, lambda: d.lambda, firingRows: 0, firingGroups: 0, mixedGroups: 0, allFiringGroups: 0, changedGroups: 0, cancelledGroups: 0,
    largestShift: 0, changedExample: null, cancelledExample: null,
  }));
  const steps = new Map<number, { rows: number; groups: number; detectors: { firingRows: number; firingGroups: number; changedGroups: number }[] }>();
  let flatGroups = 0;

  for (const group of groups) {
    const rewards = group.rows.map((r) => r.reward);
    const advantages = groupAdvantages(rewards, normalization);
    if (advantages.every((a) => a === 0)) flatGroups++;
    const step = stepOf(group);
    let perStep = step === undefined ? undefined : steps.get(step);
    if (step !== undefined && perStep === undefined) {
      steps.set(step, (perStep = { rows: 0, groups: 0, detectors: detectors.map(() => ({ firingRows: 0, firingGroups: 0, changedGroups: 0 })) }));
    }
    if (perStep !== undefined) {
      perStep.rows += group.rows.length;
      perStep.groups++;
    }
    detectors.forEach((detector, j) => {
      const tally = tallies[j]!;
      let firing = 0;
      for (const row of group.rows) if (row.fires[j] !== 0) firing++;
      if (firing === 0) return;
      tally.firingRows += firing;
      tally.firingGroups++;
      if (firing === group.rows.length) tally.allFiringGroups++;
      else tally.mixedGroups++;
      // The same update without this penalty: R + λ·f.
      const without = groupAdvantages(group.rows.map((row) => row.reward + detector.lambda * row.fires[j]!), normalization);
      const shift = largestShift(advantages, without);
      const example: GroupExample = { group: group.rows[0]!.group ?? '(ungrouped)', step: step ?? null, size: group.rows.length, firing, shift };
      if (shift > advantageTolerance) {
        tally.changedGroups++;
        if (shift > tally.largestShift) tally.largestShift = shift;
        tally.changedExample ??= example;
      } else {
        tally.cancelledGroups++;
        tally.cancelledExample ??= example;
      }
      if (perStep !== undefined) {
        const cell = perStep.detectors[j]!;
        cell.firingRows += firing;
        cell.firingGroups++;
        if (shift > advantageTolerance) cell.changedGroups++;
      }
    });
  }

  return {
    rows: rows.length,
    groups: groups.length,
    ungroupedRows: rows.filter((r) => r.group === undefined).length,
    flatGroups,
    detectors: tallies,
    steps: [...steps.entries()].sort(([a], [b]) => a - b).map(([step, s]) => ({
      step, rows: s.rows, groups: s.groups,
      detectors: s.detectors.map((d, j) => ({ name: detectors[j]!.name, ...d })),
    })),
  };
}
