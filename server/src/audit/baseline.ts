import * as fs from 'node:fs';
import * as path from 'node:path';
import { z } from 'zod';
import type { Report } from '../report/schema.js';
import type { SpecModel } from '../semantics/check.js';
import type { RewardDecl } from '../syntax/ast.js';
import type { Span } from '../problems/span.js';
import { auditIssueCodes } from '../problems/issue-codes.js';
import type { Problem } from '../problems/problem.js';
import { percent } from '../report/format-numbers.js';

// The accepted figures of a spec's audits, committed beside it as `<spec>.baseline.json`. A later
// audit whose attack success rate rose against them, or whose bound widened at the same rate, is a regression.

// asr and upper are null when the attack had no isolated-eligible cluster (undefined, never 0).
const figure = z.object({ asr: z.number().nullable(), upper: z.number().nullable(), clusters: z.number().int() });
const baselineSchema = z.object({
  version: z.literal(1),
  audits: z.record(
    z.string(),
    z.object({
      /** Each reward's own terms and weights, so a regression can point at what changed. */
      weights: z.record(z.string(), z.record(z.string(), z.number())),
      /** Keyed `attack / reward / selection`. */
      figures: z.record(z.string(), figure),
    }),
  ),
});
export type Baseline = z.infer<typeof baselineSchema>;

export function baselineFileOf(specFile: string): string {
  return `${specFile}.baseline.json`;
}

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

export function writeBaseline(file: string, baseline: Baseline): void {
  fs.writeFileSync(file, `${JSON.stringify(baseline, null, 2)}\n`);
}

export type BaselineRead = { readonly kind: 'none' } | { readonly kind: 'ok'; readonly baseline: Baseline } | { readonly kind: 'invalid'; readonly reason: string };

/** Reads a baseline; a missing file is no baseline, a malformed one says why. */
export function readBaseline(file: string): BaselineRead {
  let text: string;
  try {
    text = fs.readFileSync(file, 'utf8');
  } catch {
    return { kind: 'none' };
  }
  try {
    const parsed = baselineSchema.safeParse(JSON.parse(text));
    return parsed.success ? { kind: 'ok', baseline: parsed.data } : { kind: 'invalid', reason: parsed.error.issues[0]?.message ?? 'not a baseline' };
  } catch (error) {
    return { kind: 'invalid', reason: (error as Error).message };
  }
}

const tolerance = 1e-12;

export interface Regression {
  readonly audit: string;
  readonly attack: string;
  readonly reward: string;
  readonly selection: string;
  readonly before: z.infer<typeof figure>;
  readonly after: z.infer<typeof figure>;
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

/**
 * Where to show a regression: the reward's terms whose weight changed (or appeared) since the
 * baseline, following a derived reward to its base when none of its own terms did.
 */
function changedTermSpans(model: SpecModel, reward: string, accepted: Record<string, Record<string, number>>, seen = new Set<string>()): Span[] {
  const decl = model.globals.get(reward)?.decl;
  if (decl?.kind !== 'reward' || seen.has(reward)) return [];
  seen.add(reward);
  const before = accepted[reward];
  const spans = (decl as RewardDecl).terms.filter((t) => before !== undefined && before[t.name.text] !== t.weight).map((t) => t.weightSpan ?? t.span);
  if (spans.length > 0 || decl.base === undefined) return spans;
  return changedTermSpans(model, decl.base.text, accepted, seen);
}

/** `4.30% (≤ 5.90%, 600 clusters)`; `n/a (0 clusters)` for a rate without clusters. */
function figureText(f: z.infer<typeof figure>): string {
  return f.upper === null ? `${percent(f.asr)} (${f.clusters} clusters)` : `${percent(f.asr)} (≤ ${percent(f.upper)}, ${f.clusters} clusters)`;
}

/** Regressions as errors on the weights that changed, or on the reward when none did (the data or generators did). */
export function regressionProblems(report: Report, baseline: Baseline, model: SpecModel): Problem[] {
  const problems: Problem[] = [];
  for (const r of regressions(report, baseline)) {
    const pools = report.audits.find((a) => a.name === r.audit)?.pools.map((p) => p.name).join(', ') ?? '';
    const changed = changedTermSpans(model, r.reward, baseline.audits[r.audit]?.weights ?? {});
    const rewardSpan = model.globals.get(r.reward)?.nameSpan;
    const auditSpan = model.globals.get(r.audit)?.nameSpan;
    const spans = changed.length > 0 ? changed : [rewardSpan ?? auditSpan ?? { start: 0, end: 0 }];
    const message =
      `regression against the baseline: ${r.attack} under ${r.reward} (${r.selection}) went from ${figureText(r.before)} to ${figureText(r.after)} ` +
      `in audit ${r.audit} over ${pools}` +
      (changed.length > 0 ? '; this weight changed since the baseline' : '; no weight of this reward changed: the data or the attacks did');
    const related = auditSpan === undefined ? [] : [{ span: auditSpan, message: `audit ${r.audit}, attack ${r.attack}` }];
    for (const span of spans) problems.push({ code: auditIssueCodes.asrRegression, severity: 'error', span, message, related, data: { audit: r.audit, attack: r.attack, reward: r.reward } });
  }
  return problems;
}

/**
 * What a spec's baseline says about the latest audit: regressions, or a warning that the baseline
 * cannot be read (on the first audit's name), so regressions are not checked at all.
 */
export function baselineProblems(read: BaselineRead, baselineFile: string, report: Report | undefined, model: SpecModel): Problem[] {
  if (read.kind === 'invalid') {
    const first = model.spec.decls.find((d) => d.kind === 'audit');
    return [{
      code: auditIssueCodes.baselineUnreadable, severity: 'warning', span: first?.name?.span ?? { start: 0, end: 0 },
      message: `${path.basename(baselineFile)} is not a baseline (${read.reason}): regressions are not checked`,
    }];
  }
  return read.kind === 'ok' && report !== undefined ? regressionProblems(report, read.baseline, model) : [];
}
