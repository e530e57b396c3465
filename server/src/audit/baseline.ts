// Making a spec's baseline from a report, and comparing a later report with it: an ASR that rose
// against the accepted figures, or whose bound widened at the same rate, is a regression.
import type { Baseline, BaselineFigure } from '../report/baseline-schema.js';
import type { Report } from '../report/schema.js';
import type { SpecModel } from '../semantics/check.js';

const figureKey = (attack: string, reward: string, selection: string): string => `${attack} / ${reward} / ${selection}`;

/** A reward's own terms (not inherited ones) and their weights, by term name. */
function ownWeights(model: SpecModel): Record<string, Record<string, number>> {
  const weights: Record<string, Record<string, number>> = {};
  for (const decl of model.spec.decls) {
    if (decl.kind !== 'reward' || decl.name === undefined) continue;
    weights[decl.name.text] = Object.fromEntries(decl.terms.filter((t) => t.weight !== undefined).map((t) => [t.name.text, t.weight!]));
  }
  return weights;
}

export function makeBaseline(report: Report, model: SpecModel): Baseline {
  const weights = ownWeights(model);
  return {
    version: 1,
    audits: Object.fromEntries(report.audits.map((audit) => [audit.name, {
      weights: Object.fromEntries([audit.reward.name, ...audit.compared.map((c) => c.name)].map((r) => [r, weights[r] ?? {}])),
      figures: Object.fromEntries(audit.attacks.flatMap((attack) => attack.results.map((r) => [
        figureKey(attack.name, r.reward, r.selection),
        { asr: r.estimate.asr, upper: r.estimate.interval.high, clusters: r.estimate.clusters },
      ]))),
    }])),
  };
}

const tolerance = 1e-12;

export interface Regression {
  readonly audit: string;
  readonly attack: string;
  readonly reward: string;
  readonly selection: string;
  readonly before: BaselineFigure;
  readonly after: BaselineFigure;
}

/** Figures whose ASR rose against the baseline, or whose upper bound rose while the ASR held. */
export function regressions(report: Report, baseline: Baseline): Regression[] {
  const found: Regression[] = [];
  for (const audit of report.audits) {
    const accepted = baseline.audits[audit.name];
    if (accepted === undefined) continue;
    for (const attack of audit.attacks) {
      for (const r of attack.results) {
        const before = accepted.figures[figureKey(attack.name, r.reward, r.selection)];
        if (before === undefined) continue;
        const after = { asr: r.estimate.asr, upper: r.estimate.interval.high, clusters: r.estimate.clusters };
        // A rate that is now undefined (no isolated-eligible cluster) observed nothing, so it cannot
        // have risen; one that was undefined and is now above zero has.
        if (after.asr === null) continue;
        // A bound that widens while the rate holds means weaker evidence (fewer clusters); while the rate
        // falls it is only the switch from the bootstrap to the exact zero bound, not a regression.
        const rose = after.asr > (before.asr ?? 0) + tolerance;
        const widened = before.asr !== null && before.upper !== null && after.upper !== null
          && after.asr >= before.asr - tolerance && after.upper > before.upper + tolerance;
        if (rose || widened) {
          found.push({ audit: audit.name, attack: attack.name, reward: r.reward, selection: r.selection, before, after });
        }
      }
    }
  }
  return found;
}

