import { auditIssueCodes } from '../problems/issue-codes.js';
import type { Problem } from '../problems/problem.js';
import type { Span } from '../problems/span.js';
import { shortNumber } from '../report/format-numbers.js';
import type { ComparisonReport } from '../report/training-schema.js';
import type { SpecModel } from '../semantics/check.js';
import type { ComparisonDecl } from '../syntax/ast.js';
import { points } from './wording.js';

/** Where the gate is set: the block's `margin` option, else its name. */
function gateSpan(block: ComparisonDecl): Span {
  const margin = block.items.find((i) => i.kind === 'option' && i.key.text === 'margin');
  return margin?.span ?? block.name?.span ?? block.span;
}

/**
 * A `non-inferiority-fails` warning for every comparison whose EM gate fails, on the `margin`
 * option that sets it (or the block's name), with each benchmark's paired lower bound.
 */
export function comparisonFindings(reports: readonly ComparisonReport[], model: SpecModel): Problem[] {
  return reports.flatMap((report): Problem[] => {
    const gate = report.nonInferiority;
    const block = model.globals.get(report.name)?.decl;
    if (gate.passed || block?.kind !== 'comparison') return [];
    const bounds = gate.benchmarks.map((b) => `${b.benchmark} ${b.lower === null ? 'n/a (no pairs)' : points(b.lower)} ${b.passed ? '✓' : '✗'}`);
    const failing = gate.benchmarks.filter((b) => !b.passed).map((b) => b.benchmark);
    return [{
      code: auditIssueCodes.nonInferiorityFails, severity: 'warning', span: gateSpan(block),
      message: `in comparison ${report.name}, EM non-inferiority fails on ${failing.join(', ') || 'every benchmark'}: the paired lower bound of treatment − base EM ` +
        `(95% question-cluster bootstrap) must be above −${shortNumber(gate.margin)} points on each benchmark; lower bounds: ${bounds.join(', ')}`,
      data: { comparison: report.name, margin: gate.margin, benchmarks: gate.benchmarks.map((b) => ({ benchmark: b.benchmark, lower: b.lower, passed: b.passed })) },
      key: [report.name],
    }];
  });
}
