import { auditIssueCodes } from '../problems/issue-codes.js';
import type { Problem } from '../problems/problem.js';
import type { Span } from '../problems/span.js';
import { shortNumber } from '../report/format-numbers.js';
import type { ComparisonReport } from '../report/training-schema.js';
import type { SpecModel } from '../semantics/check.js';
import type { ComparisonDecl } from '../syntax/ast.js';
import { points, powerSentence } from './wording.js';
import type { ComparisonMatching } from '../report/compare-schema.js';

/** Where the claim is set: the block's `claim` option, else its name. */
function claimSpan(block: ComparisonDecl): Span {
  const claim = block.items.find((i) => i.kind === 'option' && i.key.text === 'claim');
  return claim?.span ?? block.name?.span ?? block.span;
}

/** Where the gate is set: the block's `margin` option, else its name. */
function gateSpan(block: ComparisonDecl): Span {
  const margin = block.items.find((i) => i.kind === 'option' && i.key.text === 'margin');
  return margin?.span ?? block.name?.span ?? block.span;
}


function mismatchText(m: ComparisonMatching): string {
  const parts: string[] = [];
  if (m.baseOnlyQuestions > 0) parts.push(`${m.baseOnlyQuestions} question ids only in the base arm`);
  if (m.treatmentOnlyQuestions > 0) parts.push(`${m.treatmentOnlyQuestions} only in the treatment arm`);
  if (m.sampleMismatches > 0) parts.push(`${m.sampleMismatches} questions whose samples (meta.sample) differ between arms or runs`);
  if (m.duplicateSamples > 0) parts.push(`${m.duplicateSamples} questions with a sample logged twice in one run`);
  if (m.tokenBudget !== null && !(m.tokenBudget.base.length === 1 && m.tokenBudget.treatment.length === 1 && m.tokenBudget.base[0] === m.tokenBudget.treatment[0])) {
    const list = (xs: readonly string[]): string => (xs.length === 0 ? 'none logged' : xs.join(', '));
    parts.push(`token budgets differ (meta.token_budget: base ${list(m.tokenBudget.base)}; treatment ${list(m.tokenBudget.treatment)})`);
  }
  return parts.join('; ');
}

/** A `comparison-unmatched` warning on the block's name when the arms do not share questions, samples or budget. */
function unmatchedFinding(report: ComparisonReport, block: ComparisonDecl): Problem[] {
  const m = report.matching;
  if (m.matched) return [];
  return [{
    code: auditIssueCodes.comparisonUnmatched, severity: 'warning', span: block.name?.span ?? block.span,
    message: `in comparison ${report.name}, the arms are not matched: ${mismatchText(m)}${m.examples.length > 0 ? ` (e.g. ${m.examples.join(', ')})` : ''}; ` +
      'the differences pair only the rows that match, so they may not compare like with like',
    data: { comparison: report.name, ...m },
    key: [report.name],
  }];
}

/**
 * A `claim-underpowered` note on the `claim` option for every rate cell (all rows) whose verdict
 * blocks a reduction claim while the design cannot detect the claim: the power statement says why.
 */
function underpoweredFinding(report: ComparisonReport, block: ComparisonDecl): Problem[] {
  const blocked = report.metrics.flatMap((m) => m.cells.flatMap((c) => (c.verdict === 'blocks a reduction claim' && c.power !== null && c.power.underpowered ? [{ metric: m, cell: c, power: c.power }] : [])));
  if (blocked.length === 0) return [];
  const lines = blocked.map(({ metric, cell, power }) => `${metric.label}, ${cell.benchmark}: ${powerSentence(power)}`);
  return [{
    code: auditIssueCodes.claimUnderpowered, severity: 'information', span: claimSpan(block),
    message: `in comparison ${report.name}, ${blocked.length === 1 ? 'a rate blocks' : `${blocked.length} rates block`} a reduction claim of ${shortNumber(report.settings.claim)} points ` +
      `and the design cannot detect one that size: ${lines.join('; ')}`,
    data: { comparison: report.name, claim: report.settings.claim, cells: blocked.map(({ metric, cell, power }) => ({ metric: metric.key, benchmark: cell.benchmark, ...power })) },
    key: [report.name, 'claim'],
  }];
}

/** Every comparison's findings: unmatched arms, a failed EM gate, an underpowered claim. */
export function comparisonFindings(reports: readonly ComparisonReport[], model: SpecModel): Problem[] {
  return reports.flatMap((report): Problem[] => {
    const block = model.globals.get(report.name)?.decl;
    if (block?.kind !== 'comparison') return [];
    return [...unmatchedFinding(report, block), ...gateFinding(report, block), ...underpoweredFinding(report, block)];
  });
}

/** A `non-inferiority-fails` warning on the `margin` option (or the block's name), with each benchmark's paired lower bound. */
function gateFinding(report: ComparisonReport, block: ComparisonDecl): Problem[] {
  const gate = report.nonInferiority;
  if (gate.passed) return [];
  const bounds = gate.benchmarks.map((b) => `${b.benchmark} ${b.lower === null ? 'n/a (no pairs)' : points(b.lower)} ${b.passed ? '✓' : '✗'}`);
  const failing = gate.benchmarks.filter((b) => !b.passed).map((b) => b.benchmark);
  const method = report.runs.varianceEstimated ? 'hierarchical bootstrap over runs and questions' : 'question-cluster bootstrap';
  return [{
    code: auditIssueCodes.nonInferiorityFails, severity: 'warning', span: gateSpan(block),
    message: `in comparison ${report.name}, EM non-inferiority fails on ${failing.join(', ') || 'every benchmark'}: the paired lower bound of treatment − base EM ` +
      `(95% ${method}) must be above −${shortNumber(gate.margin)} points on each benchmark; lower bounds: ${bounds.join(', ')}`,
    data: { comparison: report.name, margin: gate.margin, benchmarks: gate.benchmarks.map((b) => ({ benchmark: b.benchmark, lower: b.lower, passed: b.passed })) },
    key: [report.name],
  }];
}
