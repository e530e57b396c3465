import { performance } from 'node:perf_hooks';
import { formatSpec } from '../../server/src/format/format.js';
import { analyze } from '../../server/src/semantics/analyze.js';
import { parse } from '../../server/src/syntax/parse.js';
import { rewardLexer } from '../../server/src/syntax/tokens.js';
import { buildLargeSpec } from './large-spec.js';

// What the editor pays per keystroke on a large spec: the language server re-lexes, re-parses and
// re-checks the whole text on every change. Run with `npm run bench:keystroke`. Prints figures
// only; timing depends on the machine, so nothing here is asserted by the test suite.

const targetLines = 1000;
const warmUpRuns = 50;
const measuredRuns = 300;
/** The editor's budget for the work done on each keystroke. */
const budgetMs = 20;

const spec = buildLargeSpec(targetLines);
const lineCount = spec.split('\n').length - 1;

// A keystroke changes the text: each run sees the spec with one weight's digit retyped, so no
// stage can be handed the identical string twice in a row.
const editAt = spec.indexOf('-0.05');
const variants = Array.from({ length: 10 }, (_, digit) => `${spec.slice(0, editAt + 4)}${digit}${spec.slice(editAt + 5)}`);

const errors = analyze(spec).problems.filter((p) => p.severity === 'error');
if (errors.length > 0) {
  // Timing error recovery instead of a clean check would measure the wrong thing.
  throw new Error(`the benchmark spec has ${errors.length} errors, first: ${errors[0]!.code} ${errors[0]!.message}`);
}

interface Phase {
  readonly name: string;
  readonly run: (text: string) => unknown;
}

const phases: Phase[] = [
  { name: 'lex', run: (text) => rewardLexer.tokenize(text) },
  { name: 'parse (lex + parse + AST)', run: (text) => parse(text) },
  { name: 'parse + check (analyze)', run: (text) => analyze(text) },
  { name: 'format (on request only)', run: (text) => formatSpec(text) },
];

interface Timing {
  readonly median: number;
  readonly p95: number;
}

function percentile(sorted: readonly number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil(p * sorted.length) - 1))]!;
}

function measure(phase: Phase): Timing {
  for (let i = 0; i < warmUpRuns; i++) phase.run(variants[i % variants.length]!);
  const samples: number[] = [];
  for (let i = 0; i < measuredRuns; i++) {
    const text = variants[i % variants.length]!;
    const start = performance.now();
    phase.run(text);
    samples.push(performance.now() - start);
  }
  samples.sort((a, b) => a - b);
  return { median: percentile(samples, 0.5), p95: percentile(samples, 0.95) };
}

const timings = new Map(phases.map((phase) => [phase.name, measure(phase)]));
const lex = timings.get('lex')!;
const check = timings.get('parse + check (analyze)')!;

const nameWidth = Math.max(...phases.map((p) => p.name.length));
const row = (cells: string[]): string => `${cells[0]!.padEnd(nameWidth)}  ${cells.slice(1).map((c) => c.padStart(10)).join('  ')}`;
const ms = (value: number): string => value.toFixed(2);

console.log(`Keystroke benchmark: ${lineCount} lines, ${spec.length} characters; ${measuredRuns} runs per phase after ${warmUpRuns} warm-up runs (Node ${process.version})`);
console.log('');
console.log(row(['phase', 'median ms', 'p95 ms', 'x lex']));
for (const phase of phases) {
  const t = timings.get(phase.name)!;
  console.log(row([phase.name, ms(t.median), ms(t.p95), (t.median / lex.median).toFixed(1)]));
}
console.log('');
console.log(`parse + check takes ${(check.median / lex.median).toFixed(1)}x the lexing time (median).`);
console.log(
  check.median < budgetMs
    ? `parse + check median ${ms(check.median)} ms is under the ${budgetMs} ms keystroke budget.`
    : `parse + check median ${ms(check.median)} ms is NOT under the ${budgetMs} ms keystroke budget.`,
);
