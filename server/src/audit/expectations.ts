import type { ComparisonOp } from '../syntax/ast.js';
import type { AttackReport, AuditReport, LatticeReport } from '../report/schema.js';
import type { LineIndex } from '../problems/line-index.js';
import type { AuditPlan, ExpectPlan } from './plan.js';
import { frozenSentence, percent, vacuousLattice } from '../report/format-numbers.js';

// Rates are compared as fractions; a tolerance keeps `== 0` and `<= 5%` free of float noise.
const tolerance = 1e-12;

function compare(actual: number, op: ComparisonOp, expected: number): boolean {
  switch (op) {
    case '==':
      return Math.abs(actual - expected) <= tolerance;
    case '!=':
      return Math.abs(actual - expected) > tolerance;
    case '<':
      return actual < expected - tolerance;
    case '<=':
      return actual <= expected + tolerance;
    case '>':
      return actual > expected + tolerance;
    case '>=':
      return actual >= expected - tolerance;
  }
}

const setText = (names: readonly string[]): string => `{${names.join(', ')}}`;

export interface ExpectationResult {
  readonly passed: boolean;
  readonly actual: string;
}

/** Checks one `expect` line against the audit's figures. */
/** The audit's `expect` lines as its report gives them: each line's text and place, judged against the attacks and the lattice. */
export function expectationReports(plan: Pick<AuditPlan, 'expects'>, attacks: readonly AttackReport[], lattice: LatticeReport, lines: LineIndex): AuditReport['expectations'] {
  return plan.expects.map((expect) => ({ text: expect.text, range: lines.range(expect.span), ...evaluateExpectation(expect, attacks, lattice) }));
}

export function evaluateExpectation(expect: ExpectPlan, attacks: readonly AttackReport[], lattice: LatticeReport): ExpectationResult {
  if (expect.kind === 'minimal') {
    // The lattice leaves out the attacks frozen under the audited reward: said with its result.
    const leftOut = lattice.frozen === undefined ? '' : ` (without ${lattice.frozen.join(', ')}: frozen, see frozen-figures)`;
    if (lattice.vacuous) return { passed: false, actual: `${vacuousLattice}${leftOut}` };
    const wanted = [...expect.detectors].sort().join(',');
    const passed = lattice.minimal.some((set) => [...set].sort().join(',') === wanted);
    const found = lattice.minimal.length === 0 ? 'no subset of the lattice is sufficient' : `observed inclusion-minimal: ${lattice.minimal.map(setText).join(', ')}`;
    return { passed, actual: `${found}${leftOut}` };
  }
  const result = attacks.find((a) => a.name === expect.attack)?.results.find((r) => r.reward === expect.reward && r.selection === expect.selection);
  if (result === undefined) return { passed: false, actual: `no result for ${expect.reward} under ${expect.attack}` };
  // A frozen figure is not the reward's: it holds no expectation, whatever it says.
  if (result.frozen !== undefined) return { passed: false, actual: `${expect.metric} is frozen: ${frozenSentence(expect.reward, expect.attack, result.frozen)}` };
  // Nor is the figure of a reward that does not reproduce what a `conforms` line says it must.
  if (result.notConforming !== undefined) return { passed: false, actual: `${expect.metric} is not the logged reward's: ${result.notConforming.map((t) => `\`${t}\``).join(', ')} fails` };
  const e = result.estimate;
  const value = expect.metric === 'asr' ? e.asr : expect.metric === 'upper' ? e.interval.high : expect.metric === 'mean_margin' ? e.meanMargin : e.worstMargin;
  // An undefined figure (no isolated-eligible cluster) holds no expectation, whatever it says.
  if (value === null) return { passed: false, actual: `${expect.metric} is undefined: no isolated-eligible ${expect.attack} edit, so nothing was tested` };
  const shown = expect.metric === 'asr' || expect.metric === 'upper' ? percent(value) : value.toFixed(5);
  return { passed: compare(value, expect.op, expect.value), actual: `${expect.metric} = ${shown} over ${e.clusters} isolated-eligible clusters` };
}

/** A detector of a repair and its penalty: `R − λ·f`. */
export interface RepairPenalty {
  readonly detector: string;
  readonly lambda: number;
}

/** Penalties that differ by less than this are the lattice's (a repair's λ is written with few digits). */
const sameLambda = 1e-9;

/**
 * Whether the lattice shows that an expectation about the audited reward holds on the repair
 * `R − Σ λ·f` instead: the repair's detectors are a sufficient subset of the lattice, and the line
 * holds on that subset's figures. A repair whose λ are the lattice's has exactly those figures;
 * one with a larger λ (the certificate's) has margins no larger on every edit (isolation makes each
 * d = f(A(τ)) − f(τ) 0 or 1), so only an upper bound on the ASR is known to hold there too.
 * `worst_margin` is not among a subset's figures: never known.
 */
export function holdsOnRepair(expect: ExpectPlan, lattice: LatticeReport, repair: readonly RepairPenalty[]): boolean {
  if (expect.kind !== 'metric' || repair.length === 0) return false;
  const wanted = repair.map((t) => t.detector).sort().join(',');
  const subset = lattice.subsets.find((s) => [...s.detectors].sort().join(',') === wanted);
  if (subset === undefined || !subset.sufficient) return false;
  const figures = subset.results.find((r) => r.attack === expect.attack && r.selection === expect.selection);
  if (figures === undefined) return false;
  const value = expect.metric === 'asr' ? figures.asr : expect.metric === 'upper' ? figures.upper : expect.metric === 'mean_margin' ? figures.meanMargin : null;
  if (value === null || !compare(value, expect.op, expect.value)) return false;
  const lambdas = repair.map((t) => t.lambda - (lattice.detectors.find((d) => d.name === t.detector)?.lambda ?? Number.NaN));
  if (lambdas.every((difference) => Math.abs(difference) < sameLambda)) return true;
  const upperBound = expect.op === '<=' || expect.op === '<' || (expect.op === '==' && expect.value === 0);
  return expect.metric === 'asr' && upperBound && lambdas.every((difference) => difference > -sameLambda);
}
