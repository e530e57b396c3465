import * as path from 'node:path';
import { regressions } from '../audit/baseline.js';
import type { Baseline, BaselineFigure } from '../report/baseline-schema.js';
import type { BaselineRead } from '../inputs/baseline-file.js';
import { auditIssueCodes } from '../problems/issue-codes.js';
import type { Problem } from '../problems/problem.js';
import type { Span } from '../problems/span.js';
import { percent } from '../report/format-numbers.js';
import type { Report } from '../report/schema.js';
import type { SpecModel } from '../semantics/check.js';

/**
 * Where to show a regression: the reward's terms whose weight changed (or appeared) since the
 * baseline, following a derived reward to its base when none of its own terms did.
 */
function changedTermSpans(model: SpecModel, reward: string, accepted: Record<string, Record<string, number>>, seen = new Set<string>()): Span[] {
  const decl = model.globals.get(reward)?.decl;
  if (decl?.kind !== 'reward' || seen.has(reward)) return [];
  seen.add(reward);
  const before = accepted[reward];
  const spans = decl.terms.filter((t) => before !== undefined && before[t.name.text] !== t.weight).map((t) => t.weightSpan ?? t.span);
  if (spans.length > 0 || decl.base === undefined) return spans;
  return changedTermSpans(model, decl.base.text, accepted, seen);
}

/** `4.30% (≤ 5.90%, 600 clusters)`; `n/a (0 clusters)` for a rate without clusters. */
function figureText(f: BaselineFigure): string {
  return f.upper === null ? `${percent(f.asr)} (${f.clusters} clusters)` : `${percent(f.asr)} (≤ ${percent(f.upper)}, ${f.clusters} clusters)`;
}

/** Regressions as errors on the weights that changed, or on the reward when none did (the data or generators did). */
function regressionFindings(report: Report, baseline: Baseline, model: SpecModel): Problem[] {
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
    for (const span of spans) {
      problems.push({
        code: auditIssueCodes.asrRegression, severity: 'error', span, message, related, data: { audit: r.audit, attack: r.attack, reward: r.reward },
        key: [r.audit, r.attack, r.reward, r.selection],
      });
    }
  }
  return problems;
}

/**
 * What a spec's baseline says about the latest audit: regressions, or a warning that the baseline
 * cannot be read (on the first audit's name), so regressions are not checked at all.
 */
export function baselineFindings(read: BaselineRead, baselineFile: string, report: Report | undefined, model: SpecModel): Problem[] {
  if (read.kind === 'invalid') {
    const first = model.spec.decls.find((d) => d.kind === 'audit');
    return [{
      code: auditIssueCodes.baselineUnreadable, severity: 'warning', span: first?.name?.span ?? { start: 0, end: 0 },
      message: `${path.basename(baselineFile)} is not a baseline (${read.reason}): regressions are not checked`,
      key: [path.basename(baselineFile)],
    }];
  }
  return read.kind === 'ok' && report !== undefined ? regressionFindings(report, read.baseline, model) : [];
}
