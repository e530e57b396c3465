import { lookup } from '../language/logged-fields.js';
import type { Trajectory } from '../pool/types.js';
import type { SpecModel } from '../semantics/check.js';
import type { ArmValues } from './arm-values.js';
import type { ComparisonPlan } from './plan.js';

// Greedy and sampled evaluation rows (the paper's Table 4 is greedy; its four-sample evaluation
// corroborates it): `greedy sample0` takes meta.sample 0 (or none) as greedy, `greedy FIELD` a
// declared boolean logged field. The split filters rows already evaluated, so both halves and the
// whole come from the same arm values.

/** Which rows are greedy; undefined when the block asks for no split. */
export function greedyRule(model: SpecModel, plan: ComparisonPlan): ((row: Trajectory) => boolean) | undefined {
  const greedy = plan.greedy;
  if (greedy === undefined) return undefined;
  if (greedy.kind === 'sample0') return (row) => (row.meta.sample ?? 0) === 0;
  const decl = model.spec.decls.find((d) => d.kind === 'logged' && d.name?.text === greedy.name);
  const path = decl?.kind === 'logged' ? decl.path.slice(1).map((n) => n.text) : [];
  return (row) => lookup(row.meta, path) === true;
}

/** An arm's rows that `keep` accepts, with every metric's values. */
export function subset(arm: ArmValues, keep: (row: Trajectory) => boolean): ArmValues {
  const indices: number[] = [];
  arm.rows.forEach((row, i) => {
    if (keep(row)) indices.push(i);
  });
  const values = new Map<string, Float64Array>();
  for (const [key, column] of arm.values) values.set(key, Float64Array.from(indices, (i) => column[i]!));
  return { rows: indices.map((i) => arm.rows[i]!), values };
}
