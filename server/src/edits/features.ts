import type { CompiledDetector, CompiledReward, Feature } from '../reward/compile.js';
import type { TrajectoryPart, Visibility } from '../language/types.js';
import { AuditError } from './audit-error.js';
import { snapTie } from '../stats/estimands.js';
import { slotOf, type EditChanges } from './edit-changes.js';

/**
 * The distinct number-valued functions an audit evaluates on every original and edit. Rewards,
 * lattice subsets and sweep points are weight vectors over them, so a weight edit re-runs
 * arithmetic only.
 */
export interface FeatureTable {
  readonly keys: readonly string[];
  readonly features: readonly Feature[];
  /** What each feature reads of a trajectory: an edit that writes none of it leaves the feature's value as it was. */
  readonly reads: readonly ReadonlySet<TrajectoryPart>[];
  /** The command terms each feature reads (edits/command-terms.ts): what a collecting pass records. */
  readonly commands: readonly (readonly string[])[];
  readonly index: ReadonlyMap<string, number>;
}

interface FeatureEntry {
  readonly key: string;
  readonly feature: Feature;
  readonly reads: ReadonlySet<TrajectoryPart>;
  readonly commands: readonly string[];
}

/** A value an analysis reads of each original only (a `conforms` line's two sides). */
export type OriginalValue = Omit<FeatureEntry, 'reads'>;

export function buildFeatureTable(rewards: readonly CompiledReward[], detectors: readonly CompiledDetector[], originalsOnly: readonly OriginalValue[] = []): FeatureTable {
  const keys: string[] = [];
  const features: Feature[] = [];
  const reads: ReadonlySet<TrajectoryPart>[] = [];
  const commands: (readonly string[])[] = [];
  const index = new Map<string, number>();
  const add = (entry: FeatureEntry): void => {
    if (index.has(entry.key)) return;
    index.set(entry.key, keys.length);
    keys.push(entry.key);
    features.push(entry.feature);
    reads.push(entry.reads);
    commands.push(entry.commands);
  };
  for (const detector of detectors) add(detector);
  for (const reward of rewards) for (const term of reward.terms) add(term);
  // Evaluated on originals only (no part is read that an edit could change): after every other
  // feature, so a key they share keeps the read set of its use in a reward or detector.
  for (const value of originalsOnly) add({ ...value, reads: new Set() });
  return { keys, features, reads, commands, index };
}

/** A reward as the audit scores it: a weight per feature. */
export interface Scorer {
  readonly name: string;
  readonly visibility: Visibility;
  readonly weights: Float64Array;
}

export function rewardScorer(table: FeatureTable, reward: CompiledReward): Scorer {
  const weights = new Float64Array(table.keys.length);
  for (const term of reward.terms) weights[table.index.get(term.key)!]! += term.weight;
  return { name: reward.name, visibility: reward.visibility, weights };
}

/** R_S = R − Σ_{j∈S} scale·λ_j f_j: the base reward strengthened by a set of detector penalties. */
export function strengthenedScorer(
  table: FeatureTable,
  base: Scorer,
  penalties: readonly { readonly key: string; readonly lambda: number }[],
  name: string,
  scale = 1,
): Scorer {
  const weights = Float64Array.from(base.weights);
  for (const p of penalties) weights[table.index.get(p.key)!]! -= scale * p.lambda;
  // Detectors are visible, so strengthening never changes a reward's visibility.
  return { name, visibility: base.visibility, weights };
}

/** The features on which T adds to S, or undefined when S ⊂ T does not hold (T must keep every term of S). */
export function extraFeatures(smaller: Scorer, larger: Scorer): number[] | undefined {
  const extra: number[] = [];
  for (let k = 0; k < smaller.weights.length; k++) {
    const s = smaller.weights[k]!;
    const t = larger.weights[k]!;
    if (s !== 0 && s !== t) return undefined;
    if (s === 0 && t !== 0) extra.push(k);
  }
  return extra.length === 0 ? undefined : extra;
}

/**
 * The paired margin M = R(A(τ)) − R(τ) of one edit, as Σ_k w_k·(f_k(A(τ)) − f_k(τ)) so that terms the
 * edit leaves unchanged add exactly nothing, with a tie made exact (see `snapTie`).
 */
export function pairedMargin(weights: Float64Array, editValues: Float64Array, editOffset: number, originalValues: Float64Array, originalOffset: number): number {
  const { margin, scale } = pairedChange(weights, editValues, editOffset, originalValues, originalOffset);
  return snappedMargin(margin, scale);
}

/** `pairedMargin` of edit `edit` of a run, from its change vector (the same double: each change is f_k(A(τ)) − f_k(τ)). */
export function editMargin(weights: Float64Array, changes: EditChanges, edit: number): number {
  const { margin, scale } = vectorChange(weights, changes, changes.vectorOf[edit]!);
  return snappedMargin(margin, scale);
}

/** The margin of every edit whose change vector is v, as `editMargin` gives it; it may not be finite. */
export function vectorMargin(weights: Float64Array, changes: EditChanges, v: number): number {
  const { margin, scale } = vectorChange(weights, changes, v);
  return snapTie(margin, scale);
}

function snappedMargin(margin: number, scale: number): number {
  const snapped = snapTie(margin, scale);
  if (!Number.isFinite(snapped)) throw new AuditError(`a paired margin is ${snapped}: the reward's weighted terms overflow a double`);
  return snapped;
}

/** The raw margin Σ_k w_k·d_k of one edit and its size Σ_k |w_k·d_k|, the scale that ties are judged on. */
export function pairedChange(weights: Float64Array, editValues: Float64Array, editOffset: number, originalValues: Float64Array, originalOffset: number): { margin: number; scale: number } {
  return weightedChange(weights, (k) => editValues[editOffset + k]! - originalValues[originalOffset + k]!);
}

/** The raw margin and size (`pairedChange`) of every edit whose change vector is v. */
export function vectorChange(weights: Float64Array, changes: EditChanges, v: number): { margin: number; scale: number } {
  const width = changes.columns.length;
  return weightedChange(weights, (k) => {
    const slot = slotOf(changes, k);
    return slot < 0 ? 0 : changes.vectors[v * width + slot]!;
  });
}

function weightedChange(weights: Float64Array, change: (k: number) => number): { margin: number; scale: number } {
  let margin = 0;
  let scale = 0;
  for (let k = 0; k < weights.length; k++) {
    const w = weights[k]!;
    if (w === 0) continue;
    const weighted = w * change(k);
    margin += weighted;
    scale += Math.abs(weighted);
  }
  return { margin, scale };
}

export function dot(weights: Float64Array, values: Float64Array, offset = 0): number {
  let sum = 0;
  for (let k = 0; k < weights.length; k++) sum += weights[k]! * values[offset + k]!;
  return sum;
}
