import type { FrozenFigures, RateEstimateReport } from './schema.js';

// How every export writes a number, so the table, the HTML page and the SARIF messages agree:
// rates as percents with two decimals, paired margins with five decimals and a sign (the paper's
// +0.81375), weights as short plain numbers.

export const minus = '−';

/** How every view writes a figure that is not defined (a rate over zero clusters): never as 0. */
export const notAvailable = 'n/a';

/** What a lattice with no isolated-eligible edit to go on says, in expectations and in every view. */
export const vacuousLattice = 'nothing to repair: no isolated-eligible edit';

/** A rate in [0, 1] as a percent with two decimals: 0.043 → `4.30%`; `n/a` when undefined. */
export function percent(rate: number | null): string {
  return rate === null ? notAvailable : `${(rate * 100).toFixed(2)}%`;
}

/** The same with one decimal and no sign: for interval ends, `[2.9, 5.9]`. */
function percent1(rate: number): string {
  return (rate * 100).toFixed(1);
}

/** A real number with five decimals and a typographic minus; `signed` adds `+` to positive values; `n/a` when undefined. */
export function decimal5(x: number | null, signed = false): string {
  if (x === null) return notAvailable;
  const text = x.toFixed(5);
  if (/^-?0\.0+$/.test(text)) return '0.00000';
  if (text.startsWith('-')) return `${minus}${text.slice(1)}`;
  return signed ? `+${text}` : text;
}

/** A paired margin, signed: `+0.81375`, `−0.38625`; `n/a` when undefined. */
export function margin(x: number | null): string {
  return decimal5(x, true);
}

/** A weight or scale as written in a spec: 1.2, 0.25, 1. */
export function shortNumber(x: number): string {
  const text = String(Number(x.toPrecision(6)));
  return text.startsWith('-') ? `${minus}${text.slice(1)}` : text;
}

/** A rate with its uncertainty: `4.30% [2.9, 5.9]` (bootstrap), `0.00% (≤ 0.50%)` (exact zero). */
export function rateWithBound(e: Pick<RateEstimateReport, 'asr' | 'clusters' | 'interval'>): string {
  if (e.asr === null || e.interval.low === null || e.interval.high === null) return notAvailable;
  if (e.interval.method === 'exact-zero') return `${percent(e.asr)} (≤ ${percent(e.interval.high)})`;
  return `${percent(e.asr)} [${percent1(e.interval.low)}, ${percent1(e.interval.high)}]`;
}

/** The strict rate (margin > 0: a tie is no success) with its bound or interval, as `rateWithBound` writes the ASR. */
export function strictWithBound(e: Pick<RateEstimateReport, 'strictAsr' | 'clusters' | 'strictInterval'>): string {
  return rateWithBound({ asr: e.strictAsr, clusters: e.clusters, interval: e.strictInterval });
}

/** A rate known only with its upper end (lattice, sweep, per-pool entries): the bound is shown at zero. */
export function rateWithUpper(asr: number | null, upper: number | null): string {
  if (asr === null) return notAvailable;
  return asr === 0 && upper !== null ? `${percent(asr)} (≤ ${percent(upper)})` : percent(asr);
}

export function detectorSet(names: readonly string[]): string {
  return `{${names.join(', ')}}`;
}

export type Label = 'label-free' | 'oracle upper bound';

export function shortLabel(label: Label): string {
  return label === 'oracle upper bound' ? 'oracle UB' : 'label-free';
}

export function plural(n: number, one: string, many = `${one}s`): string {
  return `${n} ${n === 1 ? one : many}`;
}

const listed = (words: readonly string[]): string => (words.length < 2 ? words.join('') : `${words.slice(0, -1).join(', ')} and ${words.at(-1)!}`);

/** What a frozen figure kept: `judge (meta.judge.score) as logged, which pool runs cannot recompute after an edit`. */
export function frozenCause(frozen: FrozenFigures): string {
  const pools = [...new Set(frozen.fields.flatMap((f) => f.pools))].map((p) => `pool ${p}`);
  return `${listed(frozen.fields.map((f) => `${f.name} (${f.path})`))} as logged, which ${listed(pools)} cannot recompute after an edit`;
}

/** What the attack's edit writes that the frozen fields depend on: `fake_id writes citations and final_text`. */
export function frozenEdit(attack: string, frozen: FrozenFigures): string {
  return `${attack}${frozen.edit === attack ? '' : ` (edit ${frozen.edit})`} writes ${listed(frozen.writes)}`;
}

/** Why a reward's figures under an attack are frozen, in one sentence the table and the expectations share. */
export function frozenSentence(reward: string, attack: string, frozen: FrozenFigures): string {
  return `${reward} reads ${frozenCause(frozen)}, and ${frozenEdit(attack, frozen)}: not counted as ${reward}'s figure`;
}
