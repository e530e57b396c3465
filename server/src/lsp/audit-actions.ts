import { z } from 'zod';
import { CodeActionKind, type CodeAction, type CodeLens, type Diagnostic, type TextEdit } from 'vscode-languageserver/node';
import type { Report } from '../report/schema.js';
import type { RewardDecl, Term } from '../syntax/ast.js';
import { auditIssueCodes } from '../problems/issue-codes.js';
import type { DocumentAnalysis } from './document-analysis.js';
import { margin, percent } from '../report/format-numbers.js';
import { showReportCommand } from './protocol.js';

/** The server command behind "accept the current numbers as the baseline". */
export const acceptBaselineCommand = 'herald.acceptBaseline';

// The `data` the audit findings attach (findings/audit-findings.ts), as the client sends it back.
const repairData = z.object({
  reward: z.string(),
  repair: z.array(z.object({ detector: z.string(), lambda: z.number(), maxGain: z.number().nullable() })),
});
const cancellationData = z.object({ larger: z.string(), term: z.string() });

type RepairTerm = z.infer<typeof repairData>['repair'][number];

function rewardDecl(analysis: DocumentAnalysis, name: string): RewardDecl | undefined {
  const decl = analysis.analyzed.model.globals.get(name)?.decl;
  return decl?.kind === 'reward' ? decl : undefined;
}

function lineStart(text: string, offset: number): number {
  return text.lastIndexOf('\n', offset - 1) + 1;
}

/** The edit that adds `−λ·d` for each repair detector to the audited reward, in the reward's own style. */
function repairEdit(analysis: DocumentAnalysis, reward: RewardDecl, terms: readonly RepairTerm[]): TextEdit | undefined {
  const missing = terms.filter((t) => !reward.terms.some((term) => term.body?.kind === 'name' && term.body.name.text === t.detector));
  if (missing.length === 0) return undefined;
  const { text, lines } = analysis;
  if (reward.base !== undefined) {
    const end = reward.terms[reward.terms.length - 1]?.span.end ?? reward.base.span.end;
    return { range: lines.range({ start: end, end }), newText: missing.map((t) => ` - ${t.lambda} * ${t.detector}`).join('') };
  }
  // A block reward: a new term line before the closing brace, indented like the other terms.
  const close = reward.span.end - 1;
  const first = reward.terms[0];
  const indent = first === undefined ? '  ' : text.slice(lineStart(text, first.span.start), first.span.start);
  const at = lineStart(text, close);
  const onOwnLine = text.slice(at, close).trim() === '';
  const newText = missing.map((t) => `${indent}repair_${t.detector} -${t.lambda} * ${t.detector}\n`).join('');
  return onOwnLine
    ? { range: lines.range({ start: at, end: at }), newText }
    : { range: lines.range({ start: close, end: close }), newText: `\n${newText}` };
}

function termRemoval(analysis: DocumentAnalysis, term: Term): TextEdit {
  const { text, lines } = analysis;
  if (term.derived) return { range: lines.range({ start: term.span.start - (text[term.span.start - 1] === ' ' ? 1 : 0), end: term.span.end }), newText: '' };
  // A block term owns its line: remove the whole line.
  const start = lineStart(text, term.span.start);
  const newline = text.indexOf('\n', term.span.end);
  return { range: lines.range({ start, end: newline < 0 ? text.length : newline + 1 }), newText: '' };
}

function findTerm(analysis: DocumentAnalysis, rewardName: string, termName: string): Term | undefined {
  const reward = rewardDecl(analysis, rewardName);
  const own = reward?.terms.find((t) => t.name.text === termName);
  return own ?? (reward?.base === undefined ? undefined : findTerm(analysis, reward.base.text, termName));
}


/** Quick fixes for the audit's diagnostics. Each edit does what its title says. */
export function auditCodeActions(analysis: DocumentAnalysis, diagnostics: readonly Diagnostic[]): CodeAction[] {
  const actions: CodeAction[] = [];
  for (const diagnostic of diagnostics) {
    if (diagnostic.code === auditIssueCodes.attackSucceeds) {
      const data = repairData.safeParse(diagnostic.data);
      if (!data.success) continue;
      const terms = data.data.repair;
      const reward = rewardDecl(analysis, data.data.reward);
      const edit = reward === undefined ? undefined : repairEdit(analysis, reward, terms);
      if (edit === undefined) continue;
      const certificate = terms.map((t) => (t.maxGain === null ? `no audited edit triggers ${t.detector}` : `max gain ${margin(t.maxGain)} < λ_${t.detector} = ${t.lambda}`)).join('; ');
      actions.push({
        title: `Apply the observed minimal repair: ${terms.map((t) => `−${t.lambda}·${t.detector}`).join(' ')} (certificate: ${certificate})`,
        kind: CodeActionKind.QuickFix, diagnostics: [diagnostic], isPreferred: true,
        edit: { changes: { [analysis.uri]: [edit] } },
      });
    } else if (diagnostic.code === auditIssueCodes.penaltyCancellation) {
      const data = cancellationData.safeParse(diagnostic.data);
      const term = data.success ? findTerm(analysis, data.data.larger, data.data.term) : undefined;
      if (!data.success || term === undefined) continue;
      actions.push({
        title: `Remove the cancelling term '${term.name.text}' from ${data.data.larger}`,
        kind: CodeActionKind.QuickFix, diagnostics: [diagnostic],
        edit: { changes: { [analysis.uri]: [termRemoval(analysis, term)] } },
      });
    } else if (diagnostic.code === auditIssueCodes.asrRegression) {
      actions.push({
        title: 'Accept the current audit figures as the baseline',
        kind: CodeActionKind.QuickFix, diagnostics: [diagnostic],
        command: { title: 'Accept baseline', command: acceptBaselineCommand, arguments: [analysis.uri] },
      });
    }
  }
  return actions;
}


/** Above each audit: oracle-worst ASR per attack for the audited and compared rewards, and "Show report". */
export function auditCodeLenses(analysis: DocumentAnalysis, report: Report | undefined): CodeLens[] {
  if (report === undefined) return [];
  const lenses: CodeLens[] = [];
  for (const audit of report.audits) {
    const decl = analysis.analyzed.model.globals.get(audit.name)?.decl;
    if (decl?.kind !== 'audit' || decl.name === undefined) continue;
    const range = analysis.lines.range(decl.span);
    const at = { start: range.start, end: range.start };
    for (const attack of audit.attacks) {
      const figures = attack.results.filter((r) => r.selection === 'oracle_worst').map((r) => `${r.reward} ${percent(r.estimate.asr)}`);
      lenses.push({ range: at, command: { title: `${attack.name}: ${figures.join(' · ')} (oracle-worst ASR)`, command: '' } });
    }
    lenses.push({ range: at, command: { title: 'Show report', command: showReportCommand, arguments: [analysis.uri] } });
  }
  return lenses;
}
