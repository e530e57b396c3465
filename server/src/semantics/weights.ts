import type { RewardDecl } from '../syntax/ast.js';
import type { Analysis } from './analysis.js';

/**
 * Σ |w| over every term of a reward, its base's terms included: when this is finite, every weight
 * the audit derives from the reward (merged terms, lattice subsets, sweep points) is finite too.
 * A cycle of derived rewards (reported elsewhere) counts as zero here.
 */
export function weightMass(a: Analysis, reward: RewardDecl, seen: ReadonlySet<RewardDecl> = new Set()): number {
  if (seen.has(reward)) return 0;
  let mass = 0;
  // A weight that is itself not finite is a non-finite-number error already: do not say it twice.
  for (const term of reward.terms) if (Number.isFinite(term.weight)) mass += Math.abs(term.weight!);
  const base = reward.base === undefined ? undefined : a.globals.get(reward.base.text)?.decl;
  return base?.kind === 'reward' ? mass + weightMass(a, base, new Set([...seen, reward])) : mass;
}
