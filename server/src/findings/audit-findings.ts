import * as path from 'node:path';
import type { RowIssue } from '../pool/types.js';
import type { AuditFailure } from '../audit/audit-spec.js';
import type { AuditReport, Report } from '../report/schema.js';
import type { SpecModel } from '../semantics/check.js';
import type { AuditDecl, RewardDecl, Term } from '../syntax/ast.js';
import type { Span } from '../problems/span.js';
import { auditIssueCodes } from '../problems/issue-codes.js';
import type { Problem } from '../problems/problem.js';
import { zeroEventUpperBound } from '../stats/estimands.js';
import { margin, percent } from '../report/format-numbers.js';

/** Below this many clusters a zero-success bound is wider than 5%: too coarse to call a reward safe. */
export const smallSampleClusters = 59;

/**
 * The penalty a repair should use: the lattice's λ when it exceeds the largest base gain among the
 * audited edits the detector catches (the finite-set certificate), else the next tenth above that gain.
 */
export function certifiedLambda(lambda: number, maxGain: number | null): number {
  if (maxGain === null || lambda > maxGain) return lambda;
  return (Math.floor(maxGain * 10 + 1e-9) + 1) / 10;
}


/** Finds the term named `name` that a reward uses, following derived rewards to their base. */
function findTerm(model: SpecModel, rewardName: string, name: string, seen = new Set<string>()): Term | undefined {
  const decl = model.globals.get(rewardName)?.decl;
  if (decl?.kind !== 'reward' || seen.has(rewardName)) return undefined;
  seen.add(rewardName);
  const own = (decl as RewardDecl).terms.find((t) => t.name.text === name);
  return own ?? (decl.base === undefined ? undefined : findTerm(model, decl.base.text, name, seen));
}

function auditDecl(model: SpecModel, name: string): AuditDecl | undefined {
  const decl = model.globals.get(name)?.decl;
  return decl?.kind === 'audit' ? decl : undefined;
}

const folded = (text: string): string => text.replace(/\s+/g, ' ').trim();

function auditFindings(report: AuditReport, model: SpecModel, text: string): Problem[] {
  const decl = auditDecl(model, report.name);
  if (decl === undefined) return [];
  const anchor: Span = decl.name?.span ?? decl.span;
  const problems: Problem[] = [];

  // Expect lines: matched by their text, so they stay put while the spec is edited around them.
  const expects = decl.items.filter((i) => i.kind === 'expect-metric' || i.kind === 'expect-minimal');
  for (const expectation of report.expectations) {
    if (expectation.passed) continue;
    const item = expects.find((e) => folded(text.slice(e.span.start, e.span.end)) === folded(expectation.text));
    problems.push({
      code: auditIssueCodes.expectFailed, severity: 'error', span: item?.span ?? anchor,
      message: `expectation fails: ${expectation.actual}`,
    });
  }

  // Attacks that beat the audited reward: on the audit's `reward` line, with the minimal repair as data
  // for the quick fix (each detector with a λ that the finite-set certificate backs).
  const rewardItem = decl.items.find((i) => i.kind === 'audit-reward');
  const winning = report.attacks.flatMap((a) => a.results.filter((r) => r.reward === report.reward.name && r.selection === 'oracle_worst' && (r.estimate.asr ?? 0) > 0).map((r) => ({ attack: a.name, r })));
  if (winning.length > 0) {
    const repair = report.lattice.minimal[0];
    const terms = (repair ?? []).map((detector) => {
      const certificate = report.certificate.find((c) => c.detector === detector);
      const lambda = report.lattice.detectors.find((d) => d.name === detector)?.lambda ?? 1;
      return { detector, lambda: certifiedLambda(lambda, certificate?.maxGain ?? null), maxGain: certificate?.maxGain ?? null };
    });
    problems.push({
      code: auditIssueCodes.attackSucceeds, severity: 'warning', span: rewardItem?.span ?? anchor,
      message: `${winning.map((w) => `${w.attack} beats ${report.reward.name}: ${percent(w.r.estimate.asr)} of isolated-eligible clusters (oracle-worst, ${w.r.label})`).join('; ')}` +
        (repair === undefined ? '; no subset of the lattice stops every attack' : `; observed minimal repair {${repair.join(', ')}}`),
      data: { reward: report.reward.name, repair: terms },
    });
  }

  // Cancellation: on the larger reward's term whose active penalty the attack switches off.
  const seen = new Set<string>();
  for (const finding of report.cancellation) {
    const key = `${finding.larger}\u0000${finding.term}\u0000${finding.attack}`;
    if (seen.has(key)) continue;
    seen.add(key);
    const both = report.cancellation.filter((f) => `${f.larger}\u0000${f.term}\u0000${f.attack}` === key);
    const term = findTerm(model, finding.larger, finding.term);
    const rewardName = model.globals.get(finding.larger)?.decl.name?.span;
    const pair = finding.example;
    const margins = Object.entries(pair.margins).map(([reward, m]) => `${reward} ${margin(m)}`).join(' → ');
    const strata = both.map((f) => `${f.selection}: ${percent(f.strata.active.asr)} with ${f.term} active vs ${percent(f.strata.inactive.asr)} without`).join('; ');
    problems.push({
      code: auditIssueCodes.penaltyCancellation, severity: 'warning', span: term?.span ?? rewardName ?? anchor,
      message:
        `penalty cancellation: ${finding.count} ${finding.attack} edit${finding.count === 1 ? '' : 's'} in ${finding.clusters} cluster${finding.clusters === 1 ? '' : 's'} ` +
        `lose under ${finding.smaller} but win under ${finding.larger}, because the edit switches off '${finding.term}' (${finding.termWeight}), ` +
        `already active on the original. ${strata}. Worked pair ${pair.trajectory} (${report.pools.find((p) => p.name === pair.pool)?.file ?? pair.pool}:${pair.line}` +
        `${pair.replacement === null ? '' : `, citation ${pair.position} → ${pair.replacement}`}): ${margins}`,
      data: { larger: finding.larger, smaller: finding.smaller, term: finding.term, attack: finding.attack },
    });
  }

  // Redundant lattice detectors: fade them, as an editor fades unused code.
  if (report.lattice.minimal.length > 0) {
    const needed = new Set(report.lattice.minimal.flat());
    const entries = decl.items.flatMap((i) => (i.kind === 'lattice' ? i.entries : []));
    for (const detector of report.lattice.detectors) {
      if (needed.has(detector.name)) continue;
      const entry = entries.find((e) => e.detector.text === detector.name);
      problems.push({
        code: auditIssueCodes.redundantDetector, severity: 'information', span: entry?.span ?? anchor, unnecessary: true,
        message: `${detector.name} is in no observed minimal repair (${report.lattice.minimal.map((m) => `{${m.join(', ')}}`).join(', ')}): its penalty is not needed against the attacks this audit runs`,
      });
    }
  }

  // Attacks whose isolated-eligible set is too small for a zero to mean much.
  const attackItems = decl.items.filter((i) => i.kind === 'attack');
  for (const attack of report.attacks) {
    const clusters = attack.counts.clusters.isolatedEligible;
    if (clusters >= smallSampleClusters) continue;
    const item = attackItems.find((i) => i.kind === 'attack' && i.name?.text === attack.name);
    problems.push({
      code: auditIssueCodes.smallSample, severity: 'warning', span: item?.span ?? anchor,
      message: clusters === 0
        ? `no trajectory admits an isolated-eligible ${attack.name} edit: this attack tests nothing on these pools`
        : `only ${clusters} isolated-eligible cluster${clusters === 1 ? '' : 's'}: a zero ASR only bounds it at ≤ ${percent(zeroEventUpperBound(clusters))} (95%)`,
    });
  }
  return problems;
}

/**
 * Bad rows, on the `pool` (or `corpus`) declaration that links the file. Issues name files as they
 * were opened and links as the spec writes them: both are resolved against the spec's folder.
 */
function rowFindings(issues: readonly RowIssue[], model: SpecModel, specDir: string): Problem[] {
  const byFile = new Map<string, RowIssue[]>();
  for (const issue of issues) {
    const file = path.resolve(specDir, issue.file);
    byFile.set(file, [...(byFile.get(file) ?? []), issue]);
  }
  const problems: Problem[] = [];
  for (const [file, rows] of byFile) {
    const decl = [...model.globals.values()].find((s) => (s.decl.kind === 'pool' || s.decl.kind === 'corpus') && s.decl.path !== undefined && path.resolve(specDir, s.decl.path.value) === file);
    if (decl === undefined) continue;
    const shown = rows.slice(0, 5).map((r) => `${path.relative(specDir, file).split(path.sep).join('/')}:${r.line}: ${r.reason}`).join('; ');
    problems.push({
      code: auditIssueCodes.badRows, severity: 'error', span: decl.decl.span,
      message: `${rows.length} row${rows.length === 1 ? '' : 's'} skipped: ${shown}${rows.length > 5 ? `; and ${rows.length - 5} more` : ''}`,
    });
  }
  return problems;
}

/**
 * What an audit found, as problems on the current spec. Everything is anchored by name (audit,
 * expect text, reward term, lattice entry, attack, pool), so findings stay on the right line while
 * the user edits after the audit ran.
 */
export function auditProblems(
  report: Report | undefined,
  dataIssues: readonly RowIssue[],
  failures: readonly AuditFailure[],
  model: SpecModel,
  text: string,
  specDir: string,
): Problem[] {
  const problems = rowFindings(dataIssues, model, specDir);
  if (report === undefined) {
    const failed = dataIssues.filter((i) => i.line === 0);
    for (const decl of model.spec.decls) {
      if (decl.kind !== 'audit' || decl.name === undefined) continue;
      const reasons = [...failed.map((f) => f.reason), ...failures.filter((f) => f.audit === decl.name?.text).map((f) => f.reason)];
      if (reasons.length === 0) continue;
      problems.push({ code: auditIssueCodes.auditFailed, severity: 'error', span: decl.name.span, message: `the audit could not run: ${reasons.join('; ')}` });
    }
    return problems;
  }
  for (const audit of report.audits) problems.push(...auditFindings(audit, model, text));
  return problems;
}
