import { RewardCompiler, type CompiledReward } from '../reward/compile.js';
import type { SpecModel } from '../semantics/check.js';

// The minimal repair as a reward of its own: `R0 − λ·L`, as weights over the features the audit
// scores (the compiler's term keys), so an existing reward that already is the repair is found by
// its weights, whatever it is called or however it is written (`R0 - 1.2 * L`, a block with the
// same terms…).

export interface RepairTerm {
  readonly detector: string;
  readonly lambda: number;
}

/** Weights that differ by less than this are the same (a repair's λ is written with few digits). */
const sameWeight = 1e-9;

function compiledReward(model: SpecModel, reward: string): CompiledReward | undefined {
  try {
    return new RewardCompiler(model).reward(reward);
  } catch {
    // Only a spec with errors fails to compile, and findings are never worded for one.
    return undefined;
  }
}

/** A reward's weight per feature key; undefined for a reward that does not compile (a spec with errors). */
export function rewardWeights(model: SpecModel, reward: string): Map<string, number> | undefined {
  const compiled = compiledReward(model, reward);
  if (compiled === undefined) return undefined;
  const weights = new Map<string, number>();
  for (const term of compiled.terms) weights.set(term.key, (weights.get(term.key) ?? 0) + term.weight);
  return weights;
}

/** The repaired reward's weights: the base's, each repair detector penalised by its λ. */
export function repairWeights(model: SpecModel, base: string, repair: readonly RepairTerm[]): Map<string, number> | undefined {
  const weights = rewardWeights(model, base);
  if (weights === undefined) return undefined;
  for (const t of repair) weights.set(`decl:${t.detector}`, (weights.get(`decl:${t.detector}`) ?? 0) - t.lambda);
  return weights;
}

function sameWeights(a: ReadonlyMap<string, number>, b: ReadonlyMap<string, number>): boolean {
  const keys = new Set([...a.keys(), ...b.keys()]);
  return [...keys].every((k) => Math.abs((a.get(k) ?? 0) - (b.get(k) ?? 0)) < sameWeight);
}

/** The first declared reward (other than the base) whose weights are the repair's, if any. */
export function rewardThatIsRepair(model: SpecModel, base: string, repair: readonly RepairTerm[]): string | undefined {
  const wanted = repairWeights(model, base, repair);
  if (wanted === undefined || repair.length === 0) return undefined;
  for (const decl of model.spec.decls) {
    const name = decl.kind === 'reward' ? decl.name?.text : undefined;
    if (name === undefined || name === base) continue;
    const weights = rewardWeights(model, name);
    if (weights !== undefined && sameWeights(weights, wanted)) return name;
  }
  return undefined;
}

/** `R0 − 1.2·L − 0.5·U`: the repair as a reader writes it. */
export function repairFormula(base: string, repair: readonly RepairTerm[]): string {
  return [base, ...repair.map((t) => `− ${t.lambda}·${t.detector}`)].join(' ');
}
