import { CodeActionKind, type CodeAction, type Diagnostic, type TextEdit } from 'vscode-languageserver/node';
import { z } from 'zod';
import { repairFormula, rewardThatIsRepair, type RepairTerm } from '../findings/repair-reward.js';
import { margin } from '../report/format-numbers.js';
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
    return { range: analysis.lines.range({ start: at, end: at }), newText: `\n${line}` };
  }
  const at = lineStart(analysis.text, audit.span.start);
  return { range: analysis.lines.range({ start: at, end: at }), newText: `${line}\n\n` };
}

function certificateText(repair: RepairData['repair']): string {
  // The certificate covers only the edits that ran: say which generators made them.
  const against = (t: RepairData['repair'][number]): string => (t.generators === undefined || t.generators.length === 0 ? '' : ` against ${t.generators.join(', ')}`);
  return repair.map((t) => (t.maxGain === null ? `no audited edit triggers ${t.detector}` : `max gain ${margin(t.maxGain)} < λ_${t.detector} = ${t.lambda}${against(t)}`)).join('; ');
}

/** The repair's quick fix for one attack-succeeds diagnostic; none when the repair is already compared. */
export function repairAction(analysis: DocumentAnalysis, diagnostic: Diagnostic, data: RepairData): CodeAction | undefined {
  // A spec with errors may not compile: its findings are stale, and so would the fix be.
  if (data.repair.length === 0 || analysis.analyzed.problems.some((p) => p.severity === 'error')) return undefined;
  const audit = auditOf(analysis, data, diagnostic);
  if (audit === undefined) return undefined;
  const model = analysis.analyzed.model;
  const base = data.reward;
  const formula = repairFormula(base, data.repair);
  const compared = new Set(audit.items.flatMap((i) => (i.kind === 'audit-compare' ? i.rewards.map((r) => r.text) : [])));
  const existing = rewardThatIsRepair(model, base, data.repair);
  const auditName = audit.name?.text ?? '';
  if (existing !== undefined) {
    // The finding says so; there is nothing to add.
    if (compared.has(existing)) return undefined;
    const edit = addToCompare(analysis, audit, existing);
    if (edit === undefined) return undefined;
    return {
      title: `Compare ${existing} in audit ${auditName}: it already is the observed minimal repair ${formula} (no reward changes)`,
      kind: CodeActionKind.QuickFix, diagnostics: [diagnostic], isPreferred: true,
      edit: { changes: { [analysis.uri]: [edit] } },
    };
  }
  const name = freshName(analysis, base, data.repair);
  const compare = addToCompare(analysis, audit, name);
  if (compare === undefined) return undefined;
  return {
    title: `Add the observed minimal repair as a new reward ${name} = ${formula}, compared in audit ${auditName} ` +
      `(${base} and every other reward unchanged; certificate: ${certificateText(data.repair)})`,
    kind: CodeActionKind.QuickFix, diagnostics: [diagnostic], isPreferred: true,
    edit: { changes: { [analysis.uri]: [newRewardEdit(analysis, audit, name, base, data.repair), compare] } },
  };
}
