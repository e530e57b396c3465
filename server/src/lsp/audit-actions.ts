import { z } from 'zod';
import { CodeActionKind, type CodeAction, type CodeLens, type Diagnostic, type TextEdit } from 'vscode-languageserver/node';
import { isSmallSample, smallSampleMark } from '../findings/small-sample.js';
import { points } from '../findings/wording.js';
import type { AuditReport, Report } from '../report/schema.js';
import type { ComparisonReport } from '../report/training-schema.js';
import type { RewardDecl, Term } from '../syntax/ast.js';
import { auditIssueCodes } from '../problems/issue-codes.js';
import { specErrorsOf } from './analysis-results.js';
import type { DocumentAnalysis } from './document-analysis.js';
import { plural, shortNumber } from '../report/format-numbers.js';
import { errorCount, firstErrorText, notAuditedTitle, showReportCommand } from '../contract/protocol.js';
import { quickFixes, type FolderFiles } from './quick-fixes.js';
import { repairActions, repairData } from './repair-action.js';
import { lineStart } from './spec-edits.js';

/** The server command behind "accept the current numbers as the baseline". */
export const acceptBaselineCommand = 'herald.acceptBaseline';

// The `data` a cancellation finding attaches (findings/audit-findings.ts), as the client sends it back.
const cancellationData = z.object({ larger: z.string(), term: z.string() });

function rewardDecl(analysis: DocumentAnalysis, name: string): RewardDecl | undefined {
  const decl = analysis.analyzed.model.globals.get(name)?.decl;
  return decl?.kind === 'reward' ? decl : undefined;
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

function auditActions(analysis: DocumentAnalysis, diagnostic: Diagnostic, report: Report | undefined): CodeAction[] {
  if (diagnostic.code === auditIssueCodes.attackSucceeds) {
    const data = repairData.safeParse(diagnostic.data);
    return data.success ? repairActions(analysis, diagnostic, data.data, report) : [];
  }
  const action = auditAction(analysis, diagnostic);
  return action === undefined ? [] : [action];
}

function auditAction(analysis: DocumentAnalysis, diagnostic: Diagnostic): CodeAction | undefined {
  if (diagnostic.code === auditIssueCodes.penaltyCancellation) {
    const data = cancellationData.safeParse(diagnostic.data);
    const term = data.success ? findTerm(analysis, data.data.larger, data.data.term) : undefined;
    if (!data.success || term === undefined) return undefined;
    return {
      title: `Remove the cancelling term '${term.name.text}' from ${data.data.larger}`,
      kind: CodeActionKind.QuickFix, diagnostics: [diagnostic],
      edit: { changes: { [analysis.uri]: [termRemoval(analysis, term)] } },
    };
  }
  if (diagnostic.code === auditIssueCodes.asrRegression) {
    return {
      title: 'Accept the current audit figures as the baseline',
      kind: CodeActionKind.QuickFix, diagnostics: [diagnostic],
      command: { title: 'Accept baseline', command: acceptBaselineCommand, arguments: [analysis.uri] },
    };
  }
  return undefined;
}

/**
 * Quick fixes for the audit's findings and the checker's errors. Each edit does what its title says.
 * `report` is the spec's latest audit report: what the repair's fix reads to know which failing
 * expects the repair makes hold. `folderFiles` lists a folder for the "did you mean" of a missing
 * file; without it there is none.
 */
export function auditCodeActions(analysis: DocumentAnalysis, diagnostics: readonly Diagnostic[], report?: Report, folderFiles: FolderFiles = () => []): CodeAction[] {
  return diagnostics.flatMap((diagnostic) => [...auditActions(analysis, diagnostic, report), ...quickFixes(analysis, diagnostic, folderFiles)]);
}

/** A not-audited lens is cut here (its tooltip has the whole error), so the lens line stays short. */
const maxLensTitle = 80;

function cut(text: string, max: number): string {
  return text.length <= max ? text : `${text.slice(0, max - 1)}…`;
}

/** More attacks than this on one audit's lens are counted, not listed, so the lens line stays short. */
const maxLensAttacks = 4;

/** `launder 14.9%`, with the cluster count when it is a small sample. */
function lensRate(asr: number | null, clusters: number): string {
  if (asr === null) return 'n/a';
  const rate = `${(asr * 100).toFixed(1)}%`;
  return isSmallSample(clusters) ? `${rate}${smallSampleMark} (${plural(clusters, 'cluster')})` : rate;
}

function auditLenses(audit: AuditReport, uri: string): { title: string; tooltip?: string; command: string; arguments?: unknown[] }[] {
  const failed = audit.expectations.filter((e) => !e.passed).length;
  const expects = audit.expectations.length === 0 ? []
    : [{ title: failed === 0 ? `✓ ${plural(audit.expectations.length, 'expect')} hold${audit.expectations.length === 1 ? 's' : ''}` : `✗ ${failed} of ${plural(audit.expectations.length, 'expect')} fail${failed === 1 ? 's' : ''}`,
        tooltip: audit.expectations.map((e) => `${e.passed ? '✓' : '✗'} ${e.text}: ${e.actual}`).join('\n'), command: showReportCommand, arguments: [uri] }];
  const worst = audit.attacks.map((a) => ({ attack: a, r: a.results.find((r) => r.reward === audit.reward.name && r.selection === 'oracle_worst') }));
  const shown = worst.slice(0, maxLensAttacks).map(({ attack, r }) => `${attack.name} ${r === undefined ? 'n/a' : lensRate(r.estimate.asr, r.estimate.clusters)}`);
  const more = worst.length > maxLensAttacks ? ` · +${worst.length - maxLensAttacks} more` : '';
  const tooltip = audit.attacks.map((a) => `${a.name}: ${a.results.filter((r) => r.selection === 'oracle_worst').map((r) => `${r.reward} ${lensRate(r.estimate.asr, r.estimate.clusters)}`).join(', ')}`).join('\n');
  const asr = audit.attacks.length === 0 ? []
    : [{ title: `${audit.reward.name} worst-case ASR: ${shown.join(' · ')}${more}`, tooltip: `Oracle-worst ASR per attack and reward\n${tooltip}`, command: showReportCommand, arguments: [uri] }];
  return [{ title: 'Show report', command: showReportCommand, arguments: [uri] }, ...expects, ...asr];
}

function comparisonLenses(comparison: ComparisonReport, uri: string): { title: string; tooltip?: string; command: string; arguments?: unknown[] }[] {
  const gate = comparison.nonInferiority;
  const failing = gate.benchmarks.filter((b) => !b.passed).map((b) => b.benchmark);
  const title = gate.passed ? `✓ EM non-inferiority holds (> −${shortNumber(gate.margin)} points)` : `✗ EM non-inferiority fails on ${failing.join(', ') || 'every benchmark'}`;
  const tooltip = `Paired lower bound of treatment − base EM, points (must be > −${shortNumber(gate.margin)}):\n${gate.benchmarks.map((b) => `${b.benchmark} ${points(b.lower)} ${b.passed ? '✓' : '✗'}`).join('\n')}`;
  return [{ title: 'Show report', command: showReportCommand, arguments: [uri] }, { title, tooltip, command: showReportCommand, arguments: [uri] }];
}

/**
 * Above each audit: Show report first (so it is always on screen), whether its expects hold, and
 * the audited reward's oracle-worst ASR per attack (the per-reward figures in the tooltip). Above
 * each comparison: whether its EM non-inferiority gate holds.
 */
export function auditCodeLenses(analysis: DocumentAnalysis, report: Report | undefined): CodeLens[] {
  const model = analysis.analyzed.model;
  // A spec with errors is not audited: its blocks say so rather than show the last results as current.
  const errors = specErrorsOf(analysis);
  if (errors !== undefined) {
    return model.spec.decls.flatMap((decl): CodeLens[] => {
      if ((decl.kind !== 'audit' && decl.kind !== 'comparison') || decl.name === undefined) return [];
      const start = analysis.lines.range(decl.span).start;
      // No command: the lens is a statement, and the errors are in the Problems panel.
      return [{ range: { start, end: start }, command: { title: cut(`✗ ${notAuditedTitle(errors)} · ${firstErrorText(errors)}`, maxLensTitle), tooltip: `Not audited: the spec has ${errorCount(errors)}; the first, on ${firstErrorText(errors)}`, command: '' } }];
    });
  }
  if (report === undefined) return [];
  const blocks = [
    ...report.audits.map((audit) => ({ name: audit.name, kind: 'audit', commands: auditLenses(audit, analysis.uri) })),
    ...(report.comparisons ?? []).map((c) => ({ name: c.name, kind: 'comparison', commands: comparisonLenses(c, analysis.uri) })),
  ];
  return blocks.flatMap(({ name, kind, commands }) => {
    const decl = model.globals.get(name)?.decl;
    if (decl?.kind !== kind || decl.name === undefined) return [];
    const start = analysis.lines.range(decl.span).start;
    return commands.map((command): CodeLens => ({ range: { start, end: start }, command }));
  });
}
