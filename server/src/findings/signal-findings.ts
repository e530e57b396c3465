import type { SignalReport } from '../report/training-schema.js';
import type { SpecModel } from '../semantics/check.js';
import type { Term } from '../syntax/ast.js';
import type { Span } from '../problems/span.js';
import { auditIssueCodes } from '../problems/issue-codes.js';
import type { Problem } from '../problems/problem.js';

/** The term that weighs `detector` in a reward, following derived rewards to their base. */
function detectorTerm(model: SpecModel, rewardName: string, detector: string, seen = new Set<string>()): Term | undefined {
  const decl = model.globals.get(rewardName)?.decl;
  if (decl?.kind !== 'reward' || seen.has(rewardName)) return undefined;
  seen.add(rewardName);
  const own = decl.terms.find((t) => t.body?.kind === 'name' && t.body.name.text === detector);
  return own ?? (decl.base === undefined ? undefined : detectorTerm(model, decl.base.text, detector, seen));
}

/**
 * A `sparse-training-signal` warning for every detector whose penalty changes the normalised
 * advantages in fewer groups than its training block asks for: on the penalty term, where a user
 * would act (raise λ, or fix what makes every sample of a group fire together).
 */
export function signalFindings(reports: readonly SignalReport[], model: SpecModel): Problem[] {
  const problems: Problem[] = [];
  for (const report of reports) {
    const block = model.globals.get(report.name)?.decl;
    if (block?.kind !== 'training') continue;
    const anchor: Span = block.name?.span ?? block.span;
    for (const d of report.detectors) {
      if (d.reachesOptimizer) continue;
      const term = detectorTerm(model, report.reward.name, d.name);
      problems.push({
        code: auditIssueCodes.sparseTrainingSignal, severity: 'warning', span: term?.span ?? anchor,
        message: `${d.name}'s penalty reaches the optimizer in ${d.changedGroups} of ${report.groups} training groups (training '${report.name}' asks for ${report.minGroups}): `
          + `it fires on ${d.firingRows} of ${report.rows} rows in ${d.firingGroups} groups; ${d.allFiringGroups} fire on every sample and ${d.cancelledGroups} are exactly cancelled by group normalisation`,
        related: term === undefined ? undefined : [{ span: anchor, message: `training '${report.name}' (min_groups ${report.minGroups})` }],
        data: { detector: d.name, changedGroups: d.changedGroups, minGroups: report.minGroups },
        key: [report.name, d.name],
      });
    }
  }
  return problems;
}
