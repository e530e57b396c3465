import type { Decl, RewardDecl } from '../syntax/ast.js';
import type { Analysis } from './analysis.js';

/** Σ |w| over a reward's own terms. A weight that is itself not finite is a non-finite-number error already: do not say it twice. */
function ownMass(reward: RewardDecl): number {
  let mass = 0;
  for (const term of reward.terms) if (Number.isFinite(term.weight)) mass += Math.abs(term.weight!);
  return mass;
}

/**
 * Σ |w| over every term of a reward, its base's terms included: when this is finite, every weight
 * the audit derives from the reward (merged terms, lattice subsets, sweep points) is finite too.
 * A cycle of derived rewards (reported elsewhere) counts as zero here. Walks the chain of bases
 * in a loop and remembers each reward's mass, so a long chain costs its length once, not per reward.
 */
export function weightMass(a: Analysis, reward: RewardDecl): number {
  const chain: RewardDecl[] = [];
  const onChain = new Set<RewardDecl>();
  let mass = 0;
  let cyclic = false;
  for (let current: RewardDecl | undefined = reward; current !== undefined;) {
    const known = a.weightMasses.get(current);
    if (known !== undefined) {
      mass = known;
      break;
    }
    if (onChain.has(current)) {
      cyclic = true;
      break;
    }
    chain.push(current);
    onChain.add(current);
    const base: Decl | undefined = current.base === undefined ? undefined : a.globals.get(current.base.text)?.decl;
    current = base?.kind === 'reward' ? base : undefined;
  }
  for (let i = chain.length - 1; i >= 0; i--) {
    mass += ownMass(chain[i]!);
    // On a cycle a reward's mass depends on where the walk entered it: nothing to remember.
    if (!cyclic) a.weightMasses.set(chain[i]!, mass);
  }
  return mass;
}
