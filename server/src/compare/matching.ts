import type { Trajectory } from '../pool/types.js';
import type { ComparisonMatching } from '../report/compare-schema.js';

// Are the arms matched? The paper's arms share question ids, generation seeds (samples) and a token
// budget; a mismatch is a finding, not a silent pairing. Runs are the logs when `runs logs` is set.

const examplesKept = 3;

/** Samples per question, by run (`runs logs`) or for the arm as one run. */
function samplesByRun(rows: readonly Trajectory[], byLog: boolean): Map<string, Map<string, string[]>> {
  const out = new Map<string, Map<string, string[]>>();
  for (const row of rows) {
    const run = byLog ? row.source.pool : '';
    let questions = out.get(run);
    if (questions === undefined) out.set(run, (questions = new Map()));
    const samples = questions.get(row.question_id);
    const sample = String(row.meta.sample ?? 0);
    if (samples === undefined) questions.set(row.question_id, [sample]);
    else samples.push(sample);
  }
  return out;
}

/** The distinct logged token budgets (`meta.token_budget`), as text; empty when no row logs one. */
function budgets(rows: readonly Trajectory[]): string[] {
  const seen = new Set<string>();
  for (const row of rows) {
    const budget = row.meta['token_budget'];
    if (typeof budget === 'number' || typeof budget === 'string') seen.add(String(budget));
  }
  return [...seen].sort();
}

export function armMatching(base: readonly Trajectory[], treatment: readonly Trajectory[], byLog: boolean): ComparisonMatching {
  const runs = [...samplesByRun(base, byLog).values(), ...samplesByRun(treatment, byLog).values()];
  const baseQuestions = new Set(base.map((r) => r.question_id));
  const treatmentQuestions = new Set(treatment.map((r) => r.question_id));
  const baseOnly = [...baseQuestions].filter((q) => !treatmentQuestions.has(q));
  const treatmentOnly = [...treatmentQuestions].filter((q) => !baseQuestions.has(q));
  // A question whose runs (of either arm) hold different sample sets, or the same sample twice.
  const sampleMismatch: string[] = [];
  const duplicate: string[] = [];
  for (const q of baseQuestions) {
    if (!treatmentQuestions.has(q)) continue;
    const sets = runs.flatMap((run) => {
      const samples = run.get(q);
      return samples === undefined ? [] : [samples];
    });
    if (sets.some((s) => new Set(s).size !== s.length)) duplicate.push(q);
    const keys = sets.map((s) => [...new Set(s)].sort().join(','));
    if (keys.some((k) => k !== keys[0])) sampleMismatch.push(q);
  }
  const baseBudgets = budgets(base);
  const treatmentBudgets = budgets(treatment);
  const tokenBudget = baseBudgets.length === 0 && treatmentBudgets.length === 0 ? null : { base: baseBudgets, treatment: treatmentBudgets };
  const budgetMismatch = tokenBudget !== null && (tokenBudget.base.length !== 1 || tokenBudget.treatment.length !== 1 || tokenBudget.base[0] !== tokenBudget.treatment[0]);
  return {
    baseOnlyQuestions: baseOnly.length,
    treatmentOnlyQuestions: treatmentOnly.length,
    sampleMismatches: sampleMismatch.length,
    duplicateSamples: duplicate.length,
    tokenBudget,
    matched: baseOnly.length + treatmentOnly.length + sampleMismatch.length + duplicate.length === 0 && !budgetMismatch,
    examples: [...baseOnly, ...treatmentOnly, ...sampleMismatch, ...duplicate].slice(0, examplesKept),
  };
}
