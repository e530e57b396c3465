import { CodeActionKind, type CodeAction, type Diagnostic, type TextEdit } from 'vscode-languageserver/node';
import { z } from 'zod';
import { repairFormula, rewardThatIsRepair, type RepairTerm } from '../findings/repair-reward.js';
import { metricExpectPlan } from '../audit/plan.js';
import { evaluateExpectation, holdsOnRepair } from '../audit/expectations.js';
import { margin, plural } from '../report/format-numbers.js';
import type { AuditReport, Report } from '../report/schema.js';
import type { AuditDecl } from '../syntax/ast.js';
import type { DocumentAnalysis } from './document-analysis.js';
import { addToCompare, lineStart } from './spec-edits.js';

// The minimal repair as a quick fix that never changes what another reward means: the repair
// becomes a new derived reward (`reward R0_repair_L = R0 - 1.2 * L`) compared in the audit, or,
// when a reward already has the repair's weights, that reward is compared (or, already compared,
// named by the finding and left alone). Editing R0 itself would also change every reward derived
// from it (R_L = R0 − 1.2·L would then penalise L twice).

/** The `data` of an attack-succeeds finding (findings/audit-findings.ts), as the client sends it back. */
export const repairData = z.object({
  audit: z.string().optional(),
  reward: z.string(),
  repair: z.array(z.object({ detector: z.string(), lambda: z.number(), maxGain: z.number().nullable(), generators: z.array(z.string()).optional() })),
});
type RepairData = z.infer<typeof repairData>;

/** The audit the finding is about: named in its data, else the one whose block holds the diagnostic. */
function auditOf(analysis: DocumentAnalysis, data: RepairData, diagnostic: Diagnostic): AuditDecl | undefined {
  const model = analysis.analyzed.model;
  const named = data.audit === undefined ? undefined : model.globals.get(data.audit)?.decl;
  if (named?.kind === 'audit') return named;
  const at = analysis.lines.offset(diagnostic.range.start);
  return model.spec.decls.find((d): d is AuditDecl => d.kind === 'audit' && d.span.start <= at && at <= d.span.end);
}

/** `R0_repair_L`, or `R0_repair_L_2`… when that name is taken. */
function freshName(analysis: DocumentAnalysis, base: string, repair: readonly RepairTerm[]): string {
  const stem = `${base}_repair_${repair.map((t) => t.detector).join('_')}`;
  let name = stem;
  for (let k = 2; analysis.analyzed.model.globals.has(name); k++) name = `${stem}_${k}`;
  return name;
}

/** The new reward's line, after the last reward declared before the audit (or before the audit). */
function newRewardEdit(analysis: DocumentAnalysis, audit: AuditDecl, name: string, base: string, repair: readonly RepairTerm[]): TextEdit {
  const terms = repair.map((t) => ` - ${t.lambda} * ${t.detector}`).join('');
  const line = `reward ${name} "the observed minimal repair of ${base} (audit ${audit.name?.text ?? ''})" = ${base}${terms}`;
  const rewards = analysis.analyzed.model.spec.decls.filter((d) => d.kind === 'reward' && d.span.end <= audit.span.start);
  const after = rewards[rewards.length - 1];
  if (after !== undefined) {
    // At the end of that reward's last line, so a comment after it stays with it.
    const newline = analysis.text.indexOf('\n', after.span.end);
    const at = newline < 0 ? analysis.text.length : newline;
    // A blank line first: the repair is a declaration of its own, not part of the group above it.
    return { range: analysis.lines.range({ start: at, end: at }), newText: `\n\n${line}` };
  }
  const at = lineStart(analysis.text, audit.span.start);
  return { range: analysis.lines.range({ start: at, end: at }), newText: `${line}\n\n` };
}

function certificateText(repair: RepairData['repair']): string {
  // The certificate covers only the edits that ran: say which generators made them.
  const against = (t: RepairData['repair'][number]): string => (t.generators === undefined || t.generators.length === 0 ? '' : ` against ${t.generators.join(', ')}`);
  return repair.map((t) => (t.maxGain === null ? `no audited edit triggers ${t.detector}` : `max gain ${margin(t.maxGain)} < λ_${t.detector} = ${t.lambda}${against(t)}`)).join('; ');
}

/**
 * The failing `expect` lines about the base reward that the lattice shows hold on the repair: the
 * edits that name the repair in them instead, so the spec holds after the fix.
 */
function retargets(analysis: DocumentAnalysis, audit: AuditDecl, report: AuditReport | undefined, data: RepairData, repairName: string): TextEdit[] {
  if (report === undefined) return [];
  return audit.items.flatMap((item): TextEdit[] => {
    const reward = item.kind === 'expect-metric' ? item.args[0] : undefined;
    if (item.kind !== 'expect-metric' || reward?.text !== data.reward) return [];
    const expect = metricExpectPlan(item, analysis.text);
    if (expect === undefined || evaluateExpectation(expect, report.attacks, report.lattice).passed || !holdsOnRepair(expect, report.lattice, data.repair)) return [];
    return [{ range: analysis.lines.range(reward.span), newText: repairName }];
  });
}

/** `move 1 failing expect about R0 to it (line 14: the lattice shows it holds there)`. */
function moveText(moved: readonly TextEdit[], base: string, to: string): string {
  const lines = moved.map((e) => e.range.start.line + 1).join(', ');
  return `move ${plural(moved.length, 'failing expect')} about ${base} to ${to} (line${moved.length === 1 ? '' : 's'} ${lines}: the lattice shows ${moved.length === 1 ? 'it holds' : 'they hold'} there)`;
}

/**
 * The repair's quick fixes for one attack-succeeds diagnostic. With the audit's report, a failing
 * `expect` about the base reward that the repair makes hold is moved to the repair in the same
 * edit (the preferred action), so the spec holds after one action; the action without that move is
 * offered beside it. None when the repair is compared and no expect is left to move.
 */
export function repairActions(analysis: DocumentAnalysis, diagnostic: Diagnostic, data: RepairData, report: Report | undefined): CodeAction[] {
  // A spec with errors may not compile: its findings are stale, and so would the fix be.
  if (data.repair.length === 0 || analysis.analyzed.problems.some((p) => p.severity === 'error')) return [];
  const audit = auditOf(analysis, data, diagnostic);
  if (audit === undefined) return [];
  const model = analysis.analyzed.model;
  const base = data.reward;
  const formula = repairFormula(base, data.repair);
  const compared = new Set(audit.items.flatMap((i) => (i.kind === 'audit-compare' ? i.rewards.map((r) => r.text) : [])));
  const existing = rewardThatIsRepair(model, base, data.repair);
  const auditName = audit.name?.text ?? '';
  const auditReport = report?.audits.find((a) => a.name === auditName);
  const action = (title: string, edits: readonly TextEdit[], isPreferred: boolean): CodeAction =>
    ({ title, kind: CodeActionKind.QuickFix, diagnostics: [diagnostic], isPreferred, edit: { changes: { [analysis.uri]: [...edits] } } });
  if (existing !== undefined) {
    const moved = retargets(analysis, audit, auditReport, data, existing);
    // Compared already, and no expect to move: the finding says so, and there is nothing to do.
    if (compared.has(existing)) return moved.length === 0 ? [] : [action(`M${moveText(moved, base, existing).slice(1)}, which already is the observed minimal repair ${formula}`, moved, true)];
    const edit = addToCompare(analysis, audit, existing);
    if (edit === undefined) return [];
    const title = `Compare ${existing} in audit ${auditName}: it already is the observed minimal repair ${formula} (no reward changes)`;
    if (moved.length === 0) return [action(title, [edit], true)];
    return [action(`${title}, and ${moveText(moved, base, 'it')}`, [edit, ...moved], true), action(title, [edit], false)];
  }
  const name = freshName(analysis, base, data.repair);
  const compare = addToCompare(analysis, audit, name);
  if (compare === undefined) return [];
  const added = [newRewardEdit(analysis, audit, name, base, data.repair), compare];
  const unchanged = `(${base} and every other reward unchanged; certificate: ${certificateText(data.repair)})`;
  const title = `Add the observed minimal repair as a new reward ${name} = ${formula}, compared in audit ${auditName} ${unchanged}`;
  const moved = retargets(analysis, audit, auditReport, data, name);
  if (moved.length === 0) return [action(title, added, true)];
  return [
    action(`Add the observed minimal repair as a new reward ${name} = ${formula}, compared in audit ${auditName}, and ${moveText(moved, base, 'it')} ${unchanged}`, [...added, ...moved], true),
    action(title, added, false),
  ];
}
